package dev.nccltriage.source.k8s;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Passes text through to the YAML parser and keeps the lines from the object being read onwards,
 * so evidence can quote a line without the whole input held: {@link #keepFrom} drops what lies
 * before the next object. Lines are numbered from 1 and split at LF (a CR before it is dropped), as
 * the evidence has always counted them. Past {@code maxChars} held (one object that large, or a
 * scalar that never ends) it throws {@link TooLarge}.
 */
final class LineWindow extends Reader {
  /** One object, or what the parser reads ahead of it, is over the limit; or one line is ({@code oneLine}). */
  static final class TooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int line;
    final boolean oneLine;

    TooLarge(int line, boolean oneLine) {
      super(null, null, false, false);
      this.line = line;
      this.oneLine = oneLine;
    }
  }

  /**
   * Longer than a line of any object Kubernetes stores (1.5 MiB an object). SnakeYAML copies what it
   * has not consumed on every read, and a plain scalar is consumed only at its end, so a line costs
   * the square of its length: a 300 MB line of junk took 44 s to reach the object limit, now ~1 s.
   */
  static final long MAX_LINE_CHARS = 2L << 20;

  private final Reader in;
  private final long maxChars;
  private final List<String> lines = new ArrayList<>();
  private int first = 1; // the number of lines.get(0)
  private final StringBuilder current = new StringBuilder();
  private long held; // chars of the kept lines, a newline each

  LineWindow(Reader in, long maxChars) {
    this.in = in;
    this.maxChars = maxChars;
  }

  @Override
  public int read(char[] cbuf, int off, int len) throws IOException {
    int n = in.read(cbuf, off, len);
    for (int i = off; i < off + n; i++) {
      char c = cbuf[i];
      if (c == '\n') {
        int end = current.length();
        String text = current.substring(0, end > 0 && current.charAt(end - 1) == '\r' ? end - 1 : end);
        lines.add(text);
        held += text.length() + 1;
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    if (current.length() > MAX_LINE_CHARS) {
      throw new TooLarge(first + lines.size(), true);
    }
    if (held + current.length() > maxChars) {
      throw new TooLarge(first, false);
    }
    return n;
  }

  /** Forgets the lines before {@code line} (the first line of the next object). */
  void keepFrom(int line) {
    int k = Math.min(Math.max(0, line - first), lines.size());
    for (int i = 0; i < k; i++) {
      held -= lines.get(i).length() + 1;
    }
    lines.subList(0, k).clear();
    first += k;
  }

  /** Line {@code n}'s text, or "" when it is no longer (or not yet) held. */
  String line(int n) {
    int i = n - first;
    if (i >= 0 && i < lines.size()) {
      return lines.get(i);
    }
    return i == lines.size() ? current.toString() : "";
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
