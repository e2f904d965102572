package dev.nccltriage.cli;

import java.util.List;

/**
 * One line on stderr when a command is about to read stdin and stdin is a terminal: without it the
 * command seems to hang (someone typed {@code nccl-triage log} and waits for a report).
 */
final class StdinNotice {
  private StdinNotice() {}

  static void ifTerminal(Context ctx, List<String> inputs, String what, String example) {
    if (ctx.tty().stdin() && inputs.contains("-")) {
      ctx.err().println("nccl-triage: reading " + what + " from stdin (paste it, then Ctrl-D); to read a file: "
          + example);
    }
  }
}
