package dev.nccltriage.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Answers commands from a capture instead of running anything: {@code
 * .nccl-triage/commands/<key>/} holds {@code stdout}, {@code stderr} and {@code exit} (a number,
 * {@code timeout} or {@code missing}). A command with no folder was not available.
 */
public final class ReplayRunner implements CommandRunner {
  private final Path commands;

  public ReplayRunner(Path captureRoot) {
    this.commands = captureRoot.resolve(CaptureLayout.COMMANDS);
  }

  @Override
  public CommandResult run(List<String> argv) {
    Path dir = commands.resolve(CommandRunner.key(argv));
    if (!Files.isDirectory(dir)) {
      return CommandResult.missing(argv);
    }
    String stdout = read(dir.resolve("stdout"));
    String stderr = read(dir.resolve("stderr"));
    String exit = read(dir.resolve("exit")).strip();
    return switch (exit) {
      case "timeout" -> new CommandResult(argv, "timeout", -1, stdout, stderr, 0, false);
      case "missing" -> CommandResult.missing(argv);
      case "error" -> new CommandResult(argv, "error", -1, stdout, stderr, 0, false);
      default -> {
        int code;
        try {
          code = exit.isEmpty() ? 0 : Integer.parseInt(exit);
        } catch (NumberFormatException e) {
          code = -1;
        }
        yield new CommandResult(argv, code == 0 ? "ok" : "failed", code, stdout, stderr, 0, false);
      }
    };
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "";
    }
  }
}
