package dev.nccltriage.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Runs commands through another runner and writes what they gave into a capture. */
public final class RecordingRunner implements CommandRunner {
  private final CommandRunner delegate;
  private final Path commands;

  public RecordingRunner(CommandRunner delegate, Path captureRoot) {
    this.delegate = delegate;
    this.commands = captureRoot.resolve(CaptureLayout.COMMANDS);
  }

  @Override
  public CommandResult run(List<String> argv) {
    CommandResult r = delegate.run(argv);
    Path dir = commands.resolve(CommandRunner.key(argv));
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("argv"), String.join("\n", argv) + "\n", StandardCharsets.UTF_8);
      Files.writeString(dir.resolve("stdout"), r.stdout(), StandardCharsets.UTF_8);
      Files.writeString(dir.resolve("stderr"), r.stderr(), StandardCharsets.UTF_8);
      String exit = switch (r.status()) {
        case "timeout", "missing", "error" -> r.status();
        default -> String.valueOf(r.exitCode());
      };
      Files.writeString(dir.resolve("exit"), exit + "\n", StandardCharsets.UTF_8);
      // a replayed timeout says how long the command ran and was allowed, as the live one did
      Files.writeString(dir.resolve(ReplayRunner.MILLIS), r.millis() + "\n", StandardCharsets.UTF_8);
      Files.writeString(dir.resolve(ReplayRunner.LIMIT_MILLIS), r.limitMillis() + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return r;
  }
}
