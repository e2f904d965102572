package dev.nccltriage.rules;

import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactType;
import dev.nccltriage.facts.FactVocabulary;
import dev.nccltriage.facts.Version;
import java.util.List;
import java.util.Map;

/**
 * A test case kept with its rule: facts (name to value) and the expected outcome — "fires" or
 * "quiet" (or "refuted") for causes, lints and gates; "yes", "no", "unknown" or "n/a" for questions;
 * for a guide prompt, the {@code answer} typed and "sets" (the facts it sets) or "rejected".
 */
public record RuleCase(Map<String, Object> facts, String expect, int line, String answer) {

  public RuleCase(Map<String, Object> facts, String expect, int line) {
    this(facts, expect, line, null);
  }

  /** The case's facts as a FactSet, values converted to each fact's type. */
  public FactSet factSet() {
    FactSet s = new FactSet();
    facts.forEach((name, v) -> s.put(name, typed(name, v), List.of()));
    return s;
  }

  /** A value written in YAML, as the fact's type holds it. */
  public static Object typed(String name, Object v) {
    FactType t = FactVocabulary.type(name);
    return switch (t) {
      case VERSION -> Version.parse(String.valueOf(v));
      case LIST -> v instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of(String.valueOf(v));
      case TEXT -> String.valueOf(v);
      default -> v;
    };
  }
}
