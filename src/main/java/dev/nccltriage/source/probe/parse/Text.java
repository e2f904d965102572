package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Shared clean-up of pasted command output (probe-formats.md §0): CR/CRLF line ends, a BOM,
 * TUI box-drawing borders ({@code │}), trailing spaces, markdown fences and bold markers, and
 * the {@code ---} line that joins several pastes. Pure functions; never throws.
 */
public final class Text {
  private static final Pattern NUMBER = Pattern.compile("[+-]?\\d{1,18}");
  private static final Pattern HEX = Pattern.compile("(?:0[xX])?[0-9a-fA-F]{1,16}");

  private Text() {}

  /**
   * Splits {@code text} into lines: {@code \r\n}, {@code \r} and {@code \n} all end a line; a BOM,
   * box-drawing characters (U+2500–U+257F) and trailing whitespace are removed. Leading
   * whitespace (and TABs) are kept. {@code null} gives an empty list.
   */
  public static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    if (text == null || text.isEmpty()) {
      return out;
    }
    StringBuilder sb = new StringBuilder();
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r') {
        out.add(stripTrailing(sb));
        sb.setLength(0);
        if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') {
          i++;
        }
      } else if (c == '\uFEFF' || (c >= '\u2500' && c <= '\u257F') || c == '\u0000') {
        // BOM, box drawing (TUI borders), NUL: drop
      } else if (c == '\u00A0') {
        sb.append(' ');
      } else {
        sb.append(c);
      }
    }
    if (sb.length() > 0) {
      out.add(stripTrailing(sb));
    }
    return out;
  }

  /**
   * Splits a text made of several pastes joined by a line {@code ---} (the corpus convention)
   * into those pastes. A text without such a line is one paste.
   */
  public static List<String> pastes(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (String line : lines(text)) {
      if (isPasteSeparator(line)) {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(line).append('\n');
      }
    }
    out.add(cur.toString());
    return out;
  }

  /** True for the corpus separator line {@code ---} (any surrounding whitespace). */
  public static boolean isPasteSeparator(String line) {
    return line != null && line.trim().equals("---");
  }

  /** True for a markdown code fence ({@code ```}, {@code ```text}, {@code ~~~}). */
  static boolean isFence(String line) {
    String t = line.trim();
    return t.startsWith("```") || t.startsWith("~~~");
  }

  /**
   * Trims a line and removes markdown residue at its edges: {@code **}, {@code __}, backticks,
   * and a leading quote marker {@code > }.
   */
  static String clean(String line) {
    if (line == null) {
      return "";
    }
    String t = line.trim();
    if (t.startsWith("> ")) {
      t = t.substring(2).trim();
    }
    int s = 0;
    int e = t.length();
    while (s < e && (t.charAt(s) == '*' || t.charAt(s) == '`')) {
      s++;
    }
    while (e > s && (t.charAt(e - 1) == '*' || t.charAt(e - 1) == '`')) {
      e--;
    }
    return t.substring(s, e).trim();
  }

  /**
   * A parser's own bug, caught so that a user's run goes on with what was parsed (a probe output is
   * never worth a crash); with assertions on, as in the tests and the fuzz test, it fails instead of
   * hiding behind the catch.
   */
  static void parserBug(RuntimeException e) {
    if (Text.class.desiredAssertionStatus()) {
      throw new AssertionError("parser bug (swallowed without assertions)", e);
    }
  }

  /** Splits on runs of whitespace after trimming; empty input gives an empty array. */
  static String[] tokens(String s) {
    String t = s == null ? "" : s.trim();
    return t.isEmpty() ? new String[0] : splitOnBlanks(t);
  }

  /**
   * What {@code s.split("\\s+")} gives, without the regular expression: a hostile line of many
   * short fields went through the expression's matcher at 4 MB/s. A blank before the first field
   * gives an empty first field, blanks at the end give none; no blank at all gives {@code s}.
   */
  public static String[] splitOnBlanks(String s) {
    List<String> out = null;
    int start = 0;
    int n = s.length();
    for (int i = 0; i < n; ) {
      if (isBlank(s.charAt(i))) {
        int j = i + 1;
        while (j < n && isBlank(s.charAt(j))) {
          j++;
        }
        out = out != null ? out : new ArrayList<>();
        out.add(s.substring(start, i));
        start = j;
        i = j;
      } else {
        i++;
      }
    }
    if (out == null) {
      return new String[] {s};
    }
    out.add(s.substring(start));
    int size = out.size();
    while (size > 0 && out.get(size - 1).isEmpty()) {
      size--;
    }
    return out.subList(0, size).toArray(new String[0]);
  }

  /** A byte of the expressions' {@code \\s}: space, tab, newline, vertical tab, form feed, CR. */
  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }

  /** A decimal int, or null when {@code s} is not one (or out of range). */
  static Integer toInt(String s) {
    Long v = toLong(s);
    return v == null || v > Integer.MAX_VALUE || v < Integer.MIN_VALUE ? null : (int) (long) v;
  }

  /** A decimal long, or null when {@code s} is not one (at most 18 digits). */
  static Long toLong(String s) {
    if (s == null) {
      return null;
    }
    String t = s.trim();
    if (!NUMBER.matcher(t).matches()) {
      return null;
    }
    return Long.parseLong(t);
  }

  /** A hex number with or without {@code 0x} (at most 16 digits), or null. */
  static Long hexToLong(String s) {
    if (s == null) {
      return null;
    }
    String t = s.trim();
    if (!HEX.matcher(t).matches()) {
      return null;
    }
    if (t.startsWith("0x") || t.startsWith("0X")) {
      t = t.substring(2);
    }
    return Long.parseUnsignedLong(t, 16);
  }

  /** A decimal or {@code 0x} hex int, or null. */
  static Integer toIntAnyBase(String s) {
    if (s == null) {
      return null;
    }
    String t = s.trim();
    if (t.startsWith("0x") || t.startsWith("0X")) {
      Long v = hexToLong(t);
      return v == null || v > Integer.MAX_VALUE ? null : (int) (long) v;
    }
    return toInt(t);
  }

  private static String stripTrailing(StringBuilder sb) {
    int e = sb.length();
    while (e > 0 && Character.isWhitespace(sb.charAt(e - 1))) {
      e--;
    }
    return sb.substring(0, e);
  }
}
