package dev.nccltriage.source.k8s;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The manifest's text on its way to the parsers: counts its lines and notes the lines that hold a
 * Helm (Go template) action, so that YAML that fails to parse near one is reported as an unrendered
 * template rather than with the parser's own words. A Go template inside a rendered manifest's string
 * (an Alertmanager ConfigMap) parses, and is never reported.
 */
final class ManifestLines extends FilterReader {
  /**
   * An action Helm renders: two braces, an optional dash, then a dot, a variable, a comment, a string
   * or a template keyword or function ("{{ .Values.x }}", "{{- if", "{{ include"). Argo Workflows'
   * "{{inputs.parameters.x}}" (no dot, no keyword) is not one.
   */
  private static final Pattern ACTION = Pattern.compile(
      "\\{\\{-?\\s*(\\.|\\$|/\\*|\"|(if|else|end|range|with|define|include|template|block|toYaml|tpl|required"
          + "|default|quote|printf|print|len|index|not|and|or|eq|ne|lookup)\\b)");
  /** Template lines remembered: the parser stops at the first error, a read-ahead of a few KiB past it. */
  private static final int KEEP = 4096;
  /** Only so much of a line is looked at for an action (a line can be megabytes long). */
  private static final int LOOK = 4096;

  private final StringBuilder line = new StringBuilder();
  private final TreeMap<Integer, String> actions = new TreeMap<>();
  private int lines; // lines ended so far
  private boolean open; // a line has begun and not ended

  ManifestLines(Reader in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int c = in.read();
    if (c >= 0) {
      see((char) c);
    } else {
      end();
    }
    return c;
  }

  @Override
  public int read(char[] buf, int off, int len) throws IOException {
    int n = in.read(buf, off, len);
    for (int i = 0; i < n; i++) {
      see(buf[off + i]);
    }
    if (n < 0) {
      end();
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    char[] buf = new char[(int) Math.min(n, 8192)];
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

  private void see(char c) {
    if (c == '\n') {
      lines++;
      open = false;
      check(lines);
      return;
    }
    open = true;
    if (line.length() < LOOK) {
      line.append(c);
    }
  }

  private void end() {
    if (open) {
      lines++;
      open = false;
      check(lines);
    }
  }

  private void check(int n) {
    int at = line.indexOf("{{");
    if (at >= 0 && ACTION.matcher(line).find(at)) {
      actions.put(n, line.toString().strip());
      if (actions.size() > KEEP) {
        actions.pollFirstEntry();
      }
    }
    line.setLength(0);
  }

  /** Lines read so far (a last line without a newline counts, once the end is reached). */
  long lines() {
    return lines + (open ? 1 : 0);
  }

  /** The first line within {@code reach} lines of {@code line} that holds a template action; null if none. */
  Map.Entry<Integer, String> actionNear(int line, int reach) {
    Map.Entry<Integer, String> e = actions.ceilingEntry(line - reach);
    return e != null && e.getKey() <= line + reach ? e : null;
  }
}
