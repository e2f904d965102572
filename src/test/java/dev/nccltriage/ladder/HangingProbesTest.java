package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import dev.nccltriage.cli.ToolProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 11 item 7: every external tool the ladder runs ({@code ibv_devinfo}, {@code rdma}, {@code
 * ip}, {@code nvidia-smi}) is a fake that ignores SIGTERM and sleeps; {@code ip} also leaves a
 * double-forked grandchild (re-parented, out of the probe's descendants) holding its stdout open.
 * {@code check --timeout 2} (and {@code preflight}) must end within 4 s with a verdict, and leave
 * no process behind: the test lists the processes whose command line names the fakes' folder or
 * their sleep.
 */
class HangingProbesTest {
  private static final String SLEEP = "sleep 987.654321";

  @TempDir Path tmp;

  /**
   * One run with no tools at all first, so the wall time measured below is the probes' bound and
   * not this JVM loading the rules and report classes for the first time.
   */
  @BeforeAll
  static void warmUp(@TempDir Path empty) {
    Captures.run(Map.of("COLUMNS", "100", "PATH", empty.toString()), "check", "-o", "json");
  }

  private Path fakes(String rdmaAndIpPrefix) throws IOException {
    Path bin = tmp.resolve("bin");
    String hang = "trap '' TERM\n" + SLEEP + "\necho never\n";
    ToolProcess.script(bin, "ibv_devinfo", hang);
    ToolProcess.script(bin, "nvidia-smi", hang);
    ToolProcess.script(bin, "ldconfig", hang);
    ToolProcess.script(bin, "rdma", rdmaAndIpPrefix + hang);
    ToolProcess.script(bin, "ip", rdmaAndIpPrefix
        + "( ( trap '' TERM; while :; do sleep 1; done ) & )\n" + hang);
    return bin;
  }

  private static CliRun run(Path bin, String... args) {
    return Captures.run(Map.of("COLUMNS", "100", "PATH", bin + ":" + ToolProcess.SYSTEM_PATH), args);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"check", "preflight"})
  void probesThatIgnoreSigtermEndWithinFourSecondsAndLeaveNothing(String command) throws Exception {
    Path bin = fakes("");

    long start = System.nanoTime();
    CliRun run = command.equals("check")
        ? run(bin, "check", "--timeout", "2", "-o", "json")
        : run(bin, "preflight", "--timeout", "2");
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("HangingProbesTest: %s took %.2f s%n", String.join(" ", command), seconds);

    assertThat(ToolProcess.leftovers(tmp.toString())).as("processes of the fakes left running").isEmpty();
    assertThat(ToolProcess.leftovers(SLEEP)).as("the fakes' sleeps left running").isEmpty();
    assertThat(seconds).as("wall time of %s --timeout 2", command).isLessThan(4.0);
    assertThat(run.exitCode()).as(run.toString()).isIn(0, 1, 3);
    JsonNode doc = run.json();
    assertThat(doc.at("/verdict/status").asText()).isIn("healthy", "problem", "inconclusive");
    assertThat(doc.at("/pod/hcas/status").asText()).as("pod.hcas.status").isEqualTo("timeout");
    assertThat(doc.at("/pod/gpudirect/topoStatus").asText()).as("nvidia-smi").isEqualTo("timeout");
  }

  /**
   * The JSON forms fail at once and the plain-text fallbacks hang. One after another each would
   * take its own --timeout (2 + 3 x 2 s); they start as soon as their JSON form failed, beside the
   * other probes, so the ladder takes one timeout, as when every probe hangs (and all commands
   * together are bounded by twice it whatever happens).
   */
  @Test
  void hangingFallbacksShareOneBoundForTheWholeLadder() throws Exception {
    Path bin = fakes("case \"$1\" in -j) echo 'Option \"-j\" is unknown' >&2; exit 255;; esac\n");

    long start = System.nanoTime();
    CliRun run = run(bin, "check", "--timeout", "2", "-o", "json");
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("HangingProbesTest: hanging fallbacks took %.2f s%n", seconds);

    assertThat(ToolProcess.leftovers(tmp.toString())).as("processes of the fakes left running").isEmpty();
    assertThat(seconds).as("wall time: --timeout plus the kill's grace").isLessThan(4.0);
    assertThat(run.exitCode()).as(run.toString()).isIn(0, 1, 3);
    assertThat(run.json().at("/verdict/status").asText()).isIn("healthy", "problem", "inconclusive");
  }
}
