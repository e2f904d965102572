package dev.nccltriage.host;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Answers commands from a capture instead of running anything: {@code
 * .nccl-triage/commands/<key>/} holds {@code stdout}, {@code stderr} and {@code exit} (a number,
 * {@code timeout} or {@code missing}), and {@code millis} / {@code limit-millis} (how long it ran
 * and was allowed; absent in older captures, read as 0: not known). A command with no folder was
 * not available. The recorded
 * output is read as a live command's is: at most 1 MiB of each stream, marked truncated beyond,
 * and only from regular files inside the capture.
 */
public final class ReplayRunner implements CommandRunner {
  static final int MAX_OUTPUT = 1 << 20;
  private static final int MAX_EXIT = 64;
  static final String MILLIS = "millis";
  static final String LIMIT_MILLIS = "limit-millis";
  private final RootFiles files;

  public ReplayRunner(Path captureRoot) {
    this.files = new RootFiles(captureRoot);
  }

  @Override
  public CommandResult run(List<String> argv) {
    String dir = "/" + CaptureLayout.COMMANDS + "/" + CommandRunner.key(argv) + "/";
    if (!files.isDirectory(dir)) {
      return CommandResult.missing(argv);
    }
    RootFiles.Bytes out = files.read(dir + "stdout", MAX_OUTPUT);
    RootFiles.Bytes err = files.read(dir + "stderr", MAX_OUTPUT);
    RootFiles.Bytes ex = files.read(dir + "exit", MAX_EXIT);
    for (RootFiles.Bytes b : List.of(out, err, ex)) {
      if (!b.ok() && !b.status().equals("missing")) {
        return new CommandResult(argv, "error", -1, "", "recorded output unreadable: " + b.detail(), 0, 0, false);
      }
    }
    String stdout = text(out);
    String stderr = text(err);
    boolean truncated = out.truncated() || err.truncated();
    String exit = ex.truncated() ? "?" : text(ex).strip();
    long millis = number(files.read(dir + MILLIS, MAX_EXIT));
    long limit = number(files.read(dir + LIMIT_MILLIS, MAX_EXIT));
    return switch (exit) {
      case "timeout" -> new CommandResult(argv, "timeout", -1, stdout, stderr, millis, limit, truncated);
      case "missing" -> CommandResult.missing(argv);
      case "error" -> new CommandResult(argv, "error", -1, stdout, stderr, millis, limit, truncated);
      default -> {
        int code;
        try {
          code = exit.isEmpty() ? 0 : Integer.parseInt(exit);
        } catch (NumberFormatException e) {
          code = -1;
        }
        yield new CommandResult(argv, code == 0 ? "ok" : "failed", code, stdout, stderr, millis, limit, truncated);
      }
    };
  }

  /** A recorded duration; 0 (not known) when absent, unreadable or not a plain number. */
  private static long number(RootFiles.Bytes b) {
    String s = b.truncated() ? "" : text(b).strip();
    return s.matches("\\d{1,15}") ? Long.parseLong(s) : 0;
  }

  private static String text(RootFiles.Bytes b) {
    return b.ok() ? new String(b.bytes(), StandardCharsets.UTF_8) : "";
  }
}
