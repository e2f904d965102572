package dev.nccltriage.source.probe;

import dev.nccltriage.host.CommandResult;
import dev.nccltriage.source.probe.parse.NvidiaSmiTopo;
import java.util.List;
import java.util.Map;

/** The worst GPU-to-nearest-NIC path of `nvidia-smi topo -m`, over the NICs the Pod can use. */
final class Topology {
  private static final Map<String, Integer> RANK =
      Map.of("PIX", 1, "PXB", 2, "PSB", 2, "PHB", 3, "NODE", 4, "SOC", 5, "SYS", 5);

  record Worst(String gpu, String nic, String relation) {
    String description() {
      return gpu + " -> nearest NIC " + nic + ": " + relation;
    }
  }

  private Topology() {}

  static Worst worst(CommandResult topo, List<String> usableHcas) {
    if (!topo.ok()) {
      return null;
    }
    NvidiaSmiTopo.Result t = NvidiaSmiTopo.parse(topo.stdout());
    if (t.gpus().isEmpty() || t.nics().isEmpty()) {
      return null;
    }
    List<NvidiaSmiTopo.Nic> nics = t.nics().stream()
        .filter(n -> usableHcas.isEmpty() || n.ibdev() == null || usableHcas.contains(n.ibdev())).toList();
    Worst worst = null;
    for (NvidiaSmiTopo.Gpu g : t.gpus()) {
      Worst best = null;
      for (NvidiaSmiTopo.Nic n : nics) {
        String rel = t.relation(g.label(), n.label());
        Integer rank = rel == null ? null : RANK.get(rel);
        if (rank != null && (best == null || rank < RANK.get(best.relation()))) {
          best = new Worst(g.label(), n.ibdev() == null ? n.label() : n.ibdev(), rel);
        }
      }
      if (best != null && (worst == null || RANK.get(best.relation()) > RANK.get(worst.relation()))) {
        worst = best;
      }
    }
    return worst;
  }
}
