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
}
