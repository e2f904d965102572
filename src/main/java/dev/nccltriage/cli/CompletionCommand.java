package dev.nccltriage.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code nccl-triage completion [bash|zsh]}: prints the shell completion script picocli generates
 * from the command model, e.g. {@code source <(nccl-triage completion bash)}. zsh loads the same
 * script through bashcompinit, which the script enables itself.
 */
final class CompletionCommand implements Callable<Integer>, Specs.Modelled {
  private final Context ctx;
  private CommandSpec spec;
  String shell = "bash";

  CompletionCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public CommandSpec model() {
    spec = Specs.command(this, "completion", "Prints a bash or zsh completion script: source <(nccl-triage completion bash).");
    spec.addPositional(Specs.positional(shell, v -> shell = v).arity("0..1").paramLabel("SHELL")
        .description("bash (default) or zsh.").build());
    return spec;
  }

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw new NcclTriage.UsageError("completion: unknown shell '" + shell + "' (bash or zsh)");
    }
    CommandLine root = spec.commandLine().getParent();
    ctx.out().print(AutoComplete.bash("nccl-triage", root));
    ctx.out().flush();
    return ExitCode.HEALTHY.code();
  }
}
