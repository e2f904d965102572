package dev.nccltriage.cli;

import dev.nccltriage.host.Cleanup;
import dev.nccltriage.host.InputFiles;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Entry point: wires the real process streams and environment, then exits with the code. */
public final class Main {
  private Main() {}

  /** Java has no isatty for one stream; on Linux /proc tells, elsewhere the console does. */
  private static boolean isTerminal(int fd) {
    try {
      String target = java.nio.file.Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  /**
   * The terminal's width as jline reads it (stty, or the platform's call), 0 when it cannot. No
   * signal handlers: SIGINT and SIGWINCH stay the JVM's, so the cleanup hooks still run.
   */
  static int terminalColumns() {
    try (org.jline.terminal.Terminal t = org.jline.terminal.TerminalBuilder.builder().system(true).dumb(true)
        .nativeSignals(false).build()) {
      return Math.max(0, t.getWidth());
    } catch (java.io.IOException | RuntimeException | LinkageError e) {
      return 0;
    }
  }

  private static java.util.function.IntSupplier once(java.util.function.IntSupplier s) {
    int[] memo = {-1};
    return () -> {
      synchronized (memo) {
        if (memo[0] < 0) {
          memo[0] = s.getAsInt();
        }
        return memo[0];
      }
    };
  }

  public static void main(String[] args) {
    Preload preload = Preload.forArgs(args); // first: it runs while the rest of start-up does
    StdoutErrors stdout = new StdoutErrors(new java.io.FileOutputStream(java.io.FileDescriptor.out));
    PrintStream out = new PrintStream(stdout, false, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true, StandardCharsets.UTF_8);
    // SIGTERM (Kubernetes), SIGINT and SIGHUP run shutdown hooks: kill live probes, remove partial
    // captures, stop a wrapped training command; the JVM then exits 128+signal, or with the
    // wrapped command's status (halt: System.exit would block while the hooks run)
    Cleanup cleanup = new Cleanup();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      cleanup.run();
      cleanup.exitStatus().ifPresent(Runtime.getRuntime()::halt);
    }, "nccl-triage-cleanup"));
    Context ctx = new Context(InputFiles.stdin(), out, err, System.getenv(), Path.of("").toAbsolutePath(),
        isTerminal(1), isTerminal(2), java.time.Clock.systemUTC(), preload, cleanup,
        new Context.Tty(isTerminal(0), once(Main::terminalColumns)));
    int code = NcclTriage.mainWithoutExit(ctx, args);
    System.exit(stdout.exitCode(code, out, err));
  }
}
