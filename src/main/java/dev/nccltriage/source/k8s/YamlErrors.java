package dev.nccltriage.source.k8s;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parser's reason for refusing YAML, in words a user can act on: the first line of SnakeYAML's
 * message, with the parser's internal event objects (what Jackson quotes when a key is not plain
 * text) replaced by what they are in the document.
 */
final class YamlErrors {
  private static final Pattern EVENT = Pattern.compile("<org\\.yaml\\.snakeyaml\\.events\\.(\\w+?)Event\\b[^>]*>");
  private static final Pattern NOT_A_KEY = Pattern.compile(
      "Expected a field name \\(Scalar value in YAML\\), got this instead: <org\\.yaml\\.snakeyaml\\.events\\.(\\w+?)Event\\b.*");

  private YamlErrors() {}

  static String plain(String message) {
    String first = message == null ? "" : message.lines().findFirst().orElse("").strip();
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
