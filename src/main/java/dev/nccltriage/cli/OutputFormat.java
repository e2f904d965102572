package dev.nccltriage.cli;

/** The three report forms. */
public enum OutputFormat {
  text,
  json,
  markdown
}
