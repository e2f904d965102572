package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * check --log with a capture: when the log and the container contradict each other, the report says
 * so and names no layer (issue 12, item 9); when they agree, or the container only rules some of
 * the log's candidates out, the layer stands.
 */
class LogVersusContainerTest {
  private static final String HEALTHY = "samples/captures/healthy-8hca-gdr-net1";

  private static CliRun check(String capture, String log) {
    return CliRun.run("check", "--root", capture, "--log", log, "-o", "json");
  }

  private static CliRun checkOnLogText(String capture, String logText) {
    return CliRun.runWithStdin(logText.getBytes(StandardCharsets.UTF_8), "check", "--root", capture, "--log", "-",
        "-o", "json");
  }

  private static String sample(String name) throws IOException {
    return Files.readString(CliRun.REPO.resolve("samples/logs/" + name), StandardCharsets.UTF_8);
  }

  private static List<String> rules(JsonNode list) {
    return list.findValuesAsText("rule");
  }

  @Test
  void anIbHcaFilterThatMatchesThisContainersActivePortsIsADisagreement() throws IOException {
    // the log: NCCL_IB_HCA=mlx5_0,mlx5_1 and "No device found"; the container: both ports ACTIVE
    String log = sample("05-ib-hca-netdev-name-2.20.5.log").replace("NCCL_IB_HCA set to ib0", "NCCL_IB_HCA set to =mlx5_0,mlx5_1");
    CliRun run = checkOnLogText(HEALTHY, log);
    assertThat(run.exitCode()).isEqualTo(3);
    JsonNode v = run.json().get("verdict");
    assertThat(v.get("status").asText()).isEqualTo("inconclusive");
    assertThat(v.get("layer").asText()).isEqualTo("unknown");
    assertThat(v.get("summary").asText()).contains("The log and this container disagree", "another node, Pod or image");
    assertThat(rules(v.get("disagreements"))).contains("C1-ib-hca-filter-empty", "C1-no-device-container");
    JsonNode filter = v.get("disagreements").get(0);
    assertThat(filter.get("container").asText()).contains("=mlx5_0,mlx5_1", "selects 2 ACTIVE port(s)");
    assertThat(filter.get("logEvidence").toString()).contains("No device found");
    assertThat(filter.get("containerEvidence").toString()).contains("PORT_ACTIVE");
    assertThat(v.get("fix").isNull()).isTrue();
  }

  @Test
  void theTextReportSaysTheyDisagreeAndShowsBothSides() throws IOException {
    String log = sample("05-ib-hca-netdev-name-2.20.5.log").replace("NCCL_IB_HCA set to ib0", "NCCL_IB_HCA set to =mlx5_0,mlx5_1");
    CliRun run = CliRun.runWithStdin(log.getBytes(StandardCharsets.UTF_8), "check", "--root", HEALTHY, "--log", "-");
    assertThat(run.stdout()).contains("INCONCLUSIVE", "The log and this container disagree", "log: ", "container: ",
        "PORT_ACTIVE");
  }

  @Test
  void aFilterThatMatchesNoneOfThisContainersHcasNamesTheEnvAndRulesTheRestOut() {
    // NCCL_IB_HCA=ib0 selects none of mlx5_0..7 here either: the log and the container agree
    CliRun run = check(HEALTHY, "samples/logs/05-ib-hca-netdev-name-2.20.5.log");
    assertThat(run.exitCode()).isEqualTo(1);
    JsonNode v = run.json().get("verdict");
    assertThat(v.get("layer").asText()).isEqualTo("nccl-env");
    assertThat(v.get("disagreements")).isEmpty();
    assertThat(rules(v.get("ruledOut"))).contains("C1-no-device-container", "C1-no-device-ports-down");
    assertThat(v.get("candidates").findValuesAsText("layer")).doesNotContain("fabric");
  }

  @ParameterizedTest(name = "{0} with {1}")
  @CsvSource({
      // the log shows IB with GPUDirect RDMA; the container cannot have done it
      "no-dev-infiniband, 01-healthy-ib-gdr-2.21.5.log, Q1-transport",
      "ports-down, 01-healthy-ib-gdr-2.21.5.log, Q1-transport",
      "no-peermem-proprietary, 01-healthy-ib-gdr-2.21.5.log, Q4-gpudirect",
      "partial-2of8-hcas, 01-healthy-ib-gdr-2.21.5.log, Q2-hca-count",
      // the log blames what the container has
      "healthy-8hca-gdr-net1, 08-no-gdr-no-peermem-module-2.12.12.log, C4-gdr-no-module",
      "healthy-8hca-gdr-net1, 14-ibv-reg-mr-enomem-memlock-2.18.3.log, L-err-reg-mr-memlock",
      "healthy-8hca-gdr-net1, 02-socket-no-device-k8s-2.19.3.log, C1-no-device",
  })
  void contradictionsAreInconclusiveAndNamed(String capture, String log, String rule) {
    CliRun run = check("samples/captures/" + capture, "samples/logs/" + log);
    JsonNode v = run.json().get("verdict");
    assertThat(v.get("status").asText()).as(run.stdout()).isEqualTo("inconclusive");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(rules(v.get("disagreements"))).contains(rule);
  }

  @ParameterizedTest(name = "{0} with {1}")
  @CsvSource({
      "healthy-8hca-gdr-net1, 01-healthy-ib-gdr-2.21.5.log, healthy, none",
      "no-dev-infiniband, 02-socket-no-device-k8s-2.19.3.log, problem, device-plugin",
      "memlock-64k-no-ipc-lock, 14-ibv-reg-mr-enomem-memlock-2.18.3.log, problem, container-security",
      "no-peermem-proprietary, 08-no-gdr-no-peermem-module-2.12.12.log, problem, node-driver",
      // the job's own environment (printed in the log) explains the sockets: no contradiction
      "healthy-8hca-gdr-net1, 04-ib-disabled-env-2.18.5.log, problem, nccl-env",
  })
  void agreementKeepsTheLayer(String capture, String log, String status, String layer) {
    JsonNode v = check("samples/captures/" + capture, "samples/logs/" + log).json().get("verdict");
    assertThat(v.get("status").asText()).isEqualTo(status);
    assertThat(v.get("layer").asText()).isEqualTo(layer);
    assertThat(v.get("disagreements")).isEmpty();
  }

  @Test
  void withoutALogNothingIsWeighed() {
    JsonNode v = CliRun.run("check", "--root", HEALTHY, "-o", "json").json().get("verdict");
    assertThat(v.get("disagreements")).isEmpty();
    assertThat(v.get("ruledOut")).isEmpty();
  }
}
