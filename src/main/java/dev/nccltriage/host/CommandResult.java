package dev.nccltriage.host;

import java.util.List;

/**
 * What running one external command gave. {@code status}: {@code ok} (exit 0), {@code failed}
 * (another exit code), {@code timeout}, {@code missing} (not on PATH / not recorded), {@code error}
 * (could not start). Output is capped; {@code truncated} says so. {@code millis} is how long it
 * ran and {@code limitMillis} how long it was allowed (0 where not known: not run, or a capture
 * made before these were recorded).
 */
public record CommandResult(List<String> argv, String status, int exitCode, String stdout, String stderr,
    long millis, long limitMillis, boolean truncated) {

  public boolean ok() {
    return status.equals("ok");
  }

  public static CommandResult missing(List<String> argv) {
    return new CommandResult(argv, "missing", -1, "", "", 0, 0, false);
  }

  public String display() {
    return String.join(" ", argv);
  }
}
