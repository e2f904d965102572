package dev.nccltriage.source.log;

/** Receives each line of a log as a byte range, without the line terminator. */
interface LineSink {
  void line(byte[] buf, int start, int end, long lineNo, boolean truncated);
}
