package dev.nccltriage.source.log;

/**
 * Receives each line of a log as a byte range, without the line terminator. {@code mayHaveEscape}
 * is false only when the reader saw no ESC byte in the line, so the parser can skip ANSI handling.
 */
interface LineSink {
  void line(byte[] buf, int start, int end, long lineNo, boolean truncated, boolean mayHaveEscape);

  /**
   * The length under which a line is short: NCCL's shortest line with its level token ("NCCL INFO")
   * is longer, and a bare text that short is a fragment, not a message. The reader tests the eight
   * bytes at a line's start with one word.
   */
  int SHORT_LINE = 8;

  /**
   * A line of fewer than {@link #SHORT_LINE} bytes before its newline (one ending in a CR too),
   * without an ESC, which the reader does not offer to {@link #lineAt} (a line that short holds no
   * thread's prefix, so lineAt would decline it): as {@link #line}, for a sink that has a cheaper
   * way with lines too short to hold anything but another program's few words. {@code head}: the
   * eight bytes at {@code start} as the reader tested them ({@link Bytes#word}; those past {@code
   * end} are the next line's).
   */
  default void shortLine(byte[] buf, int start, int end, long lineNo, long head) {
    line(buf, start, end, lineNo, false, false);
  }

  /** {@code count} blank lines (bare newlines from {@code start}), the first of them line {@code lineNo}. */
  default void blankLines(byte[] buf, int start, int count, long lineNo) {
    for (int i = 0; i < count; i++) {
      shortLine(buf, start + i, start + i, lineNo + i, 0);
    }
  }

  /**
   * A line that starts at {@code start} and ends at a newline before {@code limit}, offered before
   * the reader looks for that newline. A sink that recognises the whole line takes it and returns
   * the newline's index (the reader goes on after it, {@link #line} is not called); -1 leaves it
   * to the reader. The common lines of a large log are taken this way, so their bytes are read
   * once instead of twice. A sink that declines a line but has read its first bytes (a known
   * thread's prefix) returns {@code -2 - k}: [start, k) holds neither a newline nor an ESC, and the
   * reader's search starts at k.
   */
  default int lineAt(byte[] buf, int start, int limit, long lineNo) {
    return -1;
  }
}
