package dev.nccltriage.report;

import java.io.PrintStream;
import java.util.regex.Pattern;

/** Word-wrapping of report text to a width, shared by the text reports. */
final class Wrap {
  private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;]*m");

  private Wrap() {}

  /**
   * Prints {@code text} after {@code indent}, wrapped between words at {@code width}; continuation
   * lines are indented by {@code hang}. A word longer than a line stays whole.
   */
  static void para(PrintStream out, String indent, String text, int hang, int width) {
    if (text == null) {
      return;
    }
    String pad = " ".repeat(hang);
    StringBuilder line = new StringBuilder(indent);
    int visible = visible(indent);
    for (String word : text.split(" ")) {
      int w = visible(word);
      if (visible + w + 1 > width && visible > hang) {
        out.println(line.toString().stripTrailing());
        line = new StringBuilder(pad);
        visible = hang;
      }
      line.append(word).append(' ');
      visible += w + 1;
    }
    out.println(line.toString().stripTrailing());
  }

  static int visible(String s) {
    return s.indexOf('\u001b') < 0 ? s.length() : ANSI.matcher(s).replaceAll("").length();
  }
}
