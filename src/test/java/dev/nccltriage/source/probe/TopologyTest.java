package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.host.CommandResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worst GPU-to-nearest-NIC path of nvidia-smi topo -m, as step 6 reports it: each GPU's
 * nearest NIC among those the Pod can use (the first listed on a tie), then the GPU whose nearest
 * NIC is farthest (the first listed on a tie).
 */
class TopologyTest {
  /** Two GPUs and two NICs, {@code rows[g][n]} the relation of GPU g to NIC n. */
  private static CommandResult topo(boolean legend, String[]... rows) {
    StringBuilder s = new StringBuilder("        GPU0    GPU1    NIC0    NIC1    CPU Affinity    NUMA Affinity\n");
    s.append("GPU0     X      NV4     ").append(rows[0][0]).append("     ").append(rows[0][1]).append("    0-63    0\n");
    s.append("GPU1    NV4      X      ").append(rows[1][0]).append("     ").append(rows[1][1]).append("    0-63    0\n");
    s.append("NIC0    ").append(rows[0][0]).append("     ").append(rows[1][0]).append("      X      SYS\n");
    s.append("NIC1    ").append(rows[0][1]).append("     ").append(rows[1][1]).append("     SYS      X\n");
    if (legend) {
      s.append("\nNIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n");
    }
    return new CommandResult(List.of("nvidia-smi", "topo", "-m"), "ok", 0, s.toString(), "", 1, 5000, false);
  }

  private static String[] row(String nic0, String nic1) {
    return new String[] {nic0, nic1};
  }

  @Test
  void aNicThePodCannotUseIsNoGpusNearestNic() {
    CommandResult t = topo(true, row("PIX", "SYS"), row("PIX", "SYS"));

    assertThat(Topology.worst(t, List.of("mlx5_1")).description()).isEqualTo("GPU0 -> nearest NIC mlx5_1: SYS");
    assertThat(Topology.worst(t, List.of()).relation()).as("no usable HCA known: every NIC counts").isEqualTo("PIX");
  }

  @Test
  void onATieTheFirstNearestNicIsNamed() {
    // PXB and PSB are as near as each other
    Topology.Worst w = Topology.worst(topo(true, row("PXB", "PSB"), row("PXB", "PSB")), List.of("mlx5_0", "mlx5_1"));

    assertThat(w).isEqualTo(new Topology.Worst("GPU0", "mlx5_0", "PXB"));
  }

  @Test
  void theGpuWhoseNearestNicIsFarthestIsTheWorst() {
    Topology.Worst w = Topology.worst(topo(true, row("PIX", "SYS"), row("SYS", "NODE")), List.of("mlx5_0", "mlx5_1"));

    assertThat(w).isEqualTo(new Topology.Worst("GPU1", "mlx5_1", "NODE"));
  }

  @Test
  void onATieTheFirstWorstGpuIsNamed() {
    Topology.Worst w = Topology.worst(topo(true, row("PXB", "SYS"), row("SYS", "PSB")), List.of("mlx5_0", "mlx5_1"));

    assertThat(w).isEqualTo(new Topology.Worst("GPU0", "mlx5_0", "PXB"));
  }

  @Test
  void withoutANicLegendTheNicIsNamedByItsColumn() {
    Topology.Worst w = Topology.worst(topo(false, row("PHB", "SYS"), row("PHB", "SYS")), List.of("mlx5_0"));

    assertThat(w.description()).isEqualTo("GPU0 -> nearest NIC NIC0: PHB");
  }
}
