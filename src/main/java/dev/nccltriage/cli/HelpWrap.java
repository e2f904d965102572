package dev.nccltriage.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Wraps help text between words only. picocli wraps with Java's line BreakIterator, which breaks
 * after a dot or a slash inside a word ({@code FILE.tar.} / {@code gz}, {@code nvidia.} /
 * {@code com/hostdev}), and a name split that way cannot be copied. So picocli renders each
 * section unwrapped and this wraps it at spaces, keeping picocli's layout: an option row or an
 * exit-code row continues under its description column, the synopsis under its first argument,
 * a paragraph under its own indentation. A word longer than the line stays whole.
 */
final class HelpWrap {
  private static final int UNWRAPPED = 10_000;
  private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;]*m");
  /**
   * A two-column row (an option, a command of the command list, an exit code): the name column, at
   * least two spaces, then the description. picocli renders a paragraph on one line with single spaces.
   */
  private static final Pattern ROW = Pattern.compile("^( *\\S+(?: \\S+)*?)( {2,})\\S");
  /** A synopsis after its heading (held by NULs of the heading's width): the command's name and the space after it. */
  private static final Pattern SYNOPSIS = Pattern.compile("^((?:Usage: +|\u0000+)\\S+(?: [a-z][a-z-]*)* )");

  private HelpWrap() {}

  /** Makes every section of {@code cl} and its subcommands wrap between words at {@code width}. */
  static void apply(CommandLine cl, int width) {
    cl.setUsageHelpWidth(UNWRAPPED);
    cl.getHelpSectionMap().replaceAll((key, renderer) -> renderer instanceof Section s
        ? new Section(key, s.inner(), width) : new Section(key, renderer, width));
    cl.getSubcommands().values().forEach(sub -> apply(sub, width));
  }

  /** A section as picocli renders it unwrapped, wrapped between words. */
  private record Section(String key, CommandLine.IHelpSectionRenderer inner, int width)
      implements CommandLine.IHelpSectionRenderer {
    @Override
    public String render(CommandLine.Help help) {
      String text = inner.render(help);
      if (!key.equals(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS)) {
        return wrap(text, width);
      }
      // the synopsis follows its heading ("Usage: ") on the same line: wrap them together
      String heading = help.synopsisHeading();
      String plainHeading = ANSI.matcher(heading).replaceAll("");
      if (heading.contains("\n")) {
        return wrap(text, width);
      }
      String marker = "\u0000".repeat(plainHeading.length());
      String wrapped = wrap(marker + text, width);
      return wrapped.substring(marker.length());
    }
  }

  static String wrap(String text, int width) {
    StringBuilder out = new StringBuilder(text.length() + 64);
    int start = 0;
    while (start <= text.length()) {
      int nl = text.indexOf('\n', start);
      String line = nl < 0 ? text.substring(start) : text.substring(start, nl);
      wrapLine(line, width, out);
      if (nl < 0) {
        break;
      }
      out.append('\n');
      start = nl + 1;
    }
    return out.toString();
  }

  private static void wrapLine(String line, int width, StringBuilder out) {
    if (visible(line) <= width) {
      out.append(line);
      return;
    }
    String plain = ANSI.matcher(line).replaceAll("");
    int indent = indentOf(plain);
    String pad = " ".repeat(Math.min(indent, width / 2));
    int col = 0;
    int i = 0;
    // leading spaces are kept as they are
    while (i < line.length() && line.charAt(i) == ' ') {
      out.append(' ');
      col++;
      i++;
    }
    String spaces = "";
    boolean first = true;
    while (i < line.length()) {
      int j = i;
      while (j < line.length() && line.charAt(j) != ' ') {
        j++;
      }
      String word = line.substring(i, j);
      int w = visible(word);
      if (first) {
        out.append(word);
        col += w;
      } else if (col + spaces.length() + w <= width) {
        out.append(spaces).append(word);
        col += spaces.length() + w;
      } else {
        out.append('\n').append(pad).append(word);
        col = pad.length() + w;
      }
      first = false;
      int k = j;
      while (k < line.length() && line.charAt(k) == ' ') {
        k++;
      }
      spaces = line.substring(j, k);
      i = k;
    }
  }

  /** Where a continuation line starts: the description column, the synopsis's first argument, or the indentation. */
  private static int indentOf(String plain) {
    Matcher syn = SYNOPSIS.matcher(plain);
    if (syn.find()) {
      return syn.group(1).length();
    }
    Matcher row = ROW.matcher(plain);
    if (row.find()) {
      return row.end() - 1;
    }
    int n = 0;
    while (n < plain.length() && plain.charAt(n) == ' ') {
      n++;
    }
    return n;
  }

  private static int visible(String s) {
    return s.indexOf('\u001b') < 0 ? s.length() : ANSI.matcher(s).replaceAll("").length();
  }
}
