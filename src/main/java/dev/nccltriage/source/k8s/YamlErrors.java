package dev.nccltriage.source.k8s;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parser's reason for refusing YAML, in words a user can act on: SnakeYAML's context and problem
 * ("while scanning for the next token: found character '\t(TAB)' that cannot start any token"),
 * without the marks and snippets between them, and the line of the problem's mark; the parser's
 * internal event objects (what Jackson quotes when a key is not plain text) replaced by what they
 * are in the document, and Jackson's name for a limit left out.
 */
final class YamlErrors {
  private static final Pattern EVENT = Pattern.compile("<org\\.yaml\\.snakeyaml\\.events\\.(\\w+?)Event\\b[^>]*>");
  // SnakeYAML's Mark: " in 'reader', line N, column M:" (its snippet and caret follow, indented)
  private static final Pattern MARK = Pattern.compile("^ in '[^']*', line (\\d+), column \\d+:?$");
  // Jackson's StreamConstraintsException names the method that holds the limit
  private static final Pattern LIMIT_SOURCE = Pattern.compile(", from `[^`]*`");
  private static final Pattern NOT_A_KEY = Pattern.compile(
      "Expected a field name \\(Scalar value in YAML\\), got this instead: <org\\.yaml\\.snakeyaml\\.events\\.(\\w+?)Event\\b.*");

  private YamlErrors() {}

  /** The 1-based line of the last mark in SnakeYAML's message (the problem's), or 0 if it has none. */
  static int problemLine(String message) {
    int line = 0;
    if (message != null) {
      for (String l : message.lines().toList()) {
        Matcher m = MARK.matcher(l);
        if (m.matches()) {
          try {
            line = Integer.parseInt(m.group(1));
          } catch (NumberFormatException e) {
            line = 0; // past int: no line to name
          }
        }
      }
    }
    return line;
  }

  static String plain(String message) {
    // the context and the problem start their lines; marks, snippets and carets are indented
    String first = message == null ? "" : String.join(": ", message.lines()
        .filter(l -> !l.isBlank() && !l.startsWith(" ") && !l.startsWith("\t")).map(String::strip).toList());
    first = LIMIT_SOURCE.matcher(first).replaceAll("");
    Matcher key = NOT_A_KEY.matcher(first);
    if (key.matches()) {
      return "a key must be plain text, not " + what(key.group(1)) + " (a '{' or '[' where a key starts?)";
    }
    Matcher m = EVENT.matcher(first);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(what(m.group(1))));
    }
    m.appendTail(out);
    return out.length() == 0 ? "not readable as YAML" : out.toString();
  }

  private static String what(String event) {
    return switch (event) {
      case "MappingStart" -> "a mapping";
      case "SequenceStart" -> "a list";
      case "MappingEnd" -> "the end of a mapping";
      case "SequenceEnd" -> "the end of a list";
      case "Scalar" -> "a value";
      case "Alias" -> "an alias";
      case "DocumentStart" -> "the start of a document";
      case "DocumentEnd" -> "the end of a document";
      default -> "YAML";
    };
  }
}
