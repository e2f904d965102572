package dev.nccltriage.cli;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/** Options every verdict-giving command takes: extra rules, the failure threshold, --debug. */
final class CommonOptions {
  Path rulesDir;
  FailOn failOn = FailOn.problem;
  boolean debug;

  /** Adds these options to a command's model. */
  CommandSpec addTo(CommandSpec spec) {
    spec.addOption(Specs.rules(rulesDir, v -> rulesDir = v));
    spec.addOption(Specs.option(FailOn.class, failOn, v -> failOn = v, "--fail-on").paramLabel("LEVEL")
        .description("Exit 1 from this severity on: problem (default) or warn.").build());
    spec.addOption(Specs.debug(v -> debug = v));
    return spec;
  }

  Path rulesDir(Context ctx) {
    return rulesDir == null ? null : ctx.cwd().resolve(rulesDir);
  }
}
