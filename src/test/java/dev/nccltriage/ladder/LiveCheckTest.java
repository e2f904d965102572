package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code check} on a developer machine or CI runner without RDMA NICs: a node that has none can
 * only give NCCL TCP sockets, so the honest verdict is inconclusive (exit 3) with what would tell
 * a socket-only node from a Pod that was given nothing, not a device-plugin problem. (A container
 * without uverbs on a node whose sysfs or PCI bus shows HCAs is the device plugin's: the
 * no-dev-infiniband capture.)
 */
class LiveCheckTest {
  private static final Path PCI = Path.of("/sys/bus/pci/devices");

  @BeforeAll
  static void noRdmaHere() throws IOException {
    assumeFalse(Files.exists(Path.of("/dev/infiniband")), "this host has /dev/infiniband");
    assumeTrue(Files.isDirectory(PCI), "this host's PCI bus cannot be read");
    try (Stream<Path> functions = Files.list(PCI)) {
      List<String> ids = functions.map(LiveCheckTest::ids).toList();
      assumeTrue(ids.stream().noneMatch(id -> id.startsWith("0x0207") || id.contains("0x15b3")),
          "this host has an InfiniBand or Mellanox function: " + ids);
    }
  }

  private static String ids(Path function) {
    try {
      return Files.readString(function.resolve("class")).strip() + " " + Files.readString(function.resolve("vendor")).strip();
    } catch (IOException e) {
      return "";
    }
  }

  @Test
  void aHostWithoutRdmaNicsIsInconclusiveAndSaysWhatWouldTell() {
    CliRun run = CliRun.run("check", "-o", "json");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
    assertThat(run.stderr()).isEmpty();
    JsonNode doc = run.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    assertThat(doc.at("/verdict/status").asText()).isEqualTo("inconclusive");
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("unknown");
    assertThat(doc.at("/verdict/probe").asText()).as("what would decide")
        .contains("This node has no RDMA NIC").contains("request the RDMA resource");
    JsonNode step1 = Captures.step(doc, 1);
    assertThat(step1.get("status").asText()).isEqualTo("warn");
    assertThat(step1.get("evidence").toString()).contains("/dev/infiniband").contains("/sys/bus/pci/devices");
    assertThat(doc.get("ladder")).hasSize(7);
    assertThat(Captures.step(doc, 7).get("status").asText()).isEqualTo("skip");
  }

  @Test
  void theTextReportSaysWhatTheContainerDoesNotAnswer() {
    CliRun run = CliRun.run("check");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
    assertThat(run.stdout().lines().limit(3).toList()).containsExactly(
        "nccl-triage check: INCONCLUSIVE  layer: unknown",
        "  What this container shows does not answer: Does NCCL move data over an RDMA network (IB or an",
        "  RDMA net plugin) rather than TCP sockets?");
    assertThat(run.stdout()).contains("1. warn  /dev/infiniband");
  }

  @Test
  void expectingHcasMakesTheMissingDevicesTheDevicePluginsProblem() {
    CliRun run = CliRun.run("check", "-o", "json", "--expect-hcas", "8");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.json().at("/verdict/layer").asText()).isEqualTo("device-plugin");
  }
}
