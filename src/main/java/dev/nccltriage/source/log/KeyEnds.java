package dev.nccltriage.source.log;

/**
 * A {@link PrefixCache}'s key lengths: how many bytes of a line each key covers, in the order they
 * came, {@code ends[0, used)}. A key is the line's first eight bytes and the 24 before its end, so
 * it tells the threads of a job apart only where those hold the thread's id (its last sixteen hold
 * the id's end, as {@link #pick} picks them) and enough of its host. A key that ends before it (another
 * job's, of shorter host names, in a log of several jobs) gives every thread of a host name
 * longer than that one key: "pytorchjob-summarization-long-...-worker-0:113:548" and all its
 * job's threads shared a set of four slots and evicted each other on every round.
 */
final class KeyEnds {
  static final int KEYS = 8;
  private static final int SHORT_KEY = 8;
  final int[] ends = new int[KEYS];
  int used;

  void clear() {
    java.util.Arrays.fill(ends, 0);
    used = 0;
  }

  /**
   * The key end for a prefix of {@code n} bytes, "NCCL" at {@code own}, its thread's id ending at
   * {@code thread} (-1: none); a new one if none in use covers that id and there is room; else
   * the first that does not reach past the prefix; 0 if none does.
   */
  int pick(int n, int own, int thread) {
    int fallback = 0;
    for (int k = 0; k < used; k++) {
      int end = ends[k];
      if (end <= n) {
        if (thread < 0 || end >= thread && end - 16 < thread) {
          return end;
        }
        fallback = fallback == 0 ? end : fallback;
      }
    }
    // A new key ends after the thread's "[dev] ", where its INFO lines have "NCCL" (a WARN's has
    // its source line there first), so that both kinds of its lines share it. A prefix without a
    // host ("NCCL INFO ", " [0] NCCL INFO ": a paste that lost them) gets a key of eight bytes at
    // least, tried after the others (a line with a host is never under it)
    int fresh = thread >= 0 ? Math.max(16, Math.min(own, thread + 8)) : Math.max(SHORT_KEY, own);
    if (used == KEYS || fresh > n || fallback != 0 && thread < 0) {
      return fallback;
    }
    int k = used++;
    for (; fresh >= 16 && k > 0 && ends[k - 1] < 16; k--) {
      ends[k] = ends[k - 1];
    }
    ends[k] = fresh;
    return fresh;
  }
}
