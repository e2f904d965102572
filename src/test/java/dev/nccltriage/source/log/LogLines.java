package dev.nccltriage.source.log;

import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** The facts of a log given as its lines, read as standard input with one thread. */
final class LogLines {
  private LogLines() {}

  static LogFacts parse(String... lines) {
    return parse(List.of(lines));
  }

  static LogFacts parse(List<String> lines) {
    byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      return new NcclLogSource(new ByteArrayInputStream(bytes), 1).read(List.of("-"), Path.of("."));
    } catch (LogInputException e) {
      throw new AssertionError(e);
    }
  }
}
