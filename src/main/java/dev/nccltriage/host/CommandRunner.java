package dev.nccltriage.host;

import java.util.List;

/** The one way the tool runs external commands: a fixed argv, never a shell. */
public interface CommandRunner {
  CommandResult run(List<String> argv);

  /** The directory name a command's recorded output lives under in a capture. */
  static String key(List<String> argv) {
    return String.join("_", argv).replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
