package dev.nccltriage.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a command may touch of the outside world, injected so tests run commands in-process:
 * standard streams, the environment, the working directory, whether stdout is a terminal, and
 * the work started ahead of the command ({@link Preload}).
 */
public record Context(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Path cwd,
    boolean stdoutIsTerminal, boolean stderrIsTerminal, java.time.Clock clock, Preload preload) {

  public Context(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Path cwd,
      boolean stdoutIsTerminal, boolean stderrIsTerminal, java.time.Clock clock) {
    this(in, out, err, env, cwd, stdoutIsTerminal, stderrIsTerminal, clock, Preload.lazy());
  }

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
