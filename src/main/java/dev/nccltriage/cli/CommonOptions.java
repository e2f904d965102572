package dev.nccltriage.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every verdict-giving command takes: extra rules, the failure threshold, --debug. */
final class CommonOptions {
  @Option(names = "--rules", paramLabel = "DIR", description = "Also load every *.yaml rule file in DIR.")
  Path rulesDir;

  @Option(names = "--fail-on", paramLabel = "LEVEL", description = "Exit 1 from this severity on: problem (default) or warn.")
  FailOn failOn = FailOn.problem;

  @Option(names = "--debug", description = "Print stack traces of internal errors.")
  boolean debug;

  Path rulesDir(Context ctx) {
    return rulesDir == null ? null : ctx.cwd().resolve(rulesDir);
  }
}
