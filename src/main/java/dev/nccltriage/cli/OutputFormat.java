package dev.nccltriage.cli;

/** The report forms of log, check and bw: json and yaml are one document (schema/report-v1.schema.json). */
public enum OutputFormat {
  text,
  json,
  yaml,
  markdown;

  /** The -o option's description, for every command that renders a report. */
  static final String HELP = "text (default), json, yaml or markdown; json and yaml are one document, whose"
      + " JSON Schema is in the jar.";
}
