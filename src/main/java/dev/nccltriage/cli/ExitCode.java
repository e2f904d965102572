package dev.nccltriage.cli;

/** The stable exit codes of DESIGN.md. */
public enum ExitCode {
  HEALTHY(0),
  PROBLEM(1),
  USAGE(2),
  INCONCLUSIVE(3),
  INTERNAL(4),
  /** preflight -- CMD: the command was found but cannot be run (a shell's 126). */
  CANNOT_RUN(126),
  /** preflight -- CMD: the command was not found (a shell's 127). */
  NOT_FOUND(127),
  /**
   * Stopped by a signal. A real run never returns it: the JVM exits 128+signal (143 for SIGTERM,
   * 130 for SIGINT, 129 for SIGHUP) once the cleanup is done; in-process runs see 130.
   */
  INTERRUPTED(130),
  /** Standard output is a closed pipe (EPIPE): quiet, as a tool killed by SIGPIPE (128+13). */
  BROKEN_PIPE(141);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
