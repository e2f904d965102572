package dev.nccltriage.source.log;

import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

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

  /** What one parser keeps of a log's text read whole in one pass: the accumulator before facts. */
  static LogAccumulator accumulate(String log) throws IOException {
    LogAccumulator acc = new LogAccumulator();
    byte[] b = log.getBytes(StandardCharsets.UTF_8);
    new LineReader(LineReader.DEFAULT_MAX_LINE).read(new ByteArrayInputStream(b), b.length, new LogParser(acc, "t"));
    return acc;
  }

  /**
   * Every distinct message of the sample and corpus logs: the text after "NCCL INFO " or "NCCL
   * WARN ", else the whole line, stripped.
   */
  static Set<String> realMessages() {
    Set<String> out = new LinkedHashSet<>();
    try (Stream<Path> s = Stream.concat(Files.walk(Path.of("samples", "logs")), Files.walk(Path.of("samples", "corpus")))) {
      for (Path p : s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".log")
          || p.getFileName().toString().startsWith("log")).toList()) {
        for (String line : new String(Files.readAllBytes(p), StandardCharsets.UTF_8).split("\n")) {
          int at = Math.max(line.indexOf("NCCL INFO "), line.indexOf("NCCL WARN "));
          out.add(at >= 0 ? line.substring(at + 10).strip() : line.strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
