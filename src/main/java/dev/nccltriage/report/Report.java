package dev.nccltriage.report;

import dev.nccltriage.facts.InputStats;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.rules.LadderStep;
import dev.nccltriage.rules.Verdict;
import java.util.List;

/** The one document every output form renders. {@code schemaVersion} changes with the JSON shape. */
public record Report(int schemaVersion, String tool, String version, String command, List<InputStats> inputs,
    List<LadderStep> ladder, PodFacts pod, LogSection log, Verdict verdict,
    BwSection bw) {
  public static final int SCHEMA_VERSION = 1;
}
