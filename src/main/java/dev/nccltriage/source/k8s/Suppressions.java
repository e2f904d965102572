package dev.nccltriage.source.k8s;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The lints a manifest exempts itself from, the kube-linter way: the annotation
 * {@code nccl-triage.io/ignore: K-rule[,K-other]} on an object (all its pod templates) or on one pod
 * template's metadata. The lint command also takes {@code --exclude}; deciding is the command's.
 */
final class Suppressions {
  static final String ANNOTATION = "nccl-triage.io/ignore";

  private Suppressions() {}

  /** The rule ids the annotation names (comma- or space-separated); none when it is absent or empty. */
  static Set<String> of(Node annotation) {
    String v = annotation.text();
    if (v == null || v.isBlank()) {
      return Set.of();
    }
    Set<String> ids = new LinkedHashSet<>();
    for (String id : v.split("[,\\s]+")) {
      if (!id.isEmpty()) {
        ids.add(id);
      }
    }
    return ids;
  }
}
