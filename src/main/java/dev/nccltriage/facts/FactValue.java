package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.List;

/**
 * A known fact: its value (Boolean, Long or Double, String, {@link Version}, or List of String)
 * and the evidence behind it.
 */
public record FactValue(Object value, List<Evidence> evidence) {
  public FactValue {
    evidence = evidence == null ? List.of() : List.copyOf(evidence);
  }
}
