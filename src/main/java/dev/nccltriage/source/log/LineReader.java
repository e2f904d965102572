package dev.nccltriage.source.log;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines with bounded memory: a line longer than {@code maxLine} is
 * handed over truncated and the rest of it is skipped, so a 60 MB line without a newline costs
 * no more memory than a short one.
 */
final class LineReader {
  static final int DEFAULT_MAX_LINE = 64 * 1024;
  private static final int CHUNK = 1 << 20;

  private final int maxLine;

  LineReader(int maxLine) {
    this.maxLine = maxLine;
  }

  /**
   * Reads lines whose first byte lies before {@code limit} bytes of the stream (Long.MAX_VALUE
   * for all); returns the number of lines handed to the sink.
   */
  long read(InputStream in, long limit, LineSink sink) throws IOException {
    byte[] buf = new byte[CHUNK + maxLine];
    int len = 0; // bytes in buf
    int pos = 0; // start of the current line in buf
    long consumed = 0; // stream offset of buf[0]
    long lineNo = 0;
    boolean skipping = false; // inside the tail of an over-long line
    boolean eof = false;
    while (true) {
      int nl = pos < len ? indexOfNewline(buf, pos, len) : -1;
      if (nl >= 0) {
        if (!skipping) {
          if (consumed + pos >= limit) {
            return lineNo;
          }
          sink.line(buf, pos, nl, ++lineNo, false);
        }
        skipping = false;
        pos = nl + 1;
        continue;
      }
      if (!skipping && len - pos >= maxLine) {
        if (consumed + pos >= limit) {
          return lineNo;
        }
        sink.line(buf, pos, pos + maxLine, ++lineNo, true);
        skipping = true;
      }
      if (skipping) {
        consumed += len;
        pos = 0;
        len = 0;
      }
      if (eof) {
        if (!skipping && pos < len && consumed + pos < limit) {
          sink.line(buf, pos, len, ++lineNo, false);
        }
        return lineNo;
      }
      if (pos > 0) {
        System.arraycopy(buf, pos, buf, 0, len - pos);
        consumed += pos;
        len -= pos;
        pos = 0;
      }
      if (len == buf.length) {
        buf = Arrays.copyOf(buf, buf.length * 2); // cannot happen: maxLine bounds a pending line
      }
      int n = in.read(buf, len, Math.min(buf.length - len, CHUNK));
      if (n < 0) {
        eof = true;
      } else {
        len += n;
      }
    }
  }

  private static int indexOfNewline(byte[] a, int from, int to) {
    for (int i = from; i < to; i++) {
      if (a[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
