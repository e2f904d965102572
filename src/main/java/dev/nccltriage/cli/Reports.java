package dev.nccltriage.cli;

import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.MarkdownReport;
import dev.nccltriage.report.Report;
import dev.nccltriage.report.TextReport;
import dev.nccltriage.report.YamlReport;
import dev.nccltriage.rules.Verdict;
import java.io.IOException;
import java.util.function.Supplier;

/** Renders a report in the chosen form and maps its verdict to the exit code. */
final class Reports {
  private Reports() {}

  /**
   * Starts building what the chosen form needs on a background thread (loading Jackson's
   * generator classes): the work before rendering (reading the log, running the probes) leaves
   * time for it.
   */
  static Supplier<JsonReport> prepare(OutputFormat format, Context ctx) {
    return format == OutputFormat.json ? ctx.preload().json() : () -> null;
  }

  static void render(Report report, OutputFormat format, Context ctx) throws IOException {
    render(report, format, ctx, () -> null);
  }

  static void render(Report report, OutputFormat format, Context ctx, Supplier<JsonReport> prepared)
      throws IOException {
    switch (format) {
      case json -> {
        JsonReport json = prepared.get();
        (json != null ? json : new JsonReport()).write(report, ctx.out());
      }
      case yaml -> new YamlReport().write(report, ctx.out());
      case markdown -> new MarkdownReport().write(report, ctx.out());
      default -> new TextReport(ctx.width(), ctx.colour()).write(report, ctx.out());
    }
    ctx.out().flush();
  }

  static int exitCode(Report r, FailOn failOn) {
    int code = exitCode(r.verdict(), failOn);
    if (code == ExitCode.HEALTHY.code() && failOn == FailOn.warn && r.ladder() != null
        && r.ladder().stream().anyMatch(s -> s.status().equals("warn") || s.status().equals("fail"))) {
      return ExitCode.PROBLEM.code();
    }
    return code;
  }

  static int exitCode(Verdict v, FailOn failOn) {
    switch (v.status()) {
      case "problem":
        return ExitCode.PROBLEM.code();
      case "inconclusive":
        return ExitCode.INCONCLUSIVE.code();
      default:
        boolean warned = v.findings().stream().anyMatch(f -> f.severity().equals("warn"))
            || v.path().stream().anyMatch(a -> a.answer().equals("no"));
        return failOn == FailOn.warn && warned ? ExitCode.PROBLEM.code() : ExitCode.HEALTHY.code();
    }
  }
}
