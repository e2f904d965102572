package dev.nccltriage.cli;

import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.LogFactSet;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.report.Input;
import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.LogSection;
import dev.nccltriage.report.Report;
import dev.nccltriage.rules.Engine;
import dev.nccltriage.rules.RuleSet;
import dev.nccltriage.rules.Verdict;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nccl-triage log [FILE...|-]}: triage a saved NCCL log. Wiring only. */
final class LogCommand implements Callable<Integer>, Specs.Modelled {
  private final Context ctx;
  List<String> files;
  OutputFormat output = OutputFormat.text;
  Integer expectHcas;
  int threads = Math.min(4, Runtime.getRuntime().availableProcessors());
  // a pool of parser threads, each with its buffers and caches: past a few hundred, only memory
  private static final int MAX_THREADS = 256;
  Long parallelMinBytes;
  final CommonOptions common = new CommonOptions();

  LogCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public CommandSpec model() {
    CommandSpec spec = Specs.exitCodes(Specs.command(this, "log",
        "Reads the NCCL_DEBUG=INFO log of one job (files, '-' for stdin, .gz read as is; several"
            + " files, one per Pod, are one job) and says whether NCCL fell back, and which layer owes the fix."),
        Specs.EXIT_CODES);
    spec.addPositional(Specs.positionals(v -> files = v).paramLabel("FILE").arity("0..*")
        .description("Log files; '-' or none reads stdin.").build());
    spec.addOption(Specs.output(output, v -> output = v));
    spec.addOption(Specs.option(Integer.class, expectHcas, v -> expectHcas = v, "--expect-hcas").paramLabel("N")
        .description("HCA ports each node should give NCCL.").build());
    spec.addOption(Specs.option(int.class, threads, v -> threads = v, "--threads").paramLabel("N").hidden(true)
        .description("Parser threads (inputs, and parts of large files).").build());
    // the launchers' class-list run: a small sample read in parts loads what a large log's run loads
    spec.addOption(Specs.option(Long.class, parallelMinBytes, v -> parallelMinBytes = v, "--parallel-min-bytes")
        .paramLabel("BYTES").hidden(true).description("Smallest file read in parts by several threads (default 16 MiB).")
        .build());
    return common.addTo(spec);
  }

  @Override
  public Integer call() throws Exception {
    List<String> inputs = files == null || files.isEmpty() ? List.of("-") : files;
    StdinNotice.ifTerminal(ctx, inputs, "an NCCL log", "nccl-triage log FILE (or kubectl logs POD | nccl-triage log -)");
    if (expectHcas != null && expectHcas < 1) {
      throw new NcclTriage.UsageError("--expect-hcas must be at least 1");
    }
    if (threads < 1 || threads > MAX_THREADS) {
      throw new NcclTriage.UsageError("--threads must be between 1 and " + MAX_THREADS + " (got " + threads + ")");
    }
    if (parallelMinBytes != null && parallelMinBytes < 1) {
      throw new NcclTriage.UsageError("--parallel-min-bytes must be at least 1");
    }
    // the built-in rules (YAML) load while the log is read, if Main has not started them already
    ctx.preload().rules();
    Supplier<JsonReport> json = Reports.prepare(output, ctx);
    LogFacts facts;
    try {
      NcclLogSource source = parallelMinBytes == null ? new NcclLogSource(ctx.in(), threads)
          : new NcclLogSource(ctx.in(), threads, parallelMinBytes);
      facts = source.withProgress(TerminalProgress.forContext(ctx))
          .read(inputs, ctx.cwd());
    } catch (LogInputException e) {
      throw new NcclTriage.UsageError(e.getMessage());
    }
    RuleSet rules = ctx.preload().ruleSet(common.rulesDir(ctx));
    FactSet factSet = LogFactSet.from(facts, expectHcas);
    Verdict verdict = new Engine(rules).evaluate(factSet, facts.differs());
    Report report = new Report(Report.SCHEMA_VERSION, Report.TOOL, NcclTriage.version(), "log",
        Input.logs(facts.inputs()),
        null, null, LogSection.of(facts), verdict, null);
    Reports.render(report, output, ctx, json);
    return Reports.exitCode(verdict, common.failOn);
  }
}
