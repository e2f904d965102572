package dev.nccltriage.source.k8s;

import dev.nccltriage.facts.FactSet;
import java.util.Map;

/**
 * One pod template found in a manifest: the object it belongs to ({@code kind}/{@code name}), where
 * in the object it sits ({@code path}, e.g. {@code pytorchReplicaSpecs.Worker}; empty for a Pod),
 * its line, its facts, and the container that owns each evidence line.
 */
public record PodTemplate(String file, String kind, String name, String path, int line, FactSet facts,
    Map<Long, String> containerAt) {

  public String object() {
    return kind + "/" + name + (path.isEmpty() ? "" : " " + path);
  }
}
