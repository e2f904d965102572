package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code preflight} as an initContainer runs it: one JSON line on stdout, the readable report on
 * stderr, and an exit code that fails the Pod when an expectation is not met.
 */
class PreflightTest {
  private static final String HEALTHY = "samples/captures/healthy-8hca-gdr-net1";
  private static final String NO_NET1 = "samples/captures/no-secondary-interface";
  private static final String[] ALL_FLAGS = {
    "--expect-hcas", "8", "--expect-gdr", "--expect-iface", "net1", "--min-memlock", "1G"
  };

  @TempDir Path tmp;

  private static CliRun preflight(String root, String... args) {
    List<String> all = new ArrayList<>(List.of("preflight", "--root", root));
    all.addAll(List.of(args));
    return CliRun.run(all.toArray(String[]::new));
  }

  /** stdout is exactly one line, and that line is the JSON report; stderr is the text report. */
  private static JsonNode oneJsonLine(CliRun run) {
    String out = run.stdout();
    assertThat(out).as(run.toString()).endsWith("\n");
    assertThat(out.lines().toList()).as("stdout lines").hasSize(1);
    assertThat(out.strip()).startsWith("{").endsWith("}");
    JsonNode doc = run.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    assertThat(doc.get("command").asText()).isEqualTo("preflight");
    assertThat(run.stderr())
        .as("text report on stderr")
        .startsWith("nccl-triage preflight: ")
        .contains("Ladder (what this container shows)")
        .doesNotContain("\"schemaVersion\"");
    return doc;
  }

  private static List<String> findings(JsonNode doc) {
    List<String> out = new ArrayList<>();
    doc.at("/verdict/findings").forEach(f -> out.add(f.get("rule").asText()));
    return out;
  }

  @Test
  void healthyCaptureMeetingEveryExpectationExits0() {
    CliRun run = preflight(HEALTHY, ALL_FLAGS);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode doc = oneJsonLine(run);
    assertThat(doc.at("/verdict/status").asText()).isEqualTo("healthy");
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("none");
    assertThat(run.stderr()).startsWith("nccl-triage preflight: HEALTHY");
  }

  @Test
  void moreHcasThanTheNodeHasExits1() {
    CliRun run = preflight(HEALTHY, "--expect-hcas", "16");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    JsonNode doc = oneJsonLine(run);
    assertThat(doc.at("/verdict/status").asText()).isEqualTo("problem");
    assertThat(run.stderr()).startsWith("nccl-triage preflight: PROBLEM");
  }

  @Test
  void aMissingExpectedInterfaceExits1WithItsFinding() {
    CliRun run = preflight(NO_NET1, "--expect-iface", "net1");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    JsonNode doc = oneJsonLine(run);
    assertThat(findings(doc)).contains("L-expect-iface");
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("pod-network");
    assertThat(run.stderr()).contains("net1");
  }

  /**
   * No sample capture is healthy with a warn step, so one is made: the healthy capture with a 2
   * GiB memlock limit and no CAP_IPC_LOCK (enough for NCCL's buffers: step 5 warns, no lint fires).
   */
  private Path healthyWithAWarning() throws IOException {
    Path dir = tmp.resolve("healthy-memlock-2g-no-ipc-lock");
    Captures.copyTree(CliRun.REPO.resolve(HEALTHY), dir);
    Path limits = dir.resolve("proc/self/limits");
    List<String> lines = new ArrayList<>();
    for (String l : Files.readAllLines(limits, StandardCharsets.UTF_8)) {
      lines.add(l.startsWith("Max locked memory")
          ? "Max locked memory         2147483648           2147483648           bytes     "
          : l);
    }
    Files.write(limits, lines, StandardCharsets.UTF_8);
    Path status = dir.resolve("proc/self/status");
    String s = Files.readString(status, StandardCharsets.UTF_8);
    assertThat(s).contains("CapEff:\t00000000a80465fb");
    Files.writeString(status, s.replace("CapEff:\t00000000a80465fb", "CapEff:\t00000000a80425fb"),
        StandardCharsets.UTF_8);
    return dir;
  }

  @Test
  void failOnWarnTurnsAWarnStepOfAHealthyVerdictIntoExit1() throws IOException {
    String root = healthyWithAWarning().toString();
    CliRun plain = preflight(root);
    JsonNode doc = oneJsonLine(plain);
    assertThat(doc.at("/verdict/status").asText()).as(plain.toString()).isEqualTo("healthy");
    assertThat(Captures.ladderStatuses(doc)).contains("5:warn");
    assertThat(plain.exitCode()).as("default --fail-on problem").isZero();

    CliRun strict = preflight(root, "--fail-on", "warn");
    assertThat(strict.exitCode()).as(strict.toString()).isEqualTo(1);
    assertThat(oneJsonLine(strict).at("/verdict/status").asText()).isEqualTo("healthy");

    // the same threshold on the healthy capture itself, which has no warning, stays 0
    assertThat(preflight(HEALTHY, "--fail-on", "warn").exitCode()).isZero();
  }

  private Path expectations(String yaml) throws IOException {
    Path file = tmp.resolve("expect-" + Integer.toHexString(yaml.hashCode()) + ".yaml");
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void anExpectationsFileBehavesLikeTheFlags() throws IOException {
    String file = expectations("hcas: 8\niface: net1\ngdr: true\nminMemlock: 1G\n").toString();
    for (String root : List.of(HEALTHY, NO_NET1)) {
      CliRun flags = preflight(root, ALL_FLAGS);
      CliRun fromFile = preflight(root, "--expectations", file);
      assertThat(fromFile.exitCode()).as("%s: %s", root, fromFile).isEqualTo(flags.exitCode());
      JsonNode a = oneJsonLine(flags);
      JsonNode b = oneJsonLine(fromFile);
      assertThat(b.get("verdict")).as("verdict on %s", root).isEqualTo(a.get("verdict"));
      assertThat(b.get("ladder")).as("ladder on %s", root).isEqualTo(a.get("ladder"));
      assertThat(fromFile.stderr()).isEqualTo(flags.stderr());
    }
    // the file's iface takes effect
    assertThat(findings(preflight(NO_NET1, "--expectations", file).json())).contains("L-expect-iface");
    // and so does its hcas, unless a flag overrides it
    String sixteen = expectations("hcas: 16\n").toString();
    assertThat(preflight(HEALTHY, "--expectations", sixteen).exitCode()).isEqualTo(1);
    assertThat(preflight(HEALTHY, "--expectations", sixteen, "--expect-hcas", "8").exitCode())
        .as("flags win over the file")
        .isZero();
  }

  @Test
  void anUnknownKeyInTheExpectationsFileIsAUsageError() throws IOException {
    Path file = expectations("hcas: 8\nifaces: net1\n");
    CliRun run = preflight(HEALTHY, "--expectations", file.toString());
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    List<String> lines = run.stderr().lines().toList();
    assertThat(lines).as("stderr").hasSize(1);
    assertThat(lines.get(0))
        .startsWith("nccl-triage: ")
        .contains(file.toString())
        .contains("ifaces")
        .doesNotContain("Exception");
  }
}
