package dev.nccltriage.cli;

import dev.nccltriage.evidence.Printable;
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
import picocli.CommandLine.Model.CommandSpec;

/** The root command. Subcommands do the work; this class only wires picocli and error handling. */
public final class NcclTriage implements Runnable, Specs.Modelled {
  /**
   * The subcommands by name, in the order help lists them. A run that names a leaf command builds
   * only that command's model (each command builds its own, {@link Specs}).
   */
  static final Map<String, Class<?>> SUBCOMMANDS = subcommands(
      "log", LogCommand.class, "bw", BwCommand.class, "lint", LintCommand.class, "check", CheckCommand.class,
      "preflight", PreflightCommand.class, "capture", CaptureCommand.class, "guide", GuideCommand.class,
      "rules", RulesCommand.class, "completion", CompletionCommand.class, "help", CommandLine.HelpCommand.class);
  /** Commands that read the whole tree (help lists it, completion writes it). */
  private static final Set<String> NEED_TREE = Set.of("help", "completion");

  private CommandSpec spec;

  /** The forms of --version: a line, or a document with the commit and build date. */
  enum VersionFormat { text, json, yaml }

  VersionFormat output = VersionFormat.text;

  @Override
  public CommandSpec model() {
    spec = Specs.command(this, "nccl-triage",
        "Finds why NCCL silently degraded (TCP sockets instead of RDMA, no GPUDirect RDMA, too few"
            + " HCAs, handshake on the overlay) and names the layer that owes the fix.");
    Specs.exitCodes(spec,
        "0:healthy (nothing at or above the --fail-on threshold)",
        "1:a problem found (a layer named)",
        "2:usage error",
        "3:inconclusive (not enough evidence; the report says what would decide)",
        "4:internal error (a bug: please report it with the --debug output)");
    spec.addOption(Specs.option(VersionFormat.class, output, v -> output = v, "-o", "--output").paramLabel("FORMAT")
        .description("With --version: text (default), json or yaml, with the git commit and build date."
            + " Each command has its own -o, after its name.").build());
    return spec;
  }

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
      return Handlers.outOfMemory(ctx, debug, e);
    } catch (StackOverflowError e) {
      // picocli passes Errors on; this one is a bug of ours (a recursion some input drove too deep),
      // and gets the one line any other internal error gets, not the JVM's trace
      return Handlers.internalError(ctx, debug, e);
    }
  }

  /** --version -o json|yaml: one document on stdout. */
  void printVersion(Context ctx) {
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

  /** The whole command tree (help, completion, man pages). */
  public static CommandLine commandLine(CommandLine.IFactory factory) {
    CommandLine cl = root(factory);
    for (Map.Entry<String, Class<?>> c : SUBCOMMANDS.entrySet()) {
      add(cl, c.getKey(), c.getValue(), factory);
    }
    return cl;
  }

  private static CommandLine root(CommandLine.IFactory factory) {
    return Specs.commandLine(new NcclTriage(), factory);
  }

  /** Our commands build their models; picocli's help command is read from its annotations. */
  private static void add(CommandLine cl, String name, Class<?> command, CommandLine.IFactory factory) {
    Object instance;
    try {
      instance = factory.create(command);
    } catch (Exception e) {
      throw new CommandLine.InitializationException("cannot create the " + name + " command: " + e, e);
    }
    cl.addSubcommand(name, instance instanceof Specs.Modelled m ? Specs.commandLine(m, factory) : instance);
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
      return root(factory); // prints the version; needs no command
    }
    Class<?> leaf = args.length == 0 || NEED_TREE.contains(args[0]) ? null : SUBCOMMANDS.get(args[0]);
    if (leaf == null) {
      return commandLine(factory);
    }
    CommandLine cl = root(factory);
    add(cl, args[0], leaf, factory);
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
