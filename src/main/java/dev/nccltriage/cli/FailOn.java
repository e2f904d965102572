package dev.nccltriage.cli;

/** The threshold at which the exit code turns non-zero. */
public enum FailOn {
  warn,
  problem
}
