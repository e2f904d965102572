package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An input that needs more than the heap ends with one line that says so and how to give the JVM
 * more, and exit 2 (the environment's limit): it used to be the JVM's trace and exit 1, which a
 * preflight script reads as "problem found". A tool process with a 24 MiB heap reads a log of
 * 400000 hosts (the table tells 32768 apart by design: more than such a heap holds), on one thread
 * and on two.
 */
class OutOfMemoryTest {
  @TempDir static Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"1", "2"})
  void aLogLargerThanTheHeapIsOneLineAndExit2(String threads) throws Exception {
    Path log = dir.resolve("hosts-" + threads + ".log");
    try (BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.US_ASCII)) {
      for (int i = 0; i < 400_000; i++) {
        w.write(String.format("host-%06d:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.%d.%d.%d<0>%n",
            i, i >> 16, (i >> 8) & 255, i & 255));
      }
    }
    List<String> cmd = new ArrayList<>(ToolProcess.command(dir, "log", "--threads", threads, "-o", "json",
        log.toString()));
    cmd.add(1, "-Xmx24m");
    Process p = ToolProcess.builder(cmd, Map.of()).start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = ToolProcess.await(p);
    assertThat(code).as("stderr: %s", err).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.strip()).startsWith("nccl-triage: out of memory: ").contains("NCCL_TRIAGE_JAVA_OPTS=-Xmx")
        .doesNotContain("\n").doesNotContain("Exception");
  }
}
