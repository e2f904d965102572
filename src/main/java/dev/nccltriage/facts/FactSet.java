package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The flat, named facts rules are evaluated over. A missing name means "unknown". */
public final class FactSet {
  private final Map<String, FactValue> facts = new LinkedHashMap<>();

  public FactSet put(String name, Object value, List<Evidence> evidence) {
    if (!FactVocabulary.isKnown(name)) {
      throw new IllegalArgumentException("fact not in the vocabulary: " + name);
    }
    if (value != null) {
      facts.put(name, new FactValue(value, evidence));
    }
    return this;
  }

  public Optional<FactValue> get(String name) {
    return Optional.ofNullable(facts.get(name));
  }

  public Map<String, FactValue> asMap() {
    return Collections.unmodifiableMap(facts);
  }
}
