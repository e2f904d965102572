package dev.nccltriage.cli;

import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.MarkdownReport;
import dev.nccltriage.report.Report;
import dev.nccltriage.report.TextReport;
import dev.nccltriage.rules.Verdict;
import java.io.IOException;

/** Renders a report in the chosen form and maps its verdict to the exit code. */
final class Reports {
  private Reports() {}

  static void render(Report report, OutputFormat format, Context ctx) throws IOException {
    switch (format) {
      case json -> new JsonReport().write(report, ctx.out());
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
