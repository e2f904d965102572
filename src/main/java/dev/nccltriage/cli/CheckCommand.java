package dev.nccltriage.cli;

import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.Report;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nccl-triage check}: the seven-step ladder inside the Pod, with the NCCL log if given. */
@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = NcclTriage.Version.class,
    description = "Runs the seven-step ladder in this container (or on a capture with --root/--capture), reads the"
        + " NCCL log if --log is given, and names the layer that owes the fix.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:healthy", "1:problem found", "2:usage error", "3:inconclusive", "4:internal error"})
final class CheckCommand implements Callable<Integer> {
  private final Context ctx;

  @Mixin LadderOptions ladder;

  @Option(names = "--log", paramLabel = "FILE|-", description = "The job's NCCL_DEBUG=INFO log ('-' for stdin).")
  String log;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = OutputFormat.HELP)
  OutputFormat output = OutputFormat.text;

  CheckCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() throws Exception {
    Supplier<JsonReport> json = Reports.prepare(output, ctx);
    Report report = LadderRun.run("check", ladder, log, ctx);
    Reports.render(report, output, ctx, json);
    return Reports.exitCode(report, ladder.common.failOn);
  }
}
