package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.Context;
import dev.nccltriage.cli.NcclTriage;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NodeFacts;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/** Shared helpers of the log-source tests: parse text, find the sample and corpus logs, run the CLI. */
final class Logs {
  static final int DEFAULT_MAX_LINE = 64 * 1024;
  static final Path SAMPLES = Path.of("samples", "logs");
  /** Real-world excerpts from public bug reports, with labels (samples/corpus/README.md). */
  static final Path CORPUS = Path.of("samples", "corpus");
  /** Whole logs of real runs, one per process (samples/recorded/README.md). */
  static final Path RECORDED = Path.of("samples", "recorded");

  private Logs() {}

  static LogFacts parse(String text) {
    return parse(text.getBytes(StandardCharsets.UTF_8));
  }

  static LogFacts parse(byte[] bytes) {
    try {
      return new NcclLogSource(new ByteArrayInputStream(bytes), 1).read(List.of("-"), Path.of("."));
    } catch (LogInputException e) {
      throw new AssertionError("stdin input rejected: " + e.getMessage(), e);
    }
  }

  static LogFacts parseFile(Path file, int threads, int maxLine, long parallelMinBytes) throws LogInputException {
    return new NcclLogSource(InputStream.nullInputStream(), threads, maxLine, parallelMinBytes)
        .read(List.of(file.getFileName().toString()), file.getParent() == null ? Path.of(".") : file.getParent());
  }

  /** Every sample log, one after another, each followed by a newline. */
  static byte[] allLogsConcatenated() throws java.io.IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    for (Path p : allLogs()) {
      b.write(java.nio.file.Files.readAllBytes(p));
      b.write('\n');
    }
    return b.toByteArray();
  }

  static List<String> hosts(LogFacts f) {
    return f.nodeDetails().stream().map(NodeFacts::host).filter(Objects::nonNull).toList();
  }

  static NodeFacts node(LogFacts f, String host) {
    return f.nodeDetails().stream().filter(n -> Objects.equals(n.host(), host)).findFirst()
        .orElseThrow(() -> new AssertionError("no node " + host + " in " + hosts(f)));
  }

  static List<Path> sampleLogs() {
    try (Stream<Path> s = Files.list(SAMPLES)) {
      List<Path> l = s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
      assertThat(l).as("sample logs in " + SAMPLES.toAbsolutePath()).hasSizeGreaterThan(20);
      return l;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> corpusLogs() {
    if (!Files.isDirectory(CORPUS)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(CORPUS)) {
      return s.map(d -> d.resolve("log.txt")).filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> recordedLogs() {
    if (!Files.isDirectory(RECORDED)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(RECORDED, 2)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".log") && Files.isRegularFile(p)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> allLogs() {
    List<Path> l = new ArrayList<>(sampleLogs());
    l.addAll(corpusLogs());
    l.addAll(recordedLogs());
    return l;
  }

  record CliResult(int code, String out, String err) {}

  static CliResult cli(Path cwd, byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Context ctx = new Context(new ByteArrayInputStream(stdin), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), cwd, false);
    int code = NcclTriage.mainWithoutExit(ctx, args);
    return new CliResult(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Exit code of a finished triage (healthy, problem, usage, inconclusive) and no stack trace. */
  static void assertCleanExit(CliResult r, String what) {
    assertThat(r.code()).as("exit code for %s; stderr: %s", what, r.err()).isBetween(0, 3);
    assertThat(r.err()).as("stderr for %s", what).doesNotContain("Exception").doesNotContain("at dev.");
    assertThat(r.out()).as("stdout for %s", what).doesNotContain("Exception").doesNotContain("\tat ");
  }
}
