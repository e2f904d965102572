package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A log whose network channels carry no /GDRDMA, judged with and without a container beside it.
 * The log alone guesses node-driver; a container that has what GPUDirect RDMA needs contradicts
 * that guess, and an echoed NCCL_NET_GDR_LEVEL=LOC explains it outright.
 */
class GdrDisagreementTest {
  private static final String LOG = "samples/logs/10-no-gdr-reason-not-logged-2.22.3.log";

  private static List<String> rules(JsonNode verdict) {
    List<String> out = new ArrayList<>();
    verdict.get("candidates").forEach(c -> out.add(c.get("rule").asText()));
    return out;
  }

  @Test
  void theLogAloneGuessesTheNodeDriver() {
    JsonNode verdict = CliRun.run("log", "-o", "json", LOG).json().get("verdict");
    assertThat(verdict.get("layer").asText()).isEqualTo("node-driver");
    assertThat(rules(verdict)).doesNotContain("C4-container-ready");
  }

  @Test
  void aContainerReadyForGdrLeavesTheLayerOpenAndSaysWhatDecides() {
    CliRun run = CliRun.run("check", "--root", "samples/captures/healthy-8hca-gdr-net1", "--log", LOG, "-o", "json");
    assertThat(run.exitCode()).isEqualTo(3);
    JsonNode verdict = run.json().get("verdict");
    assertThat(verdict.get("status").asText()).isEqualTo("inconclusive");
    assertThat(verdict.get("layer").asText()).isEqualTo("unknown");
    assertThat(verdict.get("summary").asText()).startsWith("The log and this container disagree.");
    assertThat(verdict.get("disagreements").findValuesAsText("rule")).containsExactly("Q4-gpudirect");
    assertThat(rules(verdict)).containsExactly("C4-container-ready");
    assertThat(verdict.get("fix").asText()).contains("NCCL_DEBUG_SUBSYS=INIT,NET");
    // the container's evidence is shown, not only the log's
    assertThat(verdict.get("candidates").get(0).get("evidence").toString()).contains("memory_peers", "PIX");
  }

  @Test
  void aContainerWithoutPeermemStillNamesTheNodeDriver() {
    CliRun run = CliRun.run("check", "--root", "samples/captures/no-peermem-proprietary", "--log", LOG, "-o", "json");
    JsonNode verdict = run.json().get("verdict");
    assertThat(verdict.get("layer").asText()).isEqualTo("node-driver");
    assertThat(rules(verdict)).doesNotContain("C4-container-ready");
  }

  @Test
  void anEchoedGdrLevelOfLocIsTheNcclEnv() throws IOException {
    String log = Files.readString(CliRun.REPO.resolve(LOG), StandardCharsets.UTF_8);
    String withEnv = "gpu-node-b11:41873:41873 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to LOC\n" + log;
    CliRun run = CliRun.runWithStdin(withEnv.getBytes(StandardCharsets.UTF_8), "log", "-o", "json", "-");
    JsonNode verdict = run.json().get("verdict");
    assertThat(verdict.get("layer").asText()).isEqualTo("nccl-env");
    assertThat(rules(verdict).get(0)).isEqualTo("C4-gdr-level-off");
    assertThat(verdict.get("summary").asText()).contains("NCCL_NET_GDR_LEVEL=LOC");
  }
}
