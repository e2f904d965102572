package dev.nccltriage.evidence;

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

  public String location() {
    return line > 0 ? source + ":" + line : source;
  }
}
