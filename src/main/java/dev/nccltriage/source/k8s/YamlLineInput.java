package dev.nccltriage.source.k8s;

import java.io.IOException;
import java.io.Reader;

/**
 * The input of {@link BlockYaml}, a line at a time, bounded by {@code maxChars} a line. On a decline,
 * {@link #rest} gives the full parser what this has read but not handed out, then the unread input.
 */
final class YamlLineInput {
  private final Reader in;
  private final long maxChars;
  private final char[] buf = new char[1 << 16];
  private int pos;
  private int limit;
  private boolean eof;
  private final StringBuilder partial = new StringBuilder();
  private boolean lastHadNewline = true;

  YamlLineInput(Reader in, long maxChars) {
    this.in = in;
    this.maxChars = maxChars;
  }

  /** The next line without its LF (and a CR before it), or null at the end or past {@code maxChars}. */
  String next() throws IOException {
    partial.setLength(0);
    while (true) {
      if (pos == limit) {
        if (eof) {
          if (partial.length() == 0) {
            return null;
          }
          lastHadNewline = false;
          String s = partial.toString();
          partial.setLength(0);
          return s;
        }
        int r = in.read(buf, 0, buf.length);
        if (r < 0) {
          eof = true;
          continue;
        }
        pos = 0;
        limit = r;
      }
      int start = pos;
      while (pos < limit && buf[pos] != '\n') {
        pos++;
      }
      if (pos < limit) {
        String s;
        if (partial.length() == 0) {
          s = new String(buf, start, pos - start);
        } else {
          partial.append(buf, start, pos - start);
          s = partial.toString();
          partial.setLength(0);
        }
        pos++;
        return s; // a CR stays: the line is then declined, and the full parser reads it
      }
      partial.append(buf, start, pos - start);
      if (partial.length() > maxChars) {
        return null; // rest() hands the partial line on
      }
    }
  }

  /** Whether {@link #next} stopped inside a line longer than {@code maxChars}. */
  boolean inLongLine() {
    return partial.length() > 0;
  }

  /** Whether the last line read ended with a newline (only the input's last line may not). */
  boolean lastHadNewline() {
    return lastHadNewline;
  }

  /** {@code text}, then the part of a line read so far, then what is not read yet. */
  Reader rest(StringBuilder text) {
    text.append(partial);
    return new ReplayReader(text.toString(), buf, pos, limit, eof ? null : in);
  }
}
