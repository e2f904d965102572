package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Verdicts and texts of check/preflight that mislead a user; each test fails today. */
class VerdictBugTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "samples/captures/no-dev-infiniband",
        "samples/captures/no-secondary-interface",
        "samples/captures/roce-exclusive-netdev-outside",
        "samples/captures/socket-ifname-missing"
      })
  void checkReportsRenderNoUnknownPlaceholders(String root) {
    CliRun run = CliRun.run("check", "--root", root);
    assertThat(run.stdout())
        .doesNotContain("unknown (unknown)")
        .doesNotContain("unknown HCA port(s) for unknown local GPU(s)");
  }

  @Test
  void anIbHcaFilterThatSelectsEveryHcaIsNotBlamedForTooFewHcas() {
    CliRun run =
        CliRun.run(
            "check", "--root", "samples/captures/healthy-8hca-gdr-net1", "--expect-hcas", "16",
            "-o", "json");
    assertThat(run.exitCode()).isEqualTo(1);
    JsonNode verdict = run.json().get("verdict");
    assertThat(verdict.get("layer").asText()).isNotEqualTo("nccl-env");
    assertThat(verdict.get("summary").asText()).doesNotContain("NCCL_IB_HCA");
  }
  /**
   * Issue 12 item 4: three numbers, not two. A node that shows 8 HCAs, all 8 given to the
   * container, against --expect-hcas 16 is short of NICs (or the expectation is wrong); the device
   * plugin is to blame only where the container got fewer than the node shows.
   */
  @org.junit.jupiter.params.ParameterizedTest(name = "{0} --expect-hcas {1} -> {2}")
  @org.junit.jupiter.params.provider.CsvSource({
    "samples/captures/healthy-8hca-gdr-net1, 16, node-driver",
    "samples/captures/partial-2of8-hcas, 8, device-plugin",
    "samples/captures/partial-2of8-hcas, 16, device-plugin"
  })
  void theNodeShortOfHcasIsNotTheDevicePlugin(String root, String expect, String layer) {
    CliRun run = CliRun.run("check", "--root", root, "--expect-hcas", expect, "-o", "json");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.json().at("/verdict/layer").asText()).isEqualTo(layer);
  }
}
