package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code check} on a developer machine or CI runner without RDMA: still a correct, useful verdict
 * (no uverbs in this "container": the device plugin layer), not an error or "inconclusive".
 */
class LiveCheckTest {
  @BeforeAll
  static void noRdmaHere() {
    assumeFalse(Files.exists(Path.of("/dev/infiniband")), "this host has /dev/infiniband");
  }

  @Test
  void aHostWithoutRdmaIsADevicePluginProblem() {
    CliRun run = CliRun.run("check", "-o", "json");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.stderr()).isEmpty();
    JsonNode doc = run.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    assertThat(doc.at("/verdict/status").asText()).isEqualTo("problem");
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("device-plugin");
    assertThat(doc.at("/verdict/fix").asText()).as("a fix the user can act on").isNotBlank();
    JsonNode step1 = Captures.step(doc, 1);
    assertThat(step1.get("status").asText()).isEqualTo("fail");
    assertThat(step1.get("evidence").toString()).contains("/dev/infiniband");
    assertThat(doc.get("ladder")).hasSize(7);
    assertThat(Captures.step(doc, 7).get("status").asText()).isEqualTo("skip");
  }

  @Test
  void theTextReportNamesTheLayerFirst() {
    CliRun run = CliRun.run("check");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.stdout().lines().findFirst().orElse(""))
        .isEqualTo("nccl-triage check: PROBLEM  layer: device-plugin");
    assertThat(run.stdout()).contains("1. fail  /dev/infiniband");
  }
}
