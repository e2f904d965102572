package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.io.InputStream;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An input that needs more than the heap ends with one line that says so and how to give the JVM
 * more, and exit 2 (the environment's limit): it used to be the JVM's trace and exit 1, which a
 * preflight script reads as "problem found". A tool process with a 16 or 24 MiB heap reads a log
 * of 400000 hosts (the table tells 32768 apart by design: more than such a heap holds), on one
 * thread and on two. With two, the line used to lose to the parser thread still running (the JVM's
 * "thrown from the UncaughtExceptionHandler", or "Runtime.exit logging failed" on Java 25), or the
 * run slept for ever on a future whose thread had died (Java 25, 16 MiB, G1).
 */
class OutOfMemoryTest {
  @TempDir static Path dir;

  private static synchronized Path hostsLog() throws java.io.IOException {
    Path log = dir.resolve("hosts.log");
    if (!Files.exists(log)) {
      try (BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.US_ASCII)) {
        for (int i = 0; i < 400_000; i++) {
          w.write(String.format("host-%06d:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.%d.%d.%d<0>%n",
              i, i >> 16, (i >> 8) & 255, i & 255));
        }
      }
    }
    return log;
  }

  @ParameterizedTest(name = "{0} thread(s), -Xmx{1}m")
  @CsvSource({"1, 24", "2, 24", "1, 16", "2, 16"})
  void aLogLargerThanTheHeapIsOneLineAndExit2(String threads, int heapMiB) throws Exception {
    Path log = hostsLog();
    List<String> cmd = new ArrayList<>(ToolProcess.command(dir, "log", "--threads", threads, "-o", "json",
        log.toString()));
    cmd.add(1, "-Xmx" + heapMiB + "m");
    Process p = ToolProcess.builder(cmd, Map.of()).start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = ToolProcess.await(p);
    assertThat(code).as("stderr: %s", err).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.strip()).startsWith("nccl-triage: out of memory: ").contains("NCCL_TRIAGE_JAVA_OPTS=-Xmx")
        .doesNotContain("\n").doesNotContain("Exception");
  }

  /**
   * The heap can run out on a worker thread and reach the command wrapped (a probe's future, a
   * pool's): it is the same exhausted heap, not an internal error. An input stream stands in for
   * the place where the error meets the command.
   */
  @ParameterizedTest(name = "{0}, {1} thread(s)")
  @CsvSource({"direct, 1", "direct, 2", "wrapped, 1", "wrapped, 2"})
  void anExhaustedHeapWrappedOrNotIsOneLineAndExit2(String how, String threads) {
    OutOfMemoryError heap = new OutOfMemoryError("Java heap space");
    CliRun run = logFromStdinThatThrows(how.equals("wrapped") ? new CompletionException(heap) : heap, threads);
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.USAGE.code());
    assertThat(run.stderr().strip()).startsWith("nccl-triage: out of memory: ").doesNotContain("\n");
    assertThat(run.stdout()).isEmpty();
  }

  /** A refused thread is an OutOfMemoryError too, but it says nothing about the heap. */
  @ParameterizedTest
  @CsvSource({"1", "2"})
  void aRefusedThreadIsOneLineThatNamesTheLimit(String threads) {
    CliRun run = logFromStdinThatThrows(
        new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource limits reached"),
        threads);
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.USAGE.code());
    assertThat(run.stderr().strip()).startsWith("nccl-triage: out of threads: ").contains("ulimit -u")
        .doesNotContain("heap").doesNotContain("\n");
  }

  /** {@code log -o json -} in-process, on a stdin whose reads throw {@code thrown} (an Error or unchecked). */
  private static CliRun logFromStdinThatThrows(Throwable thrown, String threads) {
    InputStream in = new InputStream() {
      @Override
      public int read() {
        return read(new byte[1], 0, 1);
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (thrown instanceof Error e) {
          throw e;
        }
        throw (RuntimeException) thrown;
      }
    };
    return CliRun.run(in, CliRun.ENV, false, "log", "--threads", threads, "-o", "json", "-");
  }
}
