package dev.nccltriage.cli;

import dev.nccltriage.evidence.Printable;
import dev.nccltriage.host.IoProblems;
import java.util.List;
import picocli.CommandLine;

/**
 * How a run ends when it does not end well: a usage error, an input or environment problem, a full
 * heap, a signal or a bug each becomes one line on stderr and its exit code ({@link ExitCode}); and
 * {@code -o} before a command goes with {@code --version} only. picocli's four handlers as one
 * class, not four lambdas: a lambda of an interface of picocli's (Java 5 class files) cannot be kept
 * in the start-up archive, so each was spun at run time.
 */
record Handlers(Context ctx, boolean debug, CommandLine cl) implements CommandLine.IParameterExceptionHandler,
    CommandLine.IExecutionExceptionHandler, CommandLine.IExitCodeExceptionMapper, CommandLine.IExecutionStrategy {

  @Override
  public int handleParseException(CommandLine.ParameterException ex, String[] a) {
    boolean unknownCommand = ex instanceof CommandLine.UnmatchedArgumentException
        && ex.getCommandLine().getCommandSpec().parent() == null && a.length > 0 && !a[0].startsWith("-")
        && !NcclTriage.SUBCOMMANDS.containsKey(a[0]);
    if (unknownCommand) {
      ctx.err().println("nccl-triage: unknown command '" + Printable.line(a[0], 80) + "'");
      List<String> near = Suggest.nearest(a[0], NcclTriage.SUBCOMMANDS.keySet());
      if (!near.isEmpty()) {
        ctx.err().println("Did you mean: " + String.join(" or ", near) + "?");
      } else if (isFile(ctx, a[0])) {
        ctx.err().println("To triage that file: nccl-triage log " + Printable.line(a[0], 200));
      }
    } else {
      ctx.err().println("nccl-triage: " + Printable.text(ex.getMessage()));
      if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
        // a misspelt option: picocli's nearest names
        ctx.err().println("Did you mean: " + String.join(" or ", u.getSuggestions().stream().limit(3).toList()) + "?");
      }
    }
    ctx.err().println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
    return ExitCode.USAGE.code();
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine c, CommandLine.ParseResult parsed) {
    if (ex instanceof NcclTriage.UsageError u) {
      ctx.err().println("nccl-triage: " + u.getMessage());
      return ExitCode.USAGE.code();
    }
    if (outOfMemory(ex) != null) {
      // the heap ran out on a worker thread and reached here wrapped (a probe's future): the same
      // line and exit code as on the main thread
      return outOfMemory(ctx, debug, outOfMemory(ex));
    }
    if (interrupted(ex)) {
      // a signal stopped the run and the cleanup undid its work; the JVM exits 128+signal
      ctx.err().println("nccl-triage: interrupted; nothing was written");
      return ExitCode.INTERRUPTED.code();
    }
    java.io.IOException io = IoProblems.find(ex);
    if (io != null) {
      // the environment (a full disk, a read-only or missing folder), not a bug
      if (debug) {
        ex.printStackTrace(ctx.err());
      }
      ctx.err().println("nccl-triage: " + IoProblems.located(io));
      return ExitCode.USAGE.code();
    }
    return internalError(ctx, debug, ex);
  }

  @Override
  public int getExitCode(Throwable t) {
    return ExitCode.INTERNAL.code();
  }

  @Override
  public int execute(CommandLine.ParseResult parsed) {
    NcclTriage root = cl.getCommand();
    if (root.output != NcclTriage.VersionFormat.text) {
      if (!parsed.isVersionHelpRequested()) {
        throw new CommandLine.ParameterException(cl, "-o/--output before a command goes with --version only;"
            + " put it after the command (nccl-triage log -o json FILE)");
      }
      root.printVersion(ctx);
      return ExitCode.HEALTHY.code();
    }
    return new CommandLine.RunLast().execute(parsed);
  }

  /** A bug of ours: its trace with --debug, else one line asking for that; exit 4. */
  static int internalError(Context ctx, boolean debug, Throwable t) {
    if (debug) {
      t.printStackTrace(ctx.err());
    } else {
      ctx.err().println("nccl-triage: internal error: " + t);
      ctx.err().println("This is a bug. Re-run with --debug and report the output with the command line.");
    }
    return ExitCode.INTERNAL.code();
  }

  /**
   * The input holds more than the heap (a log of millions of distinct settings, say): not a
   * finding (exit 1 would say "problem"), but the environment's limit, as an unreadable input is.
   */
  static int outOfMemory(Context ctx, boolean debug, OutOfMemoryError e) {
    if (debug) {
      e.printStackTrace(ctx.err());
    }
    String m = e.getMessage();
    // the JVM's words when the system refuses a thread: the same class, but not the heap's size
    ctx.err().println(m != null && m.contains("native thread")
        ? "nccl-triage: out of threads: the system refused to start one (a process limit: ulimit -u, or"
            .concat(" the Pod's pids limit); run it again with a higher limit")
        : outOfMemory());
    return ExitCode.USAGE.code();
  }

  /** The OutOfMemoryError among {@code t}'s causes, or null. */
  static OutOfMemoryError outOfMemory(Throwable t) {
    for (int depth = 0; t != null && depth < 16; t = t.getCause(), depth++) {
      if (t instanceof OutOfMemoryError o) {
        return o;
      }
    }
    return null;
  }

  /** What to say when the heap ran out: its size, and how to give the JVM more. */
  private static String outOfMemory() {
    // String.concat, not '+': a '+' site is linked on its first run (method handles, a generated
    // class: more than a full heap may have left), and this one runs first when the heap is full
    return "nccl-triage: out of memory: the input needs more than the Java heap's "
        .concat(Long.toString(Runtime.getRuntime().maxMemory() / (1 << 20)))
        .concat(" MiB; run it again with a larger heap, e.g. NCCL_TRIAGE_JAVA_OPTS=-Xmx1g");
  }

  private static boolean isFile(Context ctx, String name) {
    try {
      return java.nio.file.Files.isRegularFile(ctx.cwd().resolve(name));
    } catch (RuntimeException e) {
      return false; // not a path at all (a NUL byte)
    }
  }

  private static boolean interrupted(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof dev.nccltriage.host.Cleanup.Interrupted) {
        return true;
      }
    }
    return false;
  }
}
