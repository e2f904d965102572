package dev.nccltriage.source.log;

/**
 * Recently seen line starts "host:pid:tid [dev] NCCL INFO " and the process each belongs to.
 * Interleaved ranks defeat a one-line memory (the next line is usually another thread's), but a
 * job has a bounded set of threads, so a table of them lets almost every line skip the envelope
 * search, the prefix parse and the process lookup. The key is the line's first eight bytes and
 * the sixteen before where the first cached line had "NCCL": the start of the host and, in a log
 * whose prefixes are about that long, "pid:tid [dev] ". So neither a long host name shared by
 * eight ranks nor threads of one pid whose tids begin alike share a slot. A line is found only by
 * an exact match of its whole prefix; the key only spreads them.
 *
 * <p>A prefix shorter than that key (a log of several jobs, one of shorter host names; a part of a
 * file that began with another job's lines) gets a key of its own length, up to {@link #KEYS}
 * lengths a part; a lookup tries them in turn (one, in a log of one job). Else such a job's lines
 * could never be kept, and each parsed its prefix again.
 *
 * <p>Two ways: a key names a pair of slots. A thread's "NCCL INFO " and "NCCL WARN " prefixes
 * have the same key (it ends before the level), and a failing job's threads alternate WARN and
 * unwind INFO lines: with one slot a key, they evicted each other on every line (half of such a
 * log's lines parsed their prefix again).
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
  private final int[] lengths = new int[1 << BITS];
  private final ProcessState[] processes = new ProcessState[1 << BITS];
  private final boolean[] warns = new boolean[1 << BITS]; // the prefix ends in "WARN ": no channel line
  private static final int KEYS = 4;
  // how many bytes of a line each key covers, in the order they came (the first put's first);
  // keyEnds[0, keys) are in use
  private final int[] keyEnds = new int[KEYS];
  private int keys;
  private final int[] hostKeyEnds = new int[KEYS]; // the same for prefixes kept from the host on (putFromHost)
  private int hostKeys;
  private int lastPut = -1;
  // the first two bytes of every prefix kept since the last clear, a bit each: a line that starts
  // with no such pair (another program's: a value, a word) is not hashed nor compared (a lookup's
  // slot is a random one of 16384, not in the L1 cache)
  private final long[] firstPairs = new long[1 << 10];

  private static int slot(byte[] b, int s, int e, int k) {
    if (k == 0 || e - s < k) {
      return -1;
    }
    long h = Bytes.word(b, s) * 0x9E3779B97F4A7C15L
        + Bytes.word(b, s + k - 16) * 0xC2B2AE3D27D4EB4FL
        + Bytes.word(b, s + k - 8) * 0x165667B19E3779F9L;
    return (int) (h >>> (64 - BITS));
  }

  /** The slot whose prefix [s, e) starts with (and has a message after), or -1. */
  int find(byte[] b, int s, int e) {
    return find(b, s, e, keyEnds, keys);
  }

  /**
   * As {@link #find}, among the prefixes kept from the host on ({@link #putFromHost}): s is where
   * a host would start, past a wrapper that changes from line to line.
   */
  int findFromHost(byte[] b, int s, int e) {
    return find(b, s, e, hostKeyEnds, hostKeys);
  }

  /** The first of the key ends in use ({@code ends[0, used)}) under which the line's prefix is kept. */
  private int find(byte[] b, int s, int e, int[] ends, int used) {
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
    int i = slot(b, s, e, keyEnd);
    if (i < 0) {
      return -1;
    }
    return matches(i, b, s, e) ? i : matches(i ^ 1, b, s, e) ? i ^ 1 : -1;
  }

  private static int pair(byte[] b, int s) {
    return (b[s] & 0xFF) << 8 | b[s + 1] & 0xFF;
  }

  /** Whether [s, e) starts with slot i's prefix and has a message after it. */
  boolean matches(int i, byte[] b, int s, int e) {
    int n = lengths[i];
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
    java.util.Arrays.fill(lengths, 0);
    java.util.Arrays.fill(processes, null);
    java.util.Arrays.fill(keyEnds, 0);
    java.util.Arrays.fill(hostKeyEnds, 0);
    java.util.Arrays.fill(firstPairs, 0);
    keys = 0;
    hostKeys = 0;
    lastPut = -1;
  }

  int length(int i) {
    return lengths[i];
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
   * whether that prefix's level is WARN; the slot or -1.
   */
  int put(byte[] b, int s, int at, int n, ProcessState p, boolean warn) {
    int k = keyEnd(keyEnds, keys, n);
    if (k == keys && k < KEYS && at - s >= 16) {
      keyEnds[keys++] = at - s;
    }
    return k < keys ? put(b, s, n, p, warn, keyEnds[k]) : -1;
  }

  /**
   * Which of the {@code used} key ends a prefix of {@code n} bytes is kept under: the first that
   * does not reach past it; {@code used} if none does (too short for every key).
   */
  private static int keyEnd(int[] ends, int used, int n) {
    for (int k = 0; k < used; k++) {
      if (ends[k] <= n) {
        return k;
      }
    }
    return used;
  }

  /**
   * As {@link #put}, for a prefix that starts at its host (found by {@link #findFromHost}): its
   * key spans as much of it as the first such prefix had before "NCCL", which the key of lines
   * with their wrappers would overrun.
   */
  int putFromHost(byte[] b, int s, int at, int n, ProcessState p, boolean warn) {
    int k = keyEnd(hostKeyEnds, hostKeys, n);
    if (k == hostKeys && k < KEYS && at - s >= 16) {
      hostKeyEnds[hostKeys++] = at - s;
    }
    return k < hostKeys ? put(b, s, n, p, warn, hostKeyEnds[k]) : -1;
  }

  private int put(byte[] b, int s, int n, ProcessState p, boolean warn, int keyEnd) {
    // a prefix with a newline (a JSON record's decoded "\n") or an ESC is not kept: a cached
    // prefix vouches that the bytes it matches hold neither (LogParser.lineAt). Nor one with a
    // quote: a line read as it is (a JSON record or a CSV row that did not decode, a CSV cell's
    // first line) would teach the cache a prefix that starts inside a record or a row, and a later
    // line of that shape would then be taken as it is where read alone it is decoded
    int i = n > MAX_PREFIX || Bytes.hasNewlineOrEscape(b, s, s + n) || Bytes.indexOfByte(b, s, s + n, (byte) '"') >= 0
        ? -1 : slot(b, s, s + n, keyEnd);
    if (i >= 0) {
      // the free way, else the one not put last (the other holds the pair's newer prefix)
      if (lengths[i] != 0 && (lengths[i ^ 1] == 0 || lastPut == i)) {
        i ^= 1;
      }
      lastPut = i;
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
      lengths[i] = n;
      if (n >= 2) {
        firstPairs[pair(b, s) >>> 6] |= 1L << pair(b, s);
      }
      processes[i] = p;
      warns[i] = warn;
    }
    return i;
  }
}
