package dev.nccltriage.rules;

import dev.nccltriage.facts.Expectations;
import dev.nccltriage.facts.FactType;
import dev.nccltriage.facts.FactVocabulary;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Turns what a person typed at a guide prompt into the facts the prompt's rule says it sets. */
public final class PromptAnswers {
  /** A Linux interface name (IFNAMSIZ: at most 15 characters), nothing a shell would read. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:@-]{0,14}");
  private static final long MAX_COUNT = 1_000_000;

  private PromptAnswers() {}

  /** Whether the answer says "I don't know": allowed at every prompt, it sets nothing. */
  public static boolean unknown(String typed) {
    String t = typed.strip().toLowerCase(Locale.ROOT);
    return t.equals("unknown") || t.equals("?");
  }

  /** The facts the answer sets, or empty when the prompt does not allow it. */
  public static Optional<Map<String, Object>> interpret(Rule.Prompt p, String typed) {
    String stripped = typed.strip();
    String text = p.kind().equals("name") ? stripped : stripped.toLowerCase(Locale.ROOT);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    return switch (p.kind()) {
      case "choice" -> Optional.ofNullable(p.choices().get(text));
      case "count" -> count(text).map(n -> values(p, n, text));
      case "size" -> size(text).map(b -> values(p, b, b == -1 ? "unlimited" : b + " bytes"));
      case "name" -> NAME.matcher(text).matches() ? Optional.of(values(p, null, text)) : Optional.empty();
      default -> throw new IllegalStateException("prompt kind " + p.kind());
    };
  }

  /** Each fact of {@code sets}: a number fact gets the number, a text fact the text. */
  private static Map<String, Object> values(Rule.Prompt p, Long number, String text) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String f : p.sets()) {
      out.put(f, FactVocabulary.type(f) == FactType.NUMBER && number != null ? number : text);
    }
    return out;
  }

  /** "-1" or "99999999999999999999" is no count of HCAs or GPUs. */
  private static Optional<Long> count(String text) {
    if (!text.matches("[0-9]{1,7}")) {
      return Optional.empty();
    }
    long n = Long.parseLong(text);
    return n <= MAX_COUNT ? Optional.of(n) : Optional.empty();
  }

  private static Optional<Long> size(String text) {
    try {
      return Optional.of(Expectations.parseSize(text));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
