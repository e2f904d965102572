package dev.nccltriage.cli;

import dev.nccltriage.evidence.Printable;
import dev.nccltriage.host.IoProblems;
import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.VersionReport;
import dev.nccltriage.report.YamlReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The root command. Subcommands do the work; this class only wires picocli and error handling. */
@Command(
    name = "nccl-triage",
    mixinStandardHelpOptions = true,
    versionProvider = NcclTriage.Version.class,
    description = "Finds why NCCL silently degraded (TCP sockets instead of RDMA, no GPUDirect RDMA, too few"
        + " HCAs, handshake on the overlay) and names the layer that owes the fix.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:healthy (nothing at or above the --fail-on threshold)",
      "1:a problem found (a layer named)",
      "2:usage error",
      "3:inconclusive (not enough evidence; the report says what would decide)",
      "4:internal error (a bug: please report it with the --debug output)"
    })
public final class NcclTriage implements Runnable {
  /**
   * The subcommands by name, in the order help lists them. Not in the annotation: picocli builds
   * the model of every subcommand it is given (reflection, annotation proxies), about 50 ms of a
   * start-up, so a run that names a leaf command builds only that one.
   */
  static final Map<String, Class<?>> SUBCOMMANDS = subcommands(
      "log", LogCommand.class, "bw", BwCommand.class, "lint", LintCommand.class, "check", CheckCommand.class,
      "preflight", PreflightCommand.class, "capture", CaptureCommand.class, "guide", GuideCommand.class,
      "rules", RulesCommand.class, "completion", CompletionCommand.class, "help", CommandLine.HelpCommand.class);
  /** Commands that read the whole tree (help lists it, completion writes it). */
  private static final Set<String> NEED_TREE = Set.of("help", "completion");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** The forms of --version: a line, or a document with the commit and build date. */
  enum VersionFormat { text, json, yaml }

  @CommandLine.Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "With --version: text (default), json or yaml, with the git commit and build date."
          + " Each command has its own -o, after its name.")
  VersionFormat output = VersionFormat.text;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required ("
        + String.join(", ", SUBCOMMANDS.keySet().stream().filter(n -> !n.equals("help")).toList()) + ")");
  }

  /** Runs the tool in-process and returns the exit code; tests call this. */
  public static int mainWithoutExit(Context ctx, String... args) {
    boolean debug = java.util.Arrays.asList(args).contains("--debug");
    CommandLine cl = commandLine(new Factory(ctx), args);
    // arguments are names and commands, never picocli argument files: "@x" stays "@x" (a log
    // named @rank0.log, a wrapped command's "@hostfile" after --, which picocli would expand too)
    cl.setExpandAtFiles(false);
    // help wraps between words, at the terminal's width on a terminal, else at picocli's 80
    HelpWrap.apply(cl, ctx.stdoutIsTerminal() ? Math.max(55, ctx.width()) : 80);
    cl.setOut(new PrintWriter(ctx.out(), true));
    cl.setErr(new PrintWriter(ctx.err(), true));
    Handlers handlers = new Handlers(ctx, debug, cl);
    cl.setParameterExceptionHandler(handlers);
    cl.setExecutionExceptionHandler(handlers);
    cl.setExitCodeExceptionMapper(handlers);
    cl.setExecutionStrategy(handlers);
    try {
      return cl.execute(args);
    } catch (OutOfMemoryError e) {
      return outOfMemory(ctx, debug, e);
    } catch (StackOverflowError e) {
      // picocli passes Errors on; this one is a bug of ours (a recursion some input drove too deep),
      // and gets the one line any other internal error gets, not the JVM's trace
      return internalError(ctx, debug, e);
    }
  }

  /**
   * picocli's four handlers as one class, not four lambdas: a lambda of an interface of picocli's
   * (Java 5 class files) cannot be kept in the start-up archive, so each was spun at run time.
   */
  private static final class Handlers implements CommandLine.IParameterExceptionHandler,
      CommandLine.IExecutionExceptionHandler, CommandLine.IExitCodeExceptionMapper, CommandLine.IExecutionStrategy {
    private final Context ctx;
    private final boolean debug;
    private final CommandLine cl;

    Handlers(Context ctx, boolean debug, CommandLine cl) {
      this.ctx = ctx;
      this.debug = debug;
      this.cl = cl;
    }

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] a) {
      boolean unknownCommand = ex instanceof CommandLine.UnmatchedArgumentException
          && ex.getCommandLine().getCommandSpec().parent() == null && a.length > 0 && !a[0].startsWith("-")
          && !SUBCOMMANDS.containsKey(a[0]);
      if (unknownCommand) {
        ctx.err().println("nccl-triage: unknown command '" + Printable.line(a[0], 80) + "'");
        List<String> near = Suggest.nearest(a[0], SUBCOMMANDS.keySet());
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
      if (ex instanceof UsageError u) {
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
      if (root.output != VersionFormat.text) {
        if (!parsed.isVersionHelpRequested()) {
          throw new CommandLine.ParameterException(cl, "-o/--output before a command goes with --version only;"
              + " put it after the command (nccl-triage log -o json FILE)");
        }
        root.printVersion(ctx);
        return ExitCode.HEALTHY.code();
      }
      return new CommandLine.RunLast().execute(parsed);
    }
  }

  /** A bug of ours: its trace with --debug, else one line asking for that; exit 4. */
  private static int internalError(Context ctx, boolean debug, Throwable t) {
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
  private static int outOfMemory(Context ctx, boolean debug, OutOfMemoryError e) {
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

  /** --version -o json|yaml: one document on stdout. */
  private void printVersion(Context ctx) {
    BuildInfo build = BuildInfo.read();
    VersionReport doc = VersionReport.of(version(), build.commit(), build.buildDate(), Runtime.version().toString());
    try {
      if (output == VersionFormat.json) {
        new JsonReport().write(doc, ctx.out());
      } else {
        new YamlReport().write(doc, ctx.out());
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
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

  /** The whole command tree (help, completion, man pages). */
  public static CommandLine commandLine(CommandLine.IFactory factory) {
    CommandLine cl = new CommandLine(new NcclTriage(), factory);
    for (Class<?> c : SUBCOMMANDS.values()) {
      cl.addSubcommand(c);
    }
    return cl;
  }

  /**
   * The tree as far as these arguments need it: the root and the leaf command that the first
   * argument names, or the root alone for a lone --version. Anything else (no command, root options such as --help first, an unknown or
   * misspelt command, help, completion) gets the whole tree, so usage lists and "did you mean"
   * stay complete.
   */
  static CommandLine commandLine(CommandLine.IFactory factory, String... args) {
    List<String> all = java.util.Arrays.asList(args);
    if ((all.contains("--version") || all.contains("-V")) && all.stream().noneMatch(SUBCOMMANDS::containsKey)) {
      return new CommandLine(new NcclTriage(), factory); // prints the version; needs no command
    }
    Class<?> leaf = args.length == 0 || NEED_TREE.contains(args[0]) ? null : SUBCOMMANDS.get(args[0]);
    if (leaf == null) {
      return commandLine(factory);
    }
    CommandLine cl = new CommandLine(new NcclTriage(), factory);
    cl.addSubcommand(leaf);
    return cl;
  }

  /** Name, class, name, class...: the names are spelled out because reading them from the annotations costs what this saves. */
  private static Map<String, Class<?>> subcommands(Object... nameThenClass) {
    Map<String, Class<?>> byName = new LinkedHashMap<>();
    for (int i = 0; i < nameThenClass.length; i += 2) {
      byName.put((String) nameThenClass[i], (Class<?>) nameThenClass[i + 1]);
    }
    return Collections.unmodifiableMap(byName);
  }

  /** A problem with what the user gave us: one line, exit 2. */
  public static final class UsageError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageError(String message) {
      super(Printable.line(message, 500)); // names and reasons from input: one printable line
    }
  }

  static final class Factory implements CommandLine.IFactory {
    private final Context ctx;

    Factory(Context ctx) {
      this.ctx = ctx;
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
      try {
        return cls.getDeclaredConstructor(Context.class).newInstance(ctx);
      } catch (NoSuchMethodException e) {
        return CommandLine.defaultFactory().create(cls);
      }
    }
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      return new String[] {"nccl-triage " + version()};
    }
  }

  static String version() {
    try (InputStream in = NcclTriage.class.getResourceAsStream("/dev/nccltriage/version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
