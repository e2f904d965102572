package dev.nccltriage.source.bw;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Passes a stream through unchanged and hands each of its lines (UTF-8; ended by LF, CR or CRLF as
 * {@link java.io.BufferedReader#readLine} ends them) to a consumer as the bytes go by: {@code bw} reads
 * nccl-tests rows from the same single pass in which NCCL's lines are parsed as a log, so neither
 * holds the input. A line longer than {@code maxLine} bytes is cut to its first {@code maxLine}.
 */
public final class LineTee extends FilterInputStream {
  private final Consumer<String> lines;
  private final byte[] line;
  private int length;
  private boolean afterCr;
  private boolean pending; // a line has begun (possibly empty so far, e.g. after a cut)
  private boolean cut; // the line being read is longer than maxLine
  private long count;
  private long truncated;

  public LineTee(InputStream in, Consumer<String> lines, int maxLine) {
    super(in);
    this.lines = lines;
    this.line = new byte[maxLine];
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      feed(new byte[] {(byte) b}, 0, 1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      feed(b, off, n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    // skipped bytes must still reach the consumer
    byte[] buf = new byte[8192];
    long done = 0;
    while (done < n) {
      int r = read(buf, 0, (int) Math.min(buf.length, n - done));
      if (r < 0) {
        break;
      }
      done += r;
    }
    return done;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  /** Reads what is left (a reader may stop early) and hands over a last line without its newline. */
  public void drain() throws IOException {
    byte[] buf = new byte[1 << 16];
    while (read(buf, 0, buf.length) >= 0) {
      // each read feeds the lines
    }
    if (pending) {
      emit();
    }
  }

  private void feed(byte[] b, int off, int n) {
    for (int i = off; i < off + n; i++) {
      byte c = b[i];
      if (c == '\n') {
        if (afterCr) {
          afterCr = false;
        } else {
          emit();
        }
      } else if (c == '\r') {
        afterCr = true;
        emit();
      } else {
        afterCr = false;
        pending = true;
        if (length < line.length) {
          line[length++] = c;
        } else {
          cut = true;
        }
      }
    }
  }

  private void emit() {
    lines.accept(new String(line, 0, length, StandardCharsets.UTF_8));
    count++;
    truncated += cut ? 1 : 0;
    length = 0;
    pending = false;
    cut = false;
  }

  /** Lines handed on so far. */
  public long lines() {
    return count;
  }

  /** Lines handed on cut to their first maxLine bytes. */
  public long truncatedLines() {
    return truncated;
  }
}
