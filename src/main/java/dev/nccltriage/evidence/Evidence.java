package dev.nccltriage.evidence;

import java.util.Objects;

/**
 * Where a fact came from: a file (or "-" for stdin, or a probe name) and a 1-based line, with the
 * line's text as read (prefixes kept, so a user can find it with grep).
 */
public record Evidence(String source, long line, String text) {
  public Evidence {
    if (text != null && text.length() > MAX_TEXT) {
      text = text.substring(0, MAX_TEXT) + "…";
    }
  }

  private static final int MAX_TEXT = 300;

  public Evidence withLineOffset(long offset) {
    return offset == 0 ? this : new Evidence(source, line + offset, text);
  }

  // Written out, as the record's own would be (same hash): the record's are made by an indy
  // bootstrap whose first use costs a cold JVM ~30 ms of method-handle set-up, on every run.
  @Override
  public boolean equals(Object o) {
    return o instanceof Evidence e && line == e.line && Objects.equals(source, e.source)
        && Objects.equals(text, e.text);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Objects.hashCode(source) + Long.hashCode(line)) + Objects.hashCode(text);
  }

  public String location() {
    return line > 0 ? source + ":" + line : source;
  }
}
