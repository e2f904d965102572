package dev.nccltriage.cli;

import dev.nccltriage.evidence.Printable;
import dev.nccltriage.host.CommandLookup;
import dev.nccltriage.host.WrappedCommand;
import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.Report;
import dev.nccltriage.report.TextReport;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code nccl-triage preflight}: check for an initContainer. No log; one JSON document on stdout,
 * the readable report on stderr; the exit code fails the Pod before the job starts.
 *
 * <p>{@code preflight [OPTIONS] -- CMD [ARG...]} is the wrapper form, for the training container
 * itself (where the image's verbs stack is the one NCCL will load): the ladder, then the command.
 * The launchers exec it (same PID, its own exit status; {@link #GATE_ONLY}); run as {@code java
 * -jar} the JVM runs it as a child ({@link WrappedCommand}). stdout is then the command's alone:
 * the JSON line goes to stderr, before the report.
 */
final class PreflightCommand implements Callable<Integer>, Specs.Modelled {
  /**
   * Set (to 1) by the launchers in the wrapper form: decide only, and exit 0 for "run it"; the
   * launcher then execs the command, which a JVM cannot do. Never set in the command's environment.
   */
  static final String GATE_ONLY = "NCCL_TRIAGE_GATE_ONLY";

  private final Context ctx;

  final LadderOptions ladder = new LadderOptions();
  List<String> command; // null when none is given
  private CommandSpec spec;

  PreflightCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public CommandSpec model() {
    spec = Specs.exitCodes(Specs.command(this, "preflight",
        "check for a Job's initContainer: applies the expectations, prints one JSON document on stdout and"
            + " the readable report on stderr, and exits non-zero when the road to RDMA is missing.",
        "",
        "With -- COMMAND [ARG...] it wraps the training command in the training container: it runs the ladder"
            + " there (the image's own verbs stack is seen), then the command, whose exit code becomes its own."
            + " The command does not run when the preflight fails at --fail-on: a problem (default), or with"
            + " --fail-on warn also a warning or an inconclusive ladder; exit code 1 or 3 then. The launcher"
            + " script execs the command (same PID, signals go straight to it); run as java -jar, the JVM runs it"
            + " as a child, passes SIGTERM/SIGINT/SIGHUP on to it as SIGTERM and exits with its status. stdout is"
            + " left to the command: the JSON line goes to stderr, before the report."),
        "0:healthy", "1:problem found (at or above --fail-on)", "2:usage error", "3:inconclusive",
        "4:internal error",
        "126:wrapper form: the command was found but cannot be run",
        "127:wrapper form: the command was not found",
        "*:wrapper form: the command's own exit code (128+N when signal N ended it)");
    spec.usageMessage().showEndOfOptionsDelimiterInUsageHelp(true);
    ladder.addTo(spec);
    spec.addPositional(Specs.positionals(v -> command = v).paramLabel("COMMAND").arity("0..*")
        .description("After --: the training command and its arguments, run after a passing preflight.").build());
    return spec;
  }

  @Override
  public Integer call() throws Exception {
    command = command == null ? List.of() : command;
    boolean wrapper = wrapperForm();
    Supplier<JsonReport> json = Reports.prepare(OutputFormat.json, ctx);
    Report report = LadderRun.run("preflight", ladder, null, ctx);
    json.get().writeCompact(report, wrapper ? ctx.err() : ctx.out());
    new TextReport(ctx.width(), false).write(report, ctx.err());
    int code = Reports.exitCode(report, ladder.common.failOn);
    return wrapper ? gate(code) : code;
  }

  /**
   * Whether the arguments end in {@code -- COMMAND...}. Positional arguments without {@code --},
   * or any before it, are refused: the launcher splits at the first {@code --}, and so must this.
   */
  private boolean wrapperForm() {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    int dashes = args.indexOf("--");
    if (dashes < 0) {
      if (!command.isEmpty()) {
        throw new NcclTriage.UsageError("preflight takes no arguments (" + command.get(0)
            + "); to run a training command after it, put it after --: preflight [OPTIONS] -- COMMAND [ARG...]");
      }
      return false;
    }
    List<String> after = args.subList(dashes + 1, args.size());
    if (!command.equals(after)) {
      int extra = command.size() - after.size();
      throw new NcclTriage.UsageError(extra > 0 && command.subList(extra, command.size()).equals(after)
          ? "preflight: no arguments before --, only options: " + command.subList(0, extra)
          : "preflight: the first -- must end the options: preflight [OPTIONS] -- COMMAND [ARG...]");
    }
    if (command.isEmpty()) {
      throw new NcclTriage.UsageError("preflight: no command after --: preflight [OPTIONS] -- COMMAND [ARG...]");
    }
    return true;
  }

  /** Wrapper form: the preflight's failure, or the command's own status once it has run. */
  private int gate(int code) throws IOException {
    PrintStream err = ctx.err();
    String name = Printable.line(command.get(0), 200);
    boolean inconclusive = code == ExitCode.INCONCLUSIVE.code();
    if (code != ExitCode.HEALTHY.code() && !(inconclusive && ladder.common.failOn == FailOn.problem)) {
      err.println("nccl-triage: preflight failed (exit " + code + "); " + name + " was not run");
      return code;
    }
    CommandLookup.Result found = CommandLookup.find(command.get(0), ctx.env().get("PATH"), ctx.cwd());
    if (!found.found()) {
      err.println("nccl-triage: cannot run the training command: " + Printable.line(found.why(), 600));
      return found.status();
    }
    err.println("nccl-triage: preflight " + (inconclusive
        ? "inconclusive, which fails only with --fail-on warn" : "passed") + "; running " + name);
    err.flush();
    if ("1".equals(ctx.env().get(GATE_ONLY))) {
      return ExitCode.HEALTHY.code(); // the launcher execs it
    }
    List<String> argv = new ArrayList<>(command);
    argv.set(0, found.program().toString());
    try {
      return WrappedCommand.run(argv, ctx.env(), ctx.cwd(), ctx.cleanup());
    } catch (IOException e) {
      // found and executable, yet the kernel refused it (no interpreter, a foreign binary): a shell says 126
      err.println("nccl-triage: cannot run the training command: " + name + ": " + Printable.line(e.getMessage(), 300));
      return ExitCode.CANNOT_RUN.code();
    }
  }
}
