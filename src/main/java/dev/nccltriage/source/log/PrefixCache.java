package dev.nccltriage.source.log;

/**
 * Recently seen line starts "host:pid:tid [dev] NCCL INFO " and the process each belongs to.
 * Interleaved ranks defeat a one-line memory (the next line is usually another thread's), but a
 * job has a bounded set of threads, so a table of them lets almost every line skip the envelope
 * search, the prefix parse and the process lookup. A prefix is keyed by its first eight bytes and
 * the sixteen before its "NCCL": the start of the host and "pid:tid [dev] ", so neither a long host
 * name shared by eight ranks nor threads of one pid whose tids begin alike share a slot. Prefixes
 * differ in length (host numbers, pids and tids of more digits, several logs in one), so the table
 * keeps the few lengths it has seen and a line is looked up at each, the last one found first. A
 * line is found only by an exact match of its whole prefix; the key only spreads them.
 */
final class PrefixCache {
  private static final int BITS = 14; // a generation of a 1024-rank job has ~4000 threads
  private static final int MAX_PREFIX = 64;
  private static final int MAX_LENGTHS = 4;

  private final byte[] starts = new byte[MAX_PREFIX << BITS]; // slot i at i * MAX_PREFIX
  private final int[] lengths = new int[1 << BITS];
  private final ProcessState[] processes = new ProcessState[1 << BITS];
  // the bytes before "NCCL" of the prefixes put, distinct, the one found or put last first
  private final int[] keyEnds = new int[MAX_LENGTHS];
  private int keys;

  /** The slot of a prefix whose "NCCL" is k bytes after s (k >= 8, and the line holds them). */
  private static int slot(byte[] b, int s, int k) {
    long h = Bytes.word(b, s) * 0x9E3779B97F4A7C15L
        + Bytes.word(b, s + Math.max(0, k - 16)) * 0xC2B2AE3D27D4EB4FL
        + Bytes.word(b, s + k - 8) * 0x165667B19E3779F9L;
    return (int) (h >>> (64 - BITS));
  }

  /** The slot whose prefix [s, e) starts with (and has a message after), or -1. */
  int find(byte[] b, int s, int e) {
    for (int j = 0; j < keys; j++) {
      int k = keyEnds[j];
      if (e - s <= k) {
        continue;
      }
      int i = slot(b, s, k);
      if (matches(i, b, s, e)) {
        if (j > 0) { // lines of one log share a length: try it first next time
          keyEnds[j] = keyEnds[0];
          keyEnds[0] = k;
        }
        return i;
      }
    }
    return -1;
  }

  /** Whether [s, e) starts with slot i's prefix and has a message after it. */
  boolean matches(int i, byte[] b, int s, int e) {
    int n = lengths[i];
    return n > 0 && e - s > n && Bytes.equal(b, s, starts, i * MAX_PREFIX, n);
  }

  /** Forgets every entry (the processes belong to one part's accumulator). */
  void clear() {
    java.util.Arrays.fill(lengths, 0);
    java.util.Arrays.fill(processes, null);
    keys = 0;
  }

  int length(int i) {
    return lengths[i];
  }

  ProcessState process(int i) {
    return processes[i];
  }

  /** Remembers that lines starting with b[s, s+n), "NCCL" at {@code at}, are {@code p}'s; the slot or -1. */
  int put(byte[] b, int s, int at, int n, ProcessState p) {
    int k = at - s;
    if (k < 8 || n > MAX_PREFIX) {
      return -1;
    }
    keyed(k);
    int i = slot(b, s, k);
    System.arraycopy(b, s, starts, i * MAX_PREFIX, n);
    lengths[i] = n;
    processes[i] = p;
    return i;
  }

  /** Keeps looking lines up at k bytes before "NCCL" (a new length takes the place of the stalest). */
  private void keyed(int k) {
    for (int j = 0; j < keys; j++) {
      if (keyEnds[j] == k) {
        return;
      }
    }
    // first in line; the length found or put longest ago makes room (its entries are no longer looked at)
    int n = Math.min(keys, MAX_LENGTHS - 1);
    System.arraycopy(keyEnds, 0, keyEnds, 1, n);
    keyEnds[0] = k;
    keys = n + 1;
  }
}
