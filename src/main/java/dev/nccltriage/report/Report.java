package dev.nccltriage.report;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.rules.LadderStep;
import dev.nccltriage.rules.Verdict;
import java.util.List;

/**
 * The one document every output form of log, check, preflight and bw renders (JSON Schema
 * schema/report-v1.schema.json). Its first five components are the envelope every command's
 * document starts with (schema/envelope-v1.schema.json); {@code schemaVersion} changes with the shape.
 */
public record Report(int schemaVersion, String tool, String version, String command, List<Input> inputs,
    List<LadderStep> ladder, PodFacts pod, LogSection log, Verdict verdict,
    BwSection bw) {
  public static final int SCHEMA_VERSION = 1;
  public static final String TOOL = "nccl-triage";
}
