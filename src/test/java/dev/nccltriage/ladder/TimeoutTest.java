package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code check} on the live host (root /) with a broken or absent {@code ibv_devinfo} first on
 * PATH: a hanging tool is cut off at {@code --timeout} (the acceptance criterion: the run
 * returns within 3 s with {@code --timeout 2}, hence a wall-time assertion here), garbage gives a
 * status, and an absent tool falls back to sysfs.
 */
class TimeoutTest {
  private static final String SYSTEM_PATH =
      Optional.ofNullable(System.getenv("PATH")).orElse("/usr/local/bin:/usr/bin:/bin");

  @TempDir Path tmp;

  /**
   * One run with no tools first, so the wall time measured below is the timeout's bound and not
   * this JVM loading the rules and report classes for the first time (4 s on a loaded 2-core CI).
   */
  @BeforeAll
  static void warmUp(@TempDir Path empty) {
    Captures.run(Map.of("COLUMNS", "100", "PATH", empty.toString()), "check", "-o", "json");
  }

  private Path fakeTool(String body) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("bin"));
    Path script = dir.resolve("ibv_devinfo");
    Files.writeString(script, "#!/bin/sh\n" + body, StandardCharsets.ISO_8859_1);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  private static CliRun check(Path binDir, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("check", "-o", "json"));
    args.addAll(List.of(extra));
    return Captures.run(
        Map.of("COLUMNS", "100", "PATH", binDir + ":" + SYSTEM_PATH), args.toArray(String[]::new));
  }

  /** Processes still running whose command line mentions {@code marker}. */
  private static List<ProcessHandle> leftovers(String marker) {
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(
            p ->
                p.info().commandLine().map(c -> c.contains(marker)).orElse(false)
                    || p.info().arguments().map(a -> String.join(" ", a).contains(marker)).orElse(false))
        .toList();
  }

  private static void assertNoLeftovers(String marker) throws InterruptedException {
    // SIGKILL is asynchronous: give the kernel a moment to remove the processes
    long deadline = System.nanoTime() + 2_000_000_000L;
    List<ProcessHandle> left = leftovers(marker);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      left = leftovers(marker);
    }
    left.forEach(ProcessHandle::destroyForcibly); // do not leak them into the rest of the build
    assertThat(left)
        .as("processes left running after the timeout (matching '%s')", marker)
        .extracting(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
        .isEmpty();
  }

  /**
   * {@code exec sleep} replaces the shell (the watchdog kills the sleep itself); a plain {@code
   * sleep} followed by another command leaves the shell waiting on a child (the watchdog must kill
   * the tree). The odd durations identify our sleeps among the host's processes.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"exec sleep 30.4242", "sleep 31.4242; echo never"})
  void aHangingIbvDevinfoIsCutOffAtTheTimeout(String body) throws Exception {
    Path script = fakeTool(body + "\n");
    String marker = body.substring(body.indexOf("sleep "), body.indexOf("4242") + 4);

    long start = System.nanoTime();
    CliRun run = check(script.getParent(), "--timeout", "2");
    double seconds = (System.nanoTime() - start) / 1e9;

    assertThat(seconds).as("wall time of check --timeout 2 (%s)", body).isLessThan(3.5);
    assertThat(run.exitCode()).as(run.toString()).isIn(0, 1, 3);
    assertThat(run.stderr()).as("stderr").doesNotContain("internal error");
    JsonNode doc = run.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    JsonNode step2 = Captures.step(doc, 2);
    assertThat(step2.get("status").asText()).as("step 2: %s", step2).isEqualTo("error");
    String said = (step2.get("observed").asText() + " " + step2.get("evidence")).toLowerCase();
    String hcasStatus = doc.at("/pod/hcas/status").asText();
    assertThat(said.contains("timed out") || said.contains("timeout") || hcasStatus.equals("timeout"))
        .as("step 2 or pod.hcas.status says it timed out: %s / pod.hcas.status %s", step2, hcasStatus)
        .isTrue();
    assertThat(hcasStatus).as("pod.hcas.status").isEqualTo("timeout");
    // every other step still has its status
    assertThat(doc.get("ladder")).hasSize(7);
    doc.get("ladder")
        .forEach(
            s ->
                assertThat(s.get("status").asText())
                    .as("step %s", s.get("step"))
                    .isIn("pass", "warn", "fail", "error", "skip"));
    assertThat(Captures.step(doc, 1).get("status").asText()).isNotEqualTo("error");
    assertThat(Captures.step(doc, 5).get("status").asText()).isNotEqualTo("error");
    assertThat(doc.at("/verdict/status").asText()).isIn("healthy", "problem", "inconclusive");

    assertNoLeftovers(marker);
    assertNoLeftovers(script.toString());
  }

  @Test
  void garbageFromIbvDevinfoGivesAStatusNotACrash() throws Exception {
    Path script =
        fakeTool(
            "printf 'hca_id:\\t\\377\\376mlx5_\\n\\ttransport:\\t\\tInfiniBand (\\n"
                + "\\t\\t\\tport:\\t\\n\\t\\t\\t\\tstate:\\t\\tPORT_ACTIVE (\\n"
                + "\\t\\t\\t\\tlink_layer:\\t\\t\\n\\033[31mport: -1\\r\\n\\000\\001garbage\\n'\n"
                + "seq 1 2000 | tr '\\n' ':'\nexit 0\n");
    CliRun run = check(script.getParent());
    assertThat(run.exitCode()).as(run.toString()).isIn(0, 1, 3);
    assertThat(run.stderr()).as("stderr").doesNotContain("internal error", "Exception");
    JsonNode doc = run.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    assertThat(Captures.step(doc, 2).get("status").asText())
        .isIn("pass", "warn", "fail", "error", "skip");
    assertThat(doc.get("ladder")).hasSize(7);
  }

  @Test
  void anAbsentIbvDevinfoFallsBackToSysfs() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty-bin"));
    // only the empty folder on PATH: no ibv_devinfo, rdma, ip or nvidia-smi at all
    CliRun run = Captures.run(Map.of("COLUMNS", "100", "PATH", empty.toString()), "check", "-o", "json");
    assertThat(run.exitCode()).as(run.toString()).isIn(0, 1, 3);
    assertThat(run.stderr()).as("stderr").isEmpty();
    JsonNode doc = run.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    assertThat(doc.at("/pod/hcas/source").asText()).as("pod.hcas.source").isEqualTo("sysfs");
    assertThat(doc.at("/pod/hcas/status").asText()).as("pod.hcas.status (probe.hcas)").isEqualTo("sysfs");
    assertThat(Captures.step(doc, 2).get("observed").asText()).contains("read with sysfs; libibverbs.so.1: ");
    // without ip the interfaces come from Java's own list
    assertThat(doc.at("/pod/interfaces/status").asText()).isEqualTo("java");
    assertThat(doc.at("/pod/interfaces/source").asText()).startsWith("java");
  }
}
