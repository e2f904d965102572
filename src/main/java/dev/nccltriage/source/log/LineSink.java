package dev.nccltriage.source.log;

/**
 * Receives each line of a log as a byte range, without the line terminator. {@code mayHaveEscape}
 * is false only when the reader saw no ESC byte in the line, so the parser can skip ANSI handling.
 */
interface LineSink {
  void line(byte[] buf, int start, int end, long lineNo, boolean truncated, boolean mayHaveEscape);
}
