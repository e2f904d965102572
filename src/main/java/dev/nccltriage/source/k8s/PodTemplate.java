package dev.nccltriage.source.k8s;

import dev.nccltriage.facts.FactSet;
import java.util.Map;
import java.util.Set;

/**
 * One pod template found in a manifest: the object it belongs to ({@code kind}/{@code name}), where
 * in the object it sits ({@code path}, e.g. {@code pytorchReplicaSpecs.Worker}; empty for a Pod),
 * its line, its facts, the container that owns each evidence line, and the lints its annotations
 * ({@code nccl-triage.io/ignore}, on the object or on this template) exempt it from. {@code name} is
 * null when the object gives neither a name nor a generateName.
 */
public record PodTemplate(String file, String kind, String name, String path, int line, FactSet facts,
    Map<Long, String> containerAt, Set<String> ignore) {

  public String object() {
    return kind + "/" + (name == null ? "?" : name) + (path.isEmpty() ? "" : " " + path);
  }
}
