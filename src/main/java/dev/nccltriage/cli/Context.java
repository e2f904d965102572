package dev.nccltriage.cli;

import dev.nccltriage.host.Cleanup;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a command may touch of the outside world, injected so tests run commands in-process:
 * standard streams, the environment, the working directory, whether stdout is a terminal, the
 * work started ahead of the command ({@link Preload}), and what to undo when a signal stops the
 * run ({@link Cleanup}; Main runs it from a shutdown hook).
 */
public record Context(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Path cwd,
    boolean stdoutIsTerminal, boolean stderrIsTerminal, java.time.Clock clock, Preload preload, Cleanup cleanup) {

  public Context(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Path cwd,
      boolean stdoutIsTerminal, boolean stderrIsTerminal, java.time.Clock clock, Preload preload) {
    this(in, out, err, env, cwd, stdoutIsTerminal, stderrIsTerminal, clock, preload, new Cleanup());
  }

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

  /** COLUMNS clamped to 40..200; a number too large for an int is as wide as allowed, anything else 100. */
  public int width() {
    String c = env.getOrDefault("COLUMNS", "").strip().replaceFirst("^0+(?=[0-9])", "");
    if (!c.matches("[0-9]{1,40}")) {
      return 100;
    }
    return c.length() > 9 ? 200 : Math.max(40, Math.min(Integer.parseInt(c), 200));
  }
}
