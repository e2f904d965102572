package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 11 item 8: the real tool, in its own JVM with a private temporary folder, is stopped by
 * a signal while its (fake, slow) probes run. Whatever the signal a Pod or a terminal sends, no
 * probe is left running, no temporary capture folder (unredacted files) or half-written capture
 * is left, nothing claims "capture written", and the exit status is the signal's (128+N).
 */
class SignalCleanupTest {
  private static final String SLEEP = "sleep 986.123456";

  @TempDir Path tmp;

  private Path fakes() throws IOException {
    Path bin = tmp.resolve("bin");
    for (String tool : List.of("ibv_devinfo", "rdma", "ip", "nvidia-smi")) {
      ToolProcess.script(bin, tool, SLEEP + "\necho never\n");
    }
    return bin;
  }

  @ParameterizedTest(name = "{0} during {1} {2}")
  @CsvSource({
    "TERM, capture, out.tar.gz, 143",
    "TERM, capture, out-dir, 143",
    "INT, capture, out.tar.gz, 130",
    "HUP, capture, out.tar.gz, 129",
    "TERM, check, , 143",
    "HUP, check, , 129",
    "TERM, preflight, , 143",
  })
  void aSignalLeavesNoProbeNoTemporaryFolderAndNoCapture(String signal, String command, String output, int status)
      throws Exception {
    Path bin = fakes();
    Path tmpdir = Files.createDirectories(tmp.resolve("java-tmp"));
    Path out = output == null ? null : tmp.resolve(output);
    List<String> cmd = output == null
        ? ToolProcess.command(tmpdir, command, "--timeout", "60")
        : ToolProcess.command(tmpdir, command, "--timeout", "60", "-o", out.toString());
    Path stderr = tmp.resolve("stderr.txt");
    Process p = ToolProcess.builder(cmd, Map.of("PATH", bin + ":" + ToolProcess.SYSTEM_PATH))
        .redirectOutput(tmp.resolve("stdout.txt").toFile())
        .redirectError(stderr.toFile())
        .start();
    try {
      awaitProbes(bin, p);
      Process kill = new ProcessBuilder("sh", "-c", "kill -" + signal + " " + p.pid()).inheritIO().start();
      assertThat(kill.waitFor()).as("kill -%s", signal).isZero();

      int code = ToolProcess.await(p);

      String err = Files.readString(stderr, StandardCharsets.UTF_8);
      assertThat(ToolProcess.leftovers(bin.toString())).as("probes left running").isEmpty();
      assertThat(ToolProcess.leftovers(SLEEP)).as("the probes' sleeps left running").isEmpty();
      assertThat(list(tmpdir)).as("left in java.io.tmpdir").isEmpty();
      if (out != null) {
        assertThat(out).as("the half-written capture").doesNotExist();
      }
      assertThat(err).as("stderr").doesNotContain("capture written", "internal error", "Exception");
      assertThat(code).as("exit status; stderr: %s", err).isEqualTo(status);
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      ToolProcess.leftovers(SLEEP);
    }
  }

  /** Until every fake is running: the signal must land while the tool waits for them. */
  private static void awaitProbes(Path bin, Process p) throws InterruptedException {
    long end = System.nanoTime() + 30_000_000_000L;
    while (ToolProcess.processesMatching(SLEEP).size() < 4) {
      assertThat(p.isAlive()).as("the tool is still running").isTrue();
      assertThat(System.nanoTime() < end).as("the fake probes started within 30 s").isTrue();
      Thread.sleep(50);
    }
    Thread.sleep(200); // and the capture folder has its first files
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }
}
