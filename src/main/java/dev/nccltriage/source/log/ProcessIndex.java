package dev.nccltriage.source.log;

/**
 * The open-addressing table behind {@link ProcessTable}: finds a process state by the raw bytes of
 * its host name and its pid without allocating on a hit. It only stores and finds; which hosts and
 * processes get an entry is the table's business.
 */
final class ProcessIndex {
  /** The key of the states of lines without a host (told apart from an empty host name by identity). */
  static final byte[] NO_HOST = new byte[0];

  private byte[][] hosts;
  private long[] pids;
  private ProcessState[] states;

  /** {@code capacity}: a power of two. */
  ProcessIndex(int capacity) {
    hosts = new byte[capacity][];
    pids = new long[capacity];
    states = new ProcessState[capacity];
  }

  int capacity() {
    return states.length;
  }

  /** The state of pid on the host b[hs, he) (hs < 0: no host); null if none. */
  ProcessState find(byte[] b, int hs, int he, long pid) {
    int mask = states.length - 1;
    for (int i = hash(b, hs, he, pid) & mask; states[i] != null; i = (i + 1) & mask) {
      if (pids[i] == pid && equal(hosts[i], b, hs, he)) {
        return states[i];
      }
    }
    return null;
  }

  /** Stores s under (host key, pid); the caller grows the table before it is half full. */
  void put(byte[] key, long pid, ProcessState s) {
    int mask = states.length - 1;
    int i = hash(key, key == NO_HOST ? -1 : 0, key.length, pid) & mask;
    while (states[i] != null) {
      i = (i + 1) & mask;
    }
    hosts[i] = key;
    pids[i] = pid;
    states[i] = s;
  }

  void grow() {
    byte[][] oh = hosts;
    long[] op = pids;
    ProcessState[] os = states;
    hosts = new byte[os.length * 2][];
    pids = new long[os.length * 2];
    states = new ProcessState[os.length * 2];
    int mask = states.length - 1;
    for (int j = 0; j < os.length; j++) {
      if (os[j] == null) {
        continue;
      }
      int i = hash(oh[j], oh[j] == NO_HOST ? -1 : 0, oh[j].length, op[j]) & mask;
      while (states[i] != null) {
        i = (i + 1) & mask;
      }
      hosts[i] = oh[j];
      pids[i] = op[j];
      states[i] = os[j];
    }
  }

  private static int hash(byte[] b, int hs, int he, long pid) {
    int h = (int) (pid * 0x9E3779B9L);
    for (int i = hs; i >= 0 && i < he; i++) {
      h = h * 31 + b[i];
    }
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
