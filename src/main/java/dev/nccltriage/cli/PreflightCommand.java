package dev.nccltriage.cli;

import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.Report;
import dev.nccltriage.report.TextReport;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code nccl-triage preflight}: check for an initContainer. No log; one JSON document on stdout,
 * the readable report on stderr; the exit code fails the Pod before the job starts.
 */
@Command(name = "preflight", mixinStandardHelpOptions = true,
    description = "check for a Job's initContainer: applies the expectations, prints one JSON document on stdout and"
        + " the readable report on stderr, and exits non-zero when the road to RDMA is missing.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:healthy", "1:problem found (at or above --fail-on)", "2:usage error", "3:inconclusive",
        "4:internal error"})
final class PreflightCommand implements Callable<Integer> {
  private final Context ctx;

  @Mixin LadderOptions ladder;

  PreflightCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() throws Exception {
    CompletableFuture<JsonReport> json = Reports.prepare(OutputFormat.json, ctx);
    Report report = LadderRun.run("preflight", ladder, null, ctx);
    json.join().writeCompact(report, ctx.out());
    new TextReport(ctx.width(), false).write(report, ctx.err());
    return Reports.exitCode(report, ladder.common.failOn);
  }
}
