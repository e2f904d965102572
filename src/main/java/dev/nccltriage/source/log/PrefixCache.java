package dev.nccltriage.source.log;

/**
 * Recently seen line starts "host:pid:tid [dev] NCCL INFO " and the process each belongs to.
 * Interleaved ranks defeat a one-line memory (the next line is usually another thread's), but a
 * job has a bounded set of threads, so a table keyed by the first 16 bytes of a line lets almost
 * every line skip the envelope search, the prefix parse and the process lookup.
 */
final class PrefixCache {
  static final int KEY_BYTES = 16;
  // a generation of a 1024-rank job has ~4000 threads; 2^14 slots keep collisions rare
  private static final int BITS = 14;
  private static final int MAX_PREFIX = 64;

  private final byte[] starts = new byte[MAX_PREFIX << BITS]; // slot i at i * MAX_PREFIX
  private final int[] lengths = new int[1 << BITS];
  private final ProcessState[] processes = new ProcessState[1 << BITS];
  /** Prefix length of the last hit (valid after {@link #find} returned a process). */
  int hitLength;

  private static int slot(byte[] b, int s) {
    long h = Bytes.word(b, s) * 0x9E3779B97F4A7C15L + Bytes.word(b, s + 8) * 0xC2B2AE3D27D4EB4FL;
    return (int) (h >>> (64 - BITS));
  }

  /** The process of a cached prefix that [s, e) starts with (and has a message after), or null. */
  ProcessState find(byte[] b, int s, int e) {
    if (e - s <= KEY_BYTES) {
      return null;
    }
    int i = slot(b, s);
    int n = lengths[i];
    if (n == 0 || e - s <= n || !Bytes.equal(b, s, starts, i * MAX_PREFIX, n)) {
      return null;
    }
    hitLength = n;
    return processes[i];
  }

  /** Remembers that lines starting with b[s, s+n) belong to {@code p}. */
  void put(byte[] b, int s, int n, ProcessState p) {
    if (n < KEY_BYTES || n > MAX_PREFIX) {
      return;
    }
    int i = slot(b, s);
    System.arraycopy(b, s, starts, i * MAX_PREFIX, n);
    lengths[i] = n;
    processes[i] = p;
  }
}
