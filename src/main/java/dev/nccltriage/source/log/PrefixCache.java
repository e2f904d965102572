package dev.nccltriage.source.log;

/**
 * Recently seen line starts "host:pid:tid [dev] NCCL INFO " and the process each belongs to.
 * Interleaved ranks defeat a one-line memory (the next line is usually another thread's), but a
 * job has a bounded set of threads, so a table of them lets almost every line skip the envelope
 * search, the prefix parse and the process lookup. The key is the line's first eight bytes and
 * the 24 before where the first cached line had "NCCL": the start of the host and "pid:tid [dev] "
 * with the end of the host before it. So neither a long host name shared by eight ranks, nor
 * threads of one pid whose tids begin alike, nor the Pods of a job whose ranks all have the same
 * pids and tids (a PID namespace per Pod) share a slot. A line is found only by
 * an exact match of its whole prefix; the key only spreads them.
 *
 * <p>A prefix shorter than that key, or one whose thread id that key does not span (a log of
 * several jobs, one of shorter or longer host names; a part of a file that began with another
 * job's lines), gets a key of its own length, up to {@link KeyEnds#KEYS} lengths a part; a lookup
 * tries them in turn (one, in a log of one job). Else such a job's lines could never be kept, or all its
 * threads shared a set of slots, and each parsed its prefix again. A prefix without a host (a
 * paste that lost them: "NCCL INFO ", " [0] NCCL INFO ") has a key of eight bytes, tried last.
 *
 * <p>Four ways: a key names a set of four slots. A thread's "NCCL INFO " and "NCCL WARN " prefixes
 * have the same key (it ends before the level), and a failing job's threads alternate WARN and
 * unwind INFO lines: with one slot a key, they evicted each other on every line (half of such a
 * log's lines parsed their prefix again). A WARN's prefix holds its source line too (every NCCL
 * since 2.7: "init.cc:571 NCCL WARN "; 2.30.7 adds the function), so a thread that warns from two
 * places has three prefixes of one key; with two ways they evicted each other on every round of a
 * failing job's lines.
 */
final class PrefixCache {
  private static final int BITS = 14; // a generation of a 1024-rank job has ~4000 threads
  // a Kubeflow pod's name is long: "pytorchjob-<job>-worker-0:113:548 [0] NCCL INFO " is 83 bytes
  private static final int MAX_PREFIX = 128;

  // slot i's prefix as little-endian words from i * WORDS: its whole words, then in tails[i] its
  // last eight bytes (overlapping the last whole word; a prefix's bytes with zeros above if it is
  // shorter). Compared with a line a word at a time, only the line's side is a byte-array read.
  private static final int WORDS = MAX_PREFIX / 8;
  private final long[] words = new long[WORDS << BITS];
  private final long[] tails = new long[1 << BITS];
  // slot i's prefix length (at most MAX_PREFIX) in the low byte, where its host starts in the next
  // (host()), its key's tag in the upper half: one read tells an empty slot, and a slot of another
  // key, from the one to compare
  private final int[] meta = new int[1 << BITS];
  private final ProcessState[] processes = new ProcessState[1 << BITS];
  private final boolean[] warns = new boolean[1 << BITS]; // the prefix ends in "WARN ": no channel line
  private static final int WAYS = 4;
  private final KeyEnds keyEnds = new KeyEnds();
  // the same for prefixes kept from the host on (putFromHost)
  private final KeyEnds hostKeyEnds = new KeyEnds();
  // each set's way to take next when none is free: its ways are taken in turn
  private final byte[] next = new byte[(1 << BITS) / WAYS];
  // the first two bytes of every prefix kept since the last clear, a bit each: a line that starts
  // with no such pair (another program's: a value, a word) is not hashed nor compared (a lookup's
  // slot is a random one of 16384, not in the L1 cache)
  private final long[] firstPairs = new long[1 << 10];

  /** The key of the line [s, e) for key end k, or 0 if the line is shorter than that (or k is 0). */
  private static long key(byte[] b, int s, int e, int k) {
    if (k == 0 || e - s < k) {
      return 0;
    }
    // the 24 bytes before the key's end: a thread's id and dev ("1004:1006 [4] ") leave the last
    // few of its host name in it, and in a Pod every container's processes have the pids and
    // tids of every other's ("worker-6:1004:1006" and "worker-16:1004:1006"). (A key shorter than
    // that, of a prefix without a host, reads its first and last eight bytes, overlapping)
    return Bytes.word(b, s) * 0x9E3779B97F4A7C15L
        + Bytes.word(b, s + Math.max(0, k - 24)) * 0xD6E8FEB86659FD93L
        + Bytes.word(b, s + Math.max(0, k - 16)) * 0xC2B2AE3D27D4EB4FL
        + Bytes.word(b, s + k - 8) * 0x165667B19E3779F9L;
  }

  /** The slot a key is hashed to: the way it prefers in its set. */
  private static int slot(long key) {
    return (int) (key >>> (64 - BITS));
  }

  // (meta) where the host starts in the prefix, + 1, where its parse noted it (UnknownWrappers);
  // 0: not noted (no host, or a prefix that starts before the wrappers end)
  private static final int HOST_SHIFT = 8;
  private static final int HOST = 0xFF << HOST_SHIFT;
  private static final int TAG = -1 << 16;

  /** Bits of a key that its slot does not use, above the length's and the host's bytes: compared first. */
  private static int tag(long key) {
    return (int) key & TAG;
  }

  /** The slot whose prefix [s, e) starts with (and has a message after), or -1. */
  int find(byte[] b, int s, int e) {
    return find(b, s, e, keyEnds);
  }

  /**
   * As {@link #find}, among the prefixes kept from the host on ({@link #putFromHost}): s is where
   * a host would start, past a wrapper that changes from line to line.
   */
  int findFromHost(byte[] b, int s, int e) {
    return find(b, s, e, hostKeyEnds);
  }

  /** The first of the key ends in use under which the line's prefix is kept. */
  private int find(byte[] b, int s, int e, KeyEnds keys) {
    int[] ends = keys.ends;
    int used = keys.used;
    if (s + 1 >= e || (firstPairs[pair(b, s) >>> 6] & 1L << pair(b, s)) == 0) {
      return -1;
    }
    int hit = find(b, s, e, ends[0]);
    for (int k = 1; hit < 0 && k < used; k++) {
      hit = find(b, s, e, ends[k]);
    }
    return hit;
  }

  private int find(byte[] b, int s, int e, int keyEnd) {
    long key = key(b, s, e, keyEnd);
    if (key == 0) {
      return -1;
    }
    // a set's tags lie together, with the lengths that were read anyway: the ways of other keys
    // are passed by without reading their prefixes (each in a cache line of its own)
    int i = slot(key);
    int tag = tag(key);
    if ((meta[i] & TAG) == tag && matches(i, b, s, e)) {
      return i; // where put() keeps a prefix whose slot was free: most of them
    }
    for (int way = 1; way < WAYS; way++) {
      int j = i ^ way;
      if ((meta[j] & TAG) == tag && matches(j, b, s, e)) {
        return j;
      }
    }
    return -1;
  }

  private static int pair(byte[] b, int s) {
    return (b[s] & 0xFF) << 8 | b[s + 1] & 0xFF;
  }

  /** Whether [s, e) starts with slot i's prefix and has a message after it. */
  boolean matches(int i, byte[] b, int s, int e) {
    int n = meta[i] & 0xFF;
    if (n < 8 || e - s <= n) {
      return n > 0 && e - s > n && shortMatches(tails[i], b, s, n);
    }
    int w = i * WORDS;
    int k = 0;
    for (int whole = n >>> 3; k < whole; k++) {
      if (Bytes.word(b, s + (k << 3)) != words[w + k]) {
        return false;
      }
    }
    return (n & 7) == 0 || Bytes.word(b, s + n - 8) == tails[i];
  }

  private static boolean shortMatches(long bytes, byte[] b, int s, int n) {
    for (int j = 0; j < n; j++) {
      if (b[s + j] != (byte) (bytes >>> (j << 3))) {
        return false;
      }
    }
    return true;
  }

  /** Forgets every entry (the processes belong to one part's accumulator). */
  void clear() {
    java.util.Arrays.fill(meta, 0);
    java.util.Arrays.fill(processes, null);
    keyEnds.clear();
    hostKeyEnds.clear();
    java.util.Arrays.fill(firstPairs, 0);
    java.util.Arrays.fill(next, (byte) 0);
  }

  int length(int i) {
    return meta[i] & 0xFF;
  }

  /**
   * Where slot i's host starts in its prefix, as its parse noted it (-1: not noted): a line found in
   * the cache then answers what its parse would have of the bytes between the wrappers and the host
   * ({@link LogParser}: where they end, whether there are any), wherever its prefix was found.
   */
  void host(int i, int offset) {
    meta[i] = meta[i] & ~HOST | (offset + 1) << HOST_SHIFT;
  }

  /** Where slot i's host starts in its prefix; -1 if not noted. */
  int host(int i) {
    return ((meta[i] & HOST) >>> HOST_SHIFT) - 1;
  }

  /** Whether slot i's prefix ends with a WARN level token (its lines are never channel lines). */
  boolean warn(int i) {
    return warns[i];
  }

  ProcessState process(int i) {
    return processes[i];
  }

  /**
   * Remembers that lines starting with b[s, s+n), "NCCL" at {@code at}, are {@code p}'s, and
   * whether that prefix's level is WARN; {@code tidEnd}: where its thread's id ends (-1 if it has
   * no host:pid:tid). The slot or -1.
   */
  int put(byte[] b, int s, int at, int n, int tidEnd, ProcessState p, boolean warn) {
    int keyEnd = keyEnds.pick(n, at - s, tidEnd < 0 ? -1 : tidEnd - s);
    return keyEnd > 0 ? put(b, s, n, p, warn, keyEnd) : -1;
  }

  /**
   * As {@link #put}, for a prefix that starts at its host (found by {@link #findFromHost}): its
   * key spans as much of it as the first such prefix had before "NCCL", which the key of lines
   * with their wrappers would overrun.
   */
  int putFromHost(byte[] b, int s, int at, int n, int tidEnd, ProcessState p, boolean warn) {
    int keyEnd = hostKeyEnds.pick(n, at - s, tidEnd < 0 ? -1 : tidEnd - s);
    return keyEnd > 0 ? put(b, s, n, p, warn, keyEnd) : -1;
  }

  private int put(byte[] b, int s, int n, ProcessState p, boolean warn, int keyEnd) {
    // a prefix with a newline (a JSON record's decoded "\n") or an ESC is not kept: a cached
    // prefix vouches that the bytes it matches hold neither (LogParser.lineAt). Nor one with a
    // quote: a line read as it is (a JSON record or a CSV row that did not decode, a CSV cell's
    // first line) would teach the cache a prefix that starts inside a record or a row, and a later
    // line of that shape would then be taken as it is where read alone it is decoded
    long key = n > MAX_PREFIX || Bytes.hasNewlineOrEscape(b, s, s + n) || Bytes.indexOfByte(b, s, s + n, (byte) '"') >= 0
        ? 0 : key(b, s, s + n, keyEnd);
    int i = key == 0 ? -1 : slot(key);
    if (i >= 0) {
      // the slot hashed to if free (a lookup looks there first), else a free way of its set, else
      // the set's ways in turn
      if (meta[i] != 0) {
        int set = i & -WAYS;
        int free = -1;
        for (int way = 1; way < WAYS && free < 0; way++) {
          free = meta[i ^ way] == 0 ? i ^ way : -1;
        }
        if (free < 0) {
          free = set | next[set / WAYS];
          next[set / WAYS] = (byte) ((free + 1) & (WAYS - 1));
        }
        i = free;
      }
      int w = i * WORDS;
      for (int k = 0; k < n >>> 3; k++) {
        words[w + k] = Bytes.word(b, s + (k << 3));
      }
      long tail = 0;
      if (n >= 8) {
        tail = Bytes.word(b, s + n - 8);
      } else {
        for (int j = n - 1; j >= 0; j--) {
          tail = tail << 8 | (b[s + j] & 0xFF);
        }
      }
      tails[i] = tail;
      meta[i] = tag(key) | n;
      if (n >= 2) {
        firstPairs[pair(b, s) >>> 6] |= 1L << pair(b, s);
      }
      processes[i] = p;
      warns[i] = warn;
    }
    return i;
  }
}
