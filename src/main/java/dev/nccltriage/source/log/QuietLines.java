package dev.nccltriage.source.log;

/**
 * Short lines (fewer than eight bytes) that only count: no wrapper, label or quoting before their
 * text, no crash marker, no launcher's report, no logger's level or FATAL line in it. The only
 * thing such a line can still do is move the traceback reader's state (a line at the margin ends
 * an open traceback, an exception's name may be what it raised), which depends on the lines
 * before. Another program prints such lines by the million (a loop's step, a loss, "ok"), so
 * {@link LogParser#shortLine} knows them two ways:
 *
 * <ul>
 *   <li>by their bytes alone ({@link #inert}): digits and {@code + , - . /}, none of which begins
 *       anything those readers look for (a wrapper or a label needs a blank, a colon or a bracket;
 *       a quoting {@code * > |} or {@code - }; the rest hold letters);
 *   <li>by having been read so before ({@link #known}): the readers' answers depend on the line's
 *       bytes alone, so a line read in full once is not read again. A table of the last such lines
 *       seen, by a hash of their bytes (a line is at most seven bytes: the key is the bytes).
 * </ul>
 *
 * {@code QuietLinesTest} checks both against the full reading.
 */
final class QuietLines {
  private static final long HIGHS = 0x8080808080808080L;
  private static final long LOWEST = Bytes.broadcast((byte) '+'); // 0x2b, the alphabet's first
  private static final long PAST = Bytes.broadcast((byte) ('9' + 1));
  private static final long ZEROS = Bytes.broadcast((byte) '0');
  private static final int BITS = 9;

  private final long[] keys = new long[1 << BITS];

  /**
   * Whether a line of {@code n} bytes, 1 to 7, whose first eight bytes are {@code head} (little
   * endian: the line's first byte lowest), is made only of that alphabet. One word's test: each
   * byte's high bit is set before the subtractions, so no byte borrows from the next.
   */
  static boolean inert(long head, int n) {
    if (n <= 0 || n >= 8) {
      return false;
    }
    long valid = (1L << (n << 3)) - 1;
    long x = head & valid | ZEROS & ~valid; // the bytes past the line read as digits
    long high = x | HIGHS;
    return (x & HIGHS) == 0 && ((high - LOWEST) & ~(high - PAST) & HIGHS) == HIGHS;
  }

  /** The line of {@code n} bytes, 1 to 7, at the start of {@code head}, as a key: never 0. */
  static long key(long head, int n) {
    return head & (1L << (n << 3)) - 1 | (long) n << 56;
  }

  /** Whether the line of that key was read in full and found quiet, lately. */
  boolean known(long key) {
    return keys[slot(key)] == key;
  }

  /** The line of that key was read in full and found quiet. */
  void add(long key) {
    keys[slot(key)] = key;
  }

  private static int slot(long key) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - BITS));
  }
}
