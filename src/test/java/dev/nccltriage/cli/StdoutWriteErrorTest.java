package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 11 item 11: a report that cannot be written is not a success. Every command that writes
 * to stdout, with stdout on {@code /dev/full} (a full disk): exit 4 and "write error: No space
 * left on device" on stderr, as coreutils say it. A closed descriptor ({@code >&-}) is exit 2 with
 * the message; a reader that went away ({@code | head}, EPIPE) is quiet, exit 141 as if killed by
 * SIGPIPE.
 */
class StdoutWriteErrorTest {
  private static final String LOG = "samples/logs/02-socket-no-device-k8s-2.19.3.log";
  private static final String CAPTURE = "samples/captures/partial-2of8-hcas";

  @TempDir Path tmp;

  private Process start(List<String> prefix, ProcessBuilder.Redirect stdout, String argLine) throws Exception {
    List<String> cmd = new ArrayList<>(prefix);
    cmd.addAll(ToolProcess.command(tmp, argLine.split(" ")));
    return ToolProcess.builder(cmd, Map.of("PATH", ToolProcess.SYSTEM_PATH))
        .redirectOutput(stdout)
        .redirectError(tmp.resolve("stderr.txt").toFile())
        .start();
  }

  private String stderr() throws Exception {
    return Files.readString(tmp.resolve("stderr.txt"), StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
    "log " + LOG,
    "log -o json " + LOG,
    "log -o markdown " + LOG,
    "bw samples/nccl-tests/01-healthy-8x400g-2.17.6.out",
    "lint samples/k8s/bad/job-rdma-misconfigured.yaml",
    "check --root " + CAPTURE + " -o json",
    "preflight --root " + CAPTURE,
    "rules",
    "completion bash",
    "--help",
    "--version",
  })
  void aFullDiskIsAWriteError(String args) throws Exception {
    Process p = start(List.of(), ProcessBuilder.Redirect.to(new File("/dev/full")), args);
    int code = ToolProcess.await(p);
    String err = stderr();
    assertThat(code).as("exit status; stderr: %s", err).isEqualTo(4);
    assertThat(err).contains("nccl-triage: write error: No space left on device").doesNotContain("Exception");
  }

  @Test
  void aClosedStdoutIsExit2WithTheMessage() throws Exception {
    Process p = start(List.of("sh", "-c", "exec \"$@\" >&-", "sh"), ProcessBuilder.Redirect.DISCARD, "log " + LOG);
    int code = ToolProcess.await(p);
    String err = stderr();
    assertThat(code).as("exit status; stderr: %s", err).isEqualTo(2);
    assertThat(err).isEqualTo("nccl-triage: write error: Bad file descriptor\n");
  }

  /** The reader closes the pipe before the tool writes (its JVM is still starting): EPIPE for sure. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"log " + LOG, "rules", "completion bash"})
  void aReaderThatWentAwayIsQuiet(String args) throws Exception {
    Process p = start(List.of(), ProcessBuilder.Redirect.PIPE, args);
    p.getInputStream().close();
    int code = ToolProcess.await(p);
    assertThat(stderr()).as("stderr").isEmpty();
    assertThat(code).isEqualTo(141);
  }

  /** {@code | head -1}: one line read, then the pipe closed; whatever was still to come is quiet. */
  @Test
  void headOneIsQuiet() throws Exception {
    Process p = start(List.of(), ProcessBuilder.Redirect.PIPE, "completion bash");
    try (InputStream in = p.getInputStream()) {
      while (in.read() != '\n') {
        // the first line
      }
    }
    int code = ToolProcess.await(p);
    assertThat(stderr()).as("stderr").isEmpty();
    assertThat(code).isIn(0, 141);
  }
}
