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
    boolean stdoutIsTerminal, boolean stderrIsTerminal, java.time.Clock clock, Preload preload, Cleanup cleanup,
    Tty tty) {

  /**
   * What the terminal tells beyond stdout and stderr being one: whether stdin is a terminal (a
   * command waiting for a log there says so), and its width in columns (0: unknown), asked only
   * when a report is about to be wrapped.
   */
  public record Tty(boolean stdin, java.util.function.IntSupplier columns) {
    public static final Tty NONE = new Tty(false, () -> 0);
  }

  public Context(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, Path cwd,
      boolean stdoutIsTerminal, boolean stderrIsTerminal, java.time.Clock clock, Preload preload, Cleanup cleanup) {
    this(in, out, err, env, cwd, stdoutIsTerminal, stderrIsTerminal, clock, preload, cleanup, Tty.NONE);
  }

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

  /** Colour only on a terminal, never with NO_COLOR set and not empty (no-color.org) or TERM=dumb. */
  public boolean colour() {
    return stdoutIsTerminal && env.getOrDefault("NO_COLOR", "").isEmpty() && !"dumb".equals(env.get("TERM"));
  }

  /**
   * COLUMNS clamped to 40..200 (a number too large for an int is as wide as allowed); without a
   * usable COLUMNS (shells seldom export it), the terminal's own width when stdout is one; else 100.
   */
  public int width() {
    String c = env.getOrDefault("COLUMNS", "").strip().replaceFirst("^0+(?=[0-9])", "");
    if (!c.matches("[0-9]{1,40}")) {
      int tty = stdoutIsTerminal ? tty().columns().getAsInt() : 0;
      return tty > 0 ? Math.max(40, Math.min(tty, 200)) : 100;
    }
    return c.length() > 9 ? 200 : Math.max(40, Math.min(Integer.parseInt(c), 200));
  }
}
