package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inputs a broken or hostile environment hands over: a device that never ends is one line and
 * exit 2 at once (it was read for ever), and a procfs or sysfs file is read like any file (it was
 * "cannot read: Invalid argument": such files refuse the seek behind available()).
 */
class DeviceAndProcfsInputTest {
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"log, /dev/zero", "log, /dev/urandom", "bw, /dev/zero"})
  void aDeviceWithoutEndIsOneLineAndExit2(String command, String device) {
    assumeTrue(Files.exists(Path.of(device)));
    CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> CliRun.run(command, "-o", "json", device));
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.USAGE.code());
    assertThat(run.stderr().strip()).startsWith("nccl-triage: " + device + ": is a device, not ")
        .endsWith("(its reads never end)").doesNotContain("\n");
  }

  @Test
  void devNullIsAnEmptyLog() {
    assumeTrue(Files.exists(Path.of("/dev/null")));
    CliRun run = CliRun.run("log", "-o", "json", "/dev/null");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.INCONCLUSIVE.code());
  }

  @ParameterizedTest
  @CsvSource({"/proc/self/status", "/proc/cpuinfo"})
  void aProcfsFileIsReadLikeAnyFile(String file) {
    assumeTrue(Files.exists(Path.of(file)));
    CliRun run = CliRun.run("log", "-o", "json", file);
    assertThat(run.stderr()).doesNotContain("cannot read");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.INCONCLUSIVE.code());
    assertThat(run.json().path("inputs").path(0).path("lines").asLong()).as(run.stdout()).isPositive();
  }

  /** The same as standard input, in a process of its own: `log - < /dev/zero`, `log - < /proc/cpuinfo`. */
  @ParameterizedTest(name = "{0} < {1}")
  @CsvSource({"log, /dev/zero, 2", "bw, /dev/urandom, 2", "log, /proc/cpuinfo, 3"})
  void standardInputTheSame(String command, String file, int exit, @org.junit.jupiter.api.io.TempDir Path tmp)
      throws Exception {
    assumeTrue(Files.exists(Path.of(file)));
    ProcessBuilder pb = ToolProcess.builder(ToolProcess.command(tmp, command, "-o", "json", "-"), java.util.Map.of());
    pb.redirectInput(new java.io.File(file));
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Path errFile = tmp.resolve("stderr");
    pb.redirectError(errFile.toFile());
    int code = ToolProcess.await(pb.start()); // fails after a minute if it reads on for ever
    String err = Files.readString(errFile);
    assertThat(code).as(err).isEqualTo(exit);
    if (exit == 2) {
      assertThat(err.strip()).startsWith("nccl-triage: -: is a device, not ").doesNotContain("\n");
    } else {
      assertThat(err).doesNotContain("cannot read");
    }
  }
}
