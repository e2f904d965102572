package dev.nccltriage.source.log;

/**
 * The open-addressing table behind {@link ProcessTable}: finds a process state by the raw bytes of
 * its host name and its pid without allocating on a hit. It only stores and finds; which hosts and
 * processes get an entry is the table's business.
 *
 * <p>The caller hashes the name once ({@link #nameHash}) and the table keeps that hash beside the
 * pid: a probe reads the host's bytes (another object, often another cache miss on a log of many
 * hosts) only when both match. The table's hash is not String.hashCode (the sample's): names made
 * to collide in that ("Aa" and "BB" are one hash) would make every lookup walk all of them.
 */
final class ProcessIndex {
  /** The key of the states of lines without a host (told apart from an empty host name by identity). */
  static final byte[] NO_HOST = new byte[0];
  /** {@link #nameHash}'s flag: a byte of the name is not ASCII. */
  static final long NOT_ASCII = Long.MIN_VALUE;
  private static final long NO_HOST_HASH = 0x5BD1E995L;

  private byte[][] hosts;
  private long[] pids;
  private int[] names; // each entry's name hash (the table's: nameHash's high half)
  private ProcessState[] states;

  /** {@code capacity}: a power of two. */
  ProcessIndex(int capacity) {
    hosts = new byte[capacity][];
    pids = new long[capacity];
    names = new int[capacity];
    states = new ProcessState[capacity];
  }

  int capacity() {
    return states.length;
  }

  /**
   * The hashes of host name b[hs, he) (hs &lt; 0: no host): in the low 32 bits String.hashCode of
   * the name for an ASCII name (what the sample keys on), in bits 32-62 the table's own hash (a
   * multiply and a shift a byte), and {@link #NOT_ASCII} if a byte is not ASCII.
   */
  static long nameHash(byte[] b, int hs, int he) {
    if (hs < 0) {
      return NO_HOST_HASH;
    }
    int h = 0;
    int any = 0;
    long g = 0x632BE59BD9B4E019L + he - hs;
    for (int i = hs; i < he; i++) {
      any |= b[i];
      h = 31 * h + b[i];
      g = (g + b[i]) * 0x9E3779B97F4A7C15L;
      g ^= g >>> 29;
    }
    return h & 0xFFFFFFFFL | (g >>> 33) << 32 | (any < 0 ? NOT_ASCII : 0);
  }

  /** The hash of a stored key. */
  static long nameHash(byte[] key) {
    return key == NO_HOST ? NO_HOST_HASH : nameHash(key, 0, key.length);
  }

  /** The state of pid on the host b[hs, he) (hs < 0: no host) of {@link #nameHash} {@code name}; null if none. */
  ProcessState find(byte[] b, int hs, int he, long name, long pid) {
    int mask = states.length - 1;
    int n = (int) (name >>> 32);
    for (int i = slot(n, pid) & mask; states[i] != null; i = (i + 1) & mask) {
      if (pids[i] == pid && names[i] == n && equal(hosts[i], b, hs, he)) {
        return states[i];
      }
    }
    return null;
  }

  /** Stores s under (host key, pid); the caller grows the table before it is half full. */
  void put(byte[] key, long pid, ProcessState s) {
    int n = (int) (nameHash(key) >>> 32);
    int mask = states.length - 1;
    int i = slot(n, pid) & mask;
    while (states[i] != null) {
      i = (i + 1) & mask;
    }
    hosts[i] = key;
    pids[i] = pid;
    names[i] = n;
    states[i] = s;
  }

  void grow() {
    byte[][] oh = hosts;
    long[] op = pids;
    int[] on = names;
    ProcessState[] os = states;
    hosts = new byte[os.length * 2][];
    pids = new long[os.length * 2];
    names = new int[os.length * 2];
    states = new ProcessState[os.length * 2];
    int mask = states.length - 1;
    for (int j = 0; j < os.length; j++) {
      if (os[j] == null) {
        continue;
      }
      int i = slot(on[j], op[j]) & mask;
      while (states[i] != null) {
        i = (i + 1) & mask;
      }
      hosts[i] = oh[j];
      pids[i] = op[j];
      names[i] = on[j];
      states[i] = os[j];
    }
  }

  private static int slot(int name, long pid) {
    int h = name ^ (int) (pid * 0x9E3779B97F4A7C15L >>> 32);
    // murmur3's finaliser: names that differ in their last digit land far apart (linear probing)
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    return h ^ (h >>> 16);
  }

  private static boolean equal(byte[] host, byte[] b, int hs, int he) {
    if (hs < 0) {
      return host == NO_HOST;
    }
    return host != NO_HOST && host.length == he - hs && Bytes.equal(b, hs, host, host.length);
  }
}
