package dev.nccltriage.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a command may touch of the outside world, injected so tests run commands in-process:
 * standard streams, the environment, the working directory and whether stdout is a terminal.
 */
public record Context(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Path cwd,
    boolean stdoutIsTerminal, boolean stderrIsTerminal, java.time.Clock clock) {

  public Context(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Path cwd,
      boolean stdoutIsTerminal) {
    this(in, out, err, env, cwd, stdoutIsTerminal, false, java.time.Clock.systemUTC());
  }

  /** Colour only on a terminal, never with NO_COLOR (any value) or TERM=dumb. */
  public boolean colour() {
    return stdoutIsTerminal && !env.containsKey("NO_COLOR") && !"dumb".equals(env.get("TERM"));
  }

  public int width() {
    try {
      int w = Integer.parseInt(env.getOrDefault("COLUMNS", ""));
      return Math.max(40, Math.min(w, 200));
    } catch (NumberFormatException e) {
      return 100;
    }
  }
}
