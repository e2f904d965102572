package dev.nccltriage.source.probe;

import dev.nccltriage.evidence.Evidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Evidence gathered by the probes, by fact name; probes run concurrently, so it is synchronized. */
final class EvidenceBook {
  private final Map<String, List<Evidence>> byFact = new LinkedHashMap<>();

  synchronized void add(String fact, String source, String text) {
    List<Evidence> l = byFact.computeIfAbsent(fact, k -> new ArrayList<>());
    if (l.size() < 4) {
      l.add(new Evidence(source, 0, text));
    }
  }

  synchronized Map<String, List<Evidence>> snapshot() {
    Map<String, List<Evidence>> m = new LinkedHashMap<>();
    byFact.forEach((k, v) -> m.put(k, List.copyOf(v)));
    return m;
  }
}
