package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code log --parallel-min-bytes} (hidden): the launchers' class-list run reads small samples in
 * parts so that the start-up archive holds the parallel path's classes. Read in parts, a log gives
 * the report it gives read whole, and the launchers' training samples and capture exist.
 */
class ParallelMinBytesTest {
  static Stream<String> sampleLogs() throws IOException {
    try (Stream<Path> s = Files.list(CliRun.REPO.resolve("samples/logs"))) {
      return s.map(p -> "samples/logs/" + p.getFileName()).filter(n -> n.endsWith(".log")).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sampleLogs")
  void aSampleReadInSmallPartsGivesTheReportItGivesReadWhole(String log) {
    CliRun whole = CliRun.run("log", "-o", "json", "--threads", "1", log);
    CliRun parts = CliRun.run("log", "-o", "json", "--threads", "2", "--parallel-min-bytes", "1024", log);
    assertThat(parts.stderr()).isEmpty();
    assertThat(parts.exitCode()).isEqualTo(whole.exitCode());
    assertThat(parts.stdout()).isEqualTo(whole.stdout());
  }

  @Test
  void theLaunchersTrainingRunReadsItsSamplesInParts() throws IOException {
    String launcher = Files.readString(CliRun.REPO.resolve("dist/bin/nccl-triage"));
    List<String> samples = List.of("samples/logs/01-healthy-ib-gdr-2.21.5.log",
        "samples/logs/11-one-node-fell-back-mixed-2.21.5.log");
    for (String s : samples) {
      assertThat(CliRun.REPO.resolve(s)).exists();
      assertThat(launcher).contains("$root/" + s);
    }
    String capture = "samples/captures/healthy-8hca-gdr-net1";
    assertThat(CliRun.REPO.resolve(capture)).isDirectory();
    assertThat(launcher).contains("$root/" + capture);
    assertThat(Files.readString(CliRun.REPO.resolve("dist/bundle/build-bundle.sh"))).contains("$REPO/" + capture);
    CliRun whole = CliRun.run("log", "-o", "json", "--threads", "1", samples.get(0), samples.get(1));
    CliRun parts = CliRun.run("log", "-o", "json", "--threads", "2", "--parallel-min-bytes", "1024",
        samples.get(0), samples.get(1));
    assertThat(parts.exitCode()).as("the launcher accepts exit 0 or 1 from it").isEqualTo(1);
    assertThat(parts.stdout()).isEqualTo(whole.stdout());
  }

  @Test
  void lessThanOneByteIsAUsageError() {
    CliRun r = CliRun.run("log", "--parallel-min-bytes", "0", "samples/logs/01-healthy-ib-gdr-2.21.5.log");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr().strip()).contains("--parallel-min-bytes must be at least 1").doesNotContain("\n");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"0", "-1", "257", "2147483647"})
  void threadsOutsideOneTo256AreAUsageError(String n) {
    CliRun r = CliRun.run("log", "--threads", n, "samples/logs/01-healthy-ib-gdr-2.21.5.log");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr().strip()).isEqualTo("nccl-triage: --threads must be between 1 and 256 (got " + n + ")");
  }
}
