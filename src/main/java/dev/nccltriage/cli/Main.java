package dev.nccltriage.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Entry point: wires the real process streams and environment, then exits with the code. */
public final class Main {
  private Main() {}

  /** Java has no isatty for stdout alone; on Linux /proc tells, elsewhere the console does. */
  private static boolean stdoutIsTerminal() {
    try {
      String target = java.nio.file.Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  public static void main(String[] args) {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true, StandardCharsets.UTF_8);
    Context ctx = new Context(System.in, out, err, System.getenv(), Path.of("").toAbsolutePath(),
        stdoutIsTerminal());
    int code = NcclTriage.mainWithoutExit(ctx, args);
    out.flush();
    System.exit(code);
  }
}
