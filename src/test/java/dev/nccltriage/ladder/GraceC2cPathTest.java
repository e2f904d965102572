package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Grace superchip's GPU (GH200) reaches the CPU over NVLink-C2C, so nvidia-smi shows the NIC on
 * that CPU as NODE: NCCL's P2C path, not a PCIe placement to fix. Whether NCCL uses GPUDirect RDMA
 * over it depends on its version (2.27+ by default), which check does not know without a log. The
 * GH200 sample with its net1 link up used to be a topology problem.
 */
class GraceC2cPathTest {
  @TempDir Path tmp;

  private Path gh200(String model, String relation) throws IOException {
    Path root = tmp.resolve("gh200");
    Captures.copyTree(Captures.DIR.resolve("secondary-down-gh200"), root);
    Path ip = root.resolve(".nccl-triage/commands/ip_-j_addr_show/stdout");
    String json = Files.readString(ip, StandardCharsets.UTF_8)
        .replace("[\"NO-CARRIER\",\"BROADCAST\",\"MULTICAST\",\"UP\"]", "[\"BROADCAST\",\"MULTICAST\",\"UP\",\"LOWER_UP\"]")
        .replace("\"LOWERLAYERDOWN\"", "\"UP\"");
    Files.writeString(ip, json, StandardCharsets.UTF_8);
    Path info = root.resolve("proc/driver/nvidia/gpus/0009:01:00.0/information");
    Files.writeString(info, Files.readString(info, StandardCharsets.UTF_8).replace("NVIDIA GH200 480GB", model),
        StandardCharsets.UTF_8);
    Path topo = root.resolve(".nccl-triage/commands/nvidia-smi_topo_-m/stdout");
    Files.writeString(topo, Files.readString(topo, StandardCharsets.UTF_8).replace("NODE", relation),
        StandardCharsets.UTF_8);
    return root;
  }

  private static JsonNode check(Path root) {
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.stderr()).isEmpty();
    return run.json();
  }

  private static JsonNode q4(JsonNode doc) {
    for (JsonNode a : doc.at("/verdict/path")) {
      if (a.get("question").asText().equals("Q4-gpudirect")) {
        return a;
      }
    }
    throw new AssertionError("no Q4 in " + doc.at("/verdict/path"));
  }

  @Test
  void aGh200sNicOnItsOwnGraceCpuIsNoTopologyFault() throws IOException {
    JsonNode doc = check(gh200("NVIDIA GH200 480GB", "NODE"));

    assertThat(Captures.ladderStatuses(doc)).contains("4:pass", "6:warn");
    assertThat(Captures.step(doc, 6).get("observed").asText())
        .contains("worst GPU-NIC path NODE (through its Grace CPU over NVLink-C2C: NCCL's P2C path)");
    assertThat(q4(doc).get("answer").asText()).isEqualTo("unknown");
    assertThat(q4(doc).get("note").asText()).contains("NVLink-C2C").contains("NCCL 2.27")
        .contains("NCCL_NET_GDR_C2C=1");
    // nothing else is wrong: what GPUDirect RDMA does here is the one open question
    assertThat(doc.at("/verdict/status").asText()).isEqualTo("inconclusive");
    assertThat(doc.toString()).doesNotContain("C4-pod-topology").doesNotContain("\"layer\":\"topology\"");
    assertThat(doc.at("/pod/gpudirect/gpuModels").toString()).isEqualTo("[\"NVIDIA GH200 480GB\"]");
  }

  @Test
  void theSameNodeRelationOnAPcieGpuIsStillTopology() throws IOException {
    JsonNode doc = check(gh200("NVIDIA H100 80GB HBM3", "NODE"));

    assertThat(Captures.ladderStatuses(doc)).contains("6:fail");
    assertThat(q4(doc).get("answer").asText()).isEqualTo("no");
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("topology");
  }

  /** P2C covers the CPU the GPU is C2C-linked to; a NIC across the SMP link is not on it. */
  @Test
  void aGh200sNicOnTheOtherSocketIsStillTopology() throws IOException {
    JsonNode doc = check(gh200("NVIDIA GH200 480GB", "SYS"));

    assertThat(Captures.ladderStatuses(doc)).contains("6:fail");
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("topology");
  }
}
