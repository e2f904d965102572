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
    spec.addOption(Specs.option(Path.class, rulesDir, v -> rulesDir = v, "--rules").paramLabel("DIR")
        .description("Also load every *.yaml rule file in DIR.").build());
    spec.addOption(Specs.option(FailOn.class, failOn, v -> failOn = v, "--fail-on").paramLabel("LEVEL")
        .description("Exit 1 from this severity on: problem (default) or warn.").build());
    spec.addOption(Specs.flag(v -> debug = v, "--debug").description("Print stack traces of internal errors.").build());
    return spec;
  }

  Path rulesDir(Context ctx) {
    return rulesDir == null ? null : ctx.cwd().resolve(rulesDir);
  }
}
