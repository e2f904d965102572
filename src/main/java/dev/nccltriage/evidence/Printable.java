package dev.nccltriage.evidence;

/**
 * Text from input made safe for a terminal: a log line, a host name or a file's content may carry
 * BEL, backspace or an ANSI escape that would ring, rewrite or recolour the user's screen. C0
 * controls (but tab), DEL and C1 controls become visible escapes ({@code \x07}, {@code \x1b},
 * {@code \u009b}); so do the characters that reorder or break what a terminal shows without being
 * seen: Unicode's bidirectional overrides, embeddings, isolates and marks ({@code \u202e} shows the
 * rest of an evidence line reversed, the "Trojan Source" trick) and its line and paragraph
 * separators. Everything else, tab and newline included, stays as it is.
 */
public final class Printable {
  private Printable() {}

  public static boolean control(char c) {
    return (c < 0x20 && c != '\t' && c != '\n') || (c >= 0x7f && c <= 0x9f) || c >= 0x61c && invisible(c);
  }

  /** U+200E-200F, U+2028-202E, U+2066-2069 (marks, separators, embeddings, overrides, isolates); U+061C. */
  private static boolean invisible(char c) {
    return c == 0x61c || c >= 0x200e && c <= 0x200f || c >= 0x2028 && c <= 0x202e || c >= 0x2066 && c <= 0x2069;
  }

  /** The text with control characters escaped; the same string when there are none. */
  public static String text(String s) {
    if (s == null) {
      return null;
    }
    int i = 0;
    while (i < s.length() && !control(s.charAt(i))) {
      i++;
    }
    if (i == s.length()) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length() + 8).append(s, 0, i);
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!control(c)) {
        sb.append(c);
      } else if (c < 0x80) {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(String.format("\\u%04x", (int) c));
      }
    }
    return sb.toString();
  }

  /** One line for a message: newlines too escaped, and at most {@code max} characters. */
  public static String line(String s, int max) {
    String t = text(s == null ? "" : s).replace("\n", "\\n").replace("\t", " ");
    return t.length() <= max ? t : t.substring(0, max) + "...";
  }
}
