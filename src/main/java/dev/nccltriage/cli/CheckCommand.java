package dev.nccltriage.cli;

import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.Report;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nccl-triage check}: the seven-step ladder inside the Pod, with the NCCL log if given. */
final class CheckCommand implements Callable<Integer>, Specs.Modelled {
  private final Context ctx;

  final LadderOptions ladder = new LadderOptions();
  String log;
  OutputFormat output = OutputFormat.text;

  CheckCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public CommandSpec model() {
    CommandSpec spec = Specs.exitCodes(Specs.command(this, "check",
        "Runs the seven-step ladder in this container (or on a capture with --root/--capture), reads the"
            + " NCCL log if --log is given, and names the layer that owes the fix."),
        Specs.EXIT_CODES);
    ladder.addTo(spec);
    spec.addOption(Specs.option(String.class, log, v -> log = v, "--log").paramLabel("FILE|-")
        .description("The job's NCCL_DEBUG=INFO log ('-' for stdin).").build());
    spec.addOption(Specs.output(output, v -> output = v));
    return spec;
  }

  @Override
  public Integer call() throws Exception {
    Supplier<JsonReport> json = Reports.prepare(output, ctx);
    Report report = LadderRun.run("check", ladder, log, ctx);
    Reports.render(report, output, ctx, json);
    return Reports.exitCode(report, ladder.common.failOn);
  }
}
