package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node of another model: AWS EFA. Its verbs devices (efa_N) open and their ports are ACTIVE, but
 * their link layer is "Unspecified", neither InfiniBand nor RoCE's Ethernet: NCCL's traffic goes
 * over them only through a net plugin (aws-ofi-nccl), which a container does not show. The capture
 * is the healthy InfiniBand sample with its HCAs made EFA's (ibv_devinfo and sysfs), NCCL_IB_HCA
 * dropped. Before, it read HEALTHY.
 */
class EfaLinkLayerTest {
  @TempDir Path tmp;

  @Test
  void efaPortsAloneLeaveTheTransportUnknownAndSayWhatDecides() throws Exception {
    Path root = tmp.resolve("capture");
    Captures.copyTree(Path.of("samples/captures/healthy-8hca-gdr-net1"), root);
    for (int i = 0; i < 8; i++) {
      Path ib = root.resolve("sys/class/infiniband");
      Files.move(ib.resolve("mlx5_" + i), ib.resolve("efa_" + i));
      Files.writeString(ib.resolve("efa_" + i + "/ports/1/link_layer"), "Unspecified\n");
      Files.writeString(root.resolve("sys/class/infiniband_verbs/uverbs" + i + "/ibdev"), "efa_" + i + "\n");
    }
    Path devinfo = root.resolve(".nccl-triage/commands/ibv_devinfo/stdout");
    Files.writeString(devinfo, Files.readString(devinfo, StandardCharsets.UTF_8).replace("mlx5_", "efa_")
        .replace("InfiniBand (0)", "unknown (1)").replace("link_layer:\t\tInfiniBand", "link_layer:\t\tUnspecified")
        .replace("0x02c9", "0x1d0f"), StandardCharsets.UTF_8);
    Path env = root.resolve(".nccl-triage/env");
    Files.writeString(env, Files.readString(env, StandardCharsets.UTF_8).replaceAll("(?m)^NCCL_IB_HCA=.*\n", "")
        + "FI_PROVIDER=efa\n", StandardCharsets.UTF_8);

    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
    JsonNode v = run.json().get("verdict");
    assertThat(v.get("status").asText()).isEqualTo("inconclusive");
    assertThat(run.json().toString()).contains("link layer is Unspecified").contains("aws-ofi-nccl")
        .contains("Using network AWS");
  }
}
