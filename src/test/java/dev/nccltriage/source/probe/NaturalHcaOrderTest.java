package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 12 item 11: a node with mlx5_6, mlx5_15 and mlx5_22 lists them counted, wherever they come from. */
class NaturalHcaOrderTest {
  private static final List<String> HCAS = List.of("mlx5_22", "mlx5_6", "mlx5_15");

  @TempDir Path dir;

  private void node() throws IOException {
    for (String h : HCAS) {
      Path port = dir.resolve("sys/class/infiniband/" + h + "/ports/1");
      Files.createDirectories(port);
      Files.writeString(port.resolve("state"), "4: ACTIVE\n");
      Files.writeString(port.resolve("link_layer"), "InfiniBand\n");
    }
  }

  private static PodFacts.Devices devices() {
    Map<String, String> uverbs = new LinkedHashMap<>();
    uverbs.put("uverbs0", "mlx5_22");
    uverbs.put("uverbs1", "mlx5_6");
    uverbs.put("uverbs2", "mlx5_15");
    return new PodFacts.Devices("ok", true, List.copyOf(uverbs.keySet()), uverbs, Map.of(), false, List.of());
  }

  @Test
  void theRootListsDirectoriesInNaturalOrder() throws IOException {
    node();
    assertThat(new HostRoot(dir).list("/sys/class/infiniband")).containsExactly("mlx5_6", "mlx5_15", "mlx5_22");
  }

  @Test
  void sysfsHcasAndPortsAreListedInNaturalOrder() throws IOException {
    node();
    PodFacts.Hcas hcas = new HcaProbe(new HostRoot(dir), new EvidenceBook())
        .probe(devices(), CommandResult.missing(List.of("ibv_devinfo")));

    assertThat(hcas.onNode()).containsExactly("mlx5_6", "mlx5_15", "mlx5_22");
    assertThat(hcas.usable()).containsExactly("mlx5_6", "mlx5_15", "mlx5_22");
    assertThat(hcas.ports()).extracting(PodFacts.Port::hca).containsExactly("mlx5_6", "mlx5_15", "mlx5_22");
  }

  @Test
  void ibvDevinfoHcasInTheKernelsOrderAreListedInNaturalOrder() throws IOException {
    node();
    StringBuilder out = new StringBuilder();
    for (String h : List.of("mlx5_15", "mlx5_22", "mlx5_6")) {
      out.append("hca_id:\t").append(h).append("\n\ttransport:\t\t\tInfiniBand (0)\n")
          .append("\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tlink_layer:\t\tInfiniBand\n");
    }
    CommandResult devinfo = new CommandResult(List.of("ibv_devinfo"), "ok", 0, out.toString(), "", 1, 0, false);
    PodFacts.Hcas hcas = new HcaProbe(new HostRoot(dir), new EvidenceBook()).probe(devices(), devinfo);

    assertThat(hcas.usable()).containsExactly("mlx5_6", "mlx5_15", "mlx5_22");
    assertThat(hcas.ports()).extracting(PodFacts.Port::hca).containsExactly("mlx5_6", "mlx5_15", "mlx5_22");
  }
}
