package dev.nccltriage.source.log;

import java.io.IOException;
import java.io.InputStream;

/**
 * Cuts a stream (stdin, a pipe, a gzip file) into chunks of whole lines, so that several threads
 * can parse it as they parse the parts of a file. A chunk ends after a newline (the last one may
 * end at end of stream); the partial line after that newline starts the next chunk. A line longer
 * than a whole chunk becomes a chunk of its first {@code maxLine + 1} bytes and a newline: the line
 * reader cuts and counts it exactly as it would the whole line, and the rest of it is dropped
 * here, up to its newline.
 */
final class StreamChunks {
  private final InputStream in;
  private final int maxLine;
  private byte[] carry = new byte[0]; // the partial line after the last chunk's final newline
  private int carried;
  private boolean skipping; // inside an over-long line: dropping bytes up to its newline
  private boolean eof;

  StreamChunks(InputStream in, int maxLine) {
    this.in = in;
    this.maxLine = maxLine;
  }

  /** Fills {@code buf} with the next chunk; returns its length, or -1 after the last chunk. */
  int next(byte[] buf) throws IOException {
    if (buf.length < maxLine + 2) {
      throw new IllegalArgumentException("a chunk must hold a cut line and its newline");
    }
    while (true) {
      int len = carried;
      System.arraycopy(carry, 0, buf, 0, carried);
      carried = 0;
      while (len < buf.length && !eof) {
        int n = in.read(buf, len, buf.length - len);
        if (n < 0) {
          eof = true;
        } else {
          len += n;
        }
      }
      int from = 0;
      if (skipping) {
        int nl = indexOf(buf, 0, len);
        if (nl < 0) {
          if (eof) {
            return -1;
          }
          continue; // all of it belongs to the over-long line
        }
        skipping = false;
        from = nl + 1;
      }
      if (from == len) {
        if (eof) {
          return -1;
        }
        continue;
      }
      if (eof) {
        return shift(buf, from, len, len);
      }
      int last = lastIndexOf(buf, from, len);
      if (last >= 0) {
        keep(buf, last + 1, len);
        return shift(buf, from, last + 1, len);
      }
      if (len - from <= maxLine) {
        keep(buf, from, len); // short of a full chunk only because 'from' skipped a line's tail
        continue;
      }
      // no newline in a whole chunk: an over-long line
      skipping = true;
      int n = shift(buf, from, from + maxLine + 1, len);
      buf[n] = '\n';
      return n + 1;
    }
  }

  /** Moves buf[from, to) to the front; returns its length. */
  private static int shift(byte[] buf, int from, int to, int len) {
    if (from > 0) {
      System.arraycopy(buf, from, buf, 0, to - from);
    }
    return to - from;
  }

  private void keep(byte[] buf, int from, int to) {
    if (carry.length < to - from) {
      carry = new byte[Math.max(to - from, 2 * carry.length)];
    }
    System.arraycopy(buf, from, carry, 0, to - from);
    carried = to - from;
  }

  private static int indexOf(byte[] b, int from, int to) {
    return Bytes.indexOfByte(b, from, to, (byte) '\n');
  }

  private static int lastIndexOf(byte[] b, int from, int to) {
    for (int i = to - 1; i >= from; i--) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
