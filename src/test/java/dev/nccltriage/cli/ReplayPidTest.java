package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.host.CaptureMeta;
import dev.nccltriage.host.ReplayRunner;
import dev.nccltriage.ladder.Captures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A replay takes the capture's own view: a capture made with {@code --pid N} holds {@code
 * /proc/N/...}, and {@code check --root} on it must read those files without being told {@code
 * --pid} again. Each sample capture is captured again (through the capture code, from a copy whose
 * {@code proc/self} is renamed {@code proc/4242}) with and without {@code --pid}, and every replay
 * must reach the sample's own verdict: status, layer, every step's status, every question's answer
 * and the ranked candidates' rules. A sample that was itself made with {@code --pid N} is captured
 * again with {@code --pid N}, and without it from a copy whose {@code proc/N} is {@code proc/self}.
 */
class ReplayPidTest {
  private static final long PID = 4242;
  private static final Path SAMPLES = CliRun.REPO.resolve("samples/captures");

  @TempDir Path tmp;

  static List<String> captures() throws IOException {
    try (Stream<Path> s = Files.list(SAMPLES)) {
      return s.filter(p -> Files.isDirectory(p.resolve(".nccl-triage")))
          .map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** The sample as the host a capture --pid 4242 would have seen: its proc/self is process 4242. */
  private Path asPid(String sample) throws IOException {
    Path src = tmp.resolve("host-" + sample);
    Captures.copyTree(SAMPLES.resolve(sample), src);
    Files.move(src.resolve("proc/self"), src.resolve("proc/" + PID));
    return src;
  }

  /** A sample made with --pid N as the host a capture without --pid would have seen: proc/N is proc/self. */
  private Path asSelf(String sample, long pid) throws IOException {
    Path src = tmp.resolve("self-" + sample);
    Captures.copyTree(SAMPLES.resolve(sample), src);
    Files.move(src.resolve("proc/" + pid), src.resolve("proc/self"));
    return src;
  }

  private Path capture(Path from, Long pid, String name) throws IOException {
    Path cap = tmp.resolve(name);
    CaptureCommand.ladder(cap, from, new ReplayRunner(from), Map.of(), pid, Instant.EPOCH);
    return cap;
  }

  private static JsonNode check(String... args) {
    List<String> all = new ArrayList<>(List.of("check", "-o", "json"));
    all.addAll(List.of(args));
    CliRun run = CliRun.run(all.toArray(String[]::new));
    assertThat(run.stderr()).as("stderr of %s", all).isEmpty();
    return run.json();
  }

  private static List<String> view(JsonNode doc) {
    List<String> out = new ArrayList<>();
    out.add(doc.at("/verdict/status").asText() + " / " + doc.at("/verdict/layer").asText());
    doc.get("ladder").forEach(s -> out.add(s.get("step").asInt() + ":" + s.get("status").asText()));
    doc.at("/verdict/path").forEach(a -> out.add(a.get("question").asText() + ":" + a.get("answer").asText()));
    doc.at("/verdict/candidates").forEach(c -> out.add("candidate " + c.get("rule").asText()));
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("captures")
  void captureThenReplayGivesTheSamplesVerdictWithAndWithoutPid(String sample) throws IOException {
    List<String> expected = view(check("--root", SAMPLES.resolve(sample).toString()));
    Long samplePid = CaptureMeta.pid(CaptureMeta.read(SAMPLES.resolve(sample)));
    if (samplePid != null) {
      madeWithPid(sample, samplePid, expected);
      return;
    }
    Path plain = capture(SAMPLES.resolve(sample), null, "plain");
    Path withPid = capture(asPid(sample), PID, "with-pid");
    assertThat(CaptureMeta.read(withPid)).containsEntry("pid", "4242").containsEntry("envOf", "pid 4242");
    assertThat(CaptureMeta.read(plain)).doesNotContainKey("pid").containsEntry("envOf", "this process");
    SoftAssertions softly = new SoftAssertions();
    softly.assertThat(view(check("--root", plain.toString()))).as("capture, replay").isEqualTo(expected);
    softly.assertThat(view(check("--root", withPid.toString()))).as("capture --pid, replay").isEqualTo(expected);
    softly.assertThat(view(check("--root", withPid.toString(), "--pid", "4242")))
        .as("capture --pid, replay --pid").isEqualTo(expected);
    softly.assertAll();
  }

  private void madeWithPid(String sample, long pid, List<String> expected) throws IOException {
    Path again = capture(SAMPLES.resolve(sample), pid, "again");
    Path plain = capture(asSelf(sample, pid), null, "plain");
    assertThat(CaptureMeta.read(again)).containsEntry("pid", String.valueOf(pid))
        .containsEntry("envOf", "pid " + pid);
    assertThat(CaptureMeta.read(plain)).doesNotContainKey("pid").containsEntry("envOf", "this process");
    SoftAssertions softly = new SoftAssertions();
    softly.assertThat(view(check("--root", SAMPLES.resolve(sample).toString(), "--pid", String.valueOf(pid))))
        .as("the sample, replay --pid").isEqualTo(expected);
    softly.assertThat(view(check("--root", again.toString()))).as("capture --pid, replay").isEqualTo(expected);
    softly.assertThat(view(check("--root", again.toString(), "--pid", String.valueOf(pid))))
        .as("capture --pid, replay --pid").isEqualTo(expected);
    softly.assertThat(view(check("--root", plain.toString()))).as("capture, replay").isEqualTo(expected);
    softly.assertAll();
  }

  @Test
  void aLowMemlockOfTheCapturedPidReplaysAsAMemlockProblemWithoutPid() throws IOException {
    Path cap = capture(asPid("memlock-64k-no-ipc-lock"), PID, "memlock");
    JsonNode doc = check("--root", cap.toString());
    assertThat(doc.at("/pod/memlock/of").asText()).isEqualTo("/proc/4242");
    assertThat(doc.at("/pod/memlock/status").asText()).isEqualTo("ok");
    assertThat(doc.at("/verdict/status").asText()).isEqualTo("problem");
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("container-security");
    assertThat(view(doc)).contains("5:fail");
  }

  /** Captures from before "pid" was recorded name the process only in envOf. */
  @Test
  void anOldCaptureThatNamesThePidOnlyInEnvOfReplaysThatPid() throws IOException {
    Path cap = capture(asPid("memlock-64k-no-ipc-lock"), PID, "old");
    Path props = cap.resolve(".nccl-triage/capture.properties");
    List<String> lines = Files.readAllLines(props, StandardCharsets.ISO_8859_1);
    lines.removeIf(l -> l.startsWith("pid="));
    Files.write(props, lines, StandardCharsets.ISO_8859_1);
    assertThat(CaptureMeta.read(cap)).doesNotContainKey("pid").containsEntry("envOf", "pid 4242");
    JsonNode doc = check("--root", cap.toString());
    assertThat(doc.at("/pod/memlock/of").asText()).isEqualTo("/proc/4242");
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("container-security");
  }

  @Test
  void aPidThatContradictsTheCaptureIsAUsageError() throws IOException {
    Path withPid = capture(asPid("memlock-64k-no-ipc-lock"), PID, "with-pid");
    CliRun run = CliRun.run("check", "--root", withPid.toString(), "--pid", "1");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr().strip()).isEqualTo("nccl-triage: --pid 1: this capture was made with --pid 4242"
        + " and holds that process's files; leave --pid out to replay it");

    Path plain = capture(SAMPLES.resolve("memlock-64k-no-ipc-lock"), null, "plain");
    run = CliRun.run("check", "--root", plain.toString(), "--pid", "1");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr().strip()).isEqualTo("nccl-triage: --pid 1: this capture was made without --pid"
        + " (this process) and holds no other process's files; capture again with --pid 1");
  }
}
