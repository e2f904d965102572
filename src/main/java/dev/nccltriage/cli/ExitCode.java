package dev.nccltriage.cli;

/** The stable exit codes of DESIGN.md. */
public enum ExitCode {
  HEALTHY(0),
  PROBLEM(1),
  USAGE(2),
  INCONCLUSIVE(3),
  INTERNAL(4);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
