package dev.nccltriage.report;

import java.util.List;

/**
 * {@code nccl-triage --version -o json|yaml}: the envelope (no inputs) and what this build is
 * (schema/version-v1.schema.json). {@code commit} and {@code buildDate} are null when the jar was not
 * built from a git checkout by Maven; {@code java} is the runtime running it.
 */
public record VersionReport(int schemaVersion, String tool, String version, String command, List<Input> inputs,
    String commit, String buildDate, String java) {

  public static VersionReport of(String version, String commit, String buildDate, String java) {
    return new VersionReport(Report.SCHEMA_VERSION, Report.TOOL, version, "version", List.of(), commit, buildDate,
        java);
  }
}
