package dev.nccltriage.source.k8s;

import java.io.IOException;
import java.io.Reader;

/** The text to read again, then the unread rest of the buffer, then the rest of the input. */
final class ReplayReader extends Reader {
  private final String head;
  private int headAt;
  private final char[] buf;
  private int pos;
  private final int limit;
  private final Reader in;

  ReplayReader(String head, char[] buf, int pos, int limit, Reader in) {
    this.head = head;
    this.buf = buf;
    this.pos = pos;
    this.limit = limit;
    this.in = in;
  }

  @Override
  public int read(char[] cbuf, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (headAt < head.length()) {
      int k = Math.min(len, head.length() - headAt);
      head.getChars(headAt, headAt + k, cbuf, off);
      headAt += k;
      return k;
    }
    if (pos < limit) {
      int k = Math.min(len, limit - pos);
      System.arraycopy(buf, pos, cbuf, off, k);
      pos += k;
      return k;
    }
    return in == null ? -1 : in.read(cbuf, off, len);
  }

  @Override
  public void close() throws IOException {
    if (in != null) {
      in.close();
    }
  }
}
