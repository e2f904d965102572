package dev.nccltriage.rules;

import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactType;
import dev.nccltriage.facts.FactVocabulary;
import dev.nccltriage.facts.Version;
import java.util.List;
import java.util.Map;

/**
 * A test case kept with its rule: facts (name to value) and the expected outcome — "fires" or
 * "quiet" for causes, lints and gates; "yes", "no", "unknown" or "n/a" for questions.
 */
public record RuleCase(Map<String, Object> facts, String expect, int line) {

  /** The case's facts as a FactSet, values converted to each fact's type. */
  public FactSet factSet() {
    FactSet s = new FactSet();
    facts.forEach((name, v) -> {
      FactType t = FactVocabulary.type(name);
      Object value = switch (t) {
        case VERSION -> Version.parse(String.valueOf(v));
        case LIST -> v instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of(String.valueOf(v));
        case TEXT -> String.valueOf(v);
        default -> v;
      };
      s.put(name, value, List.of());
    });
    return s;
  }
}
