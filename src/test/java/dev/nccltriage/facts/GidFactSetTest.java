package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pod.gid* facts: which RoCE ports NCCL would use, and what the GID index it uses holds there. */
class GidFactSetTest {
  private static final String LL = "fe80:0000:0000:0000:a288:c2ff:fe5b:03ec";
  private static final String V4 = "0000:0000:0000:0000:0000:ffff:0b00:0048";
  private static final String V6 = "2001:0db8:0000:0000:0000:0000:0000:0048";

  private static PodFacts.Gid gid(int index, String gid, Integer version) {
    String kind = gid.startsWith("fe80") ? "link-local" : gid.startsWith("0000:0000:0000:0000:0000:ffff") ? "ipv4" : "ipv6";
    return new PodFacts.Gid(index, gid, kind, kind.equals("ipv4") ? "11.0.0.72" : null, version, "net1");
  }

  /** The canonical table: link-local v1/v2 at 0/1, the IPv4-mapped GID v1/v2 at 2/3. */
  private static PodFacts.PortGids canonical(String hca, String source) {
    return new PodFacts.PortGids(hca, 1, source, List.of(gid(0, LL, 1), gid(1, LL, 2), gid(2, V4, 1), gid(3, V4, 2)));
  }

  private static PodFacts.Port active(String hca, int port, String state) {
    return new PodFacts.Port(hca, port, state, null, "Ethernet", null, null);
  }

  private static FactSet facts(Map<String, String> env, List<PodFacts.Port> ports, PodFacts.PortGids... gids) {
    PodFacts p = new PodFacts(null, new PodFacts.Hcas("ok", "sysfs", List.of(), List.of(), ports), null, null, null,
        null, null, new PodFacts.Gids("ok", List.of(gids)), env, "pod", Map.of());
    FactSet s = new FactSet();
    GidFactSet.add(s, p, List.of(new Evidence("environment", 0, "NCCL_IB_GID_INDEX=" + env.get("NCCL_IB_GID_INDEX"))));
    return s;
  }

  private static Optional<Object> value(FactSet s, String name) {
    return s.get(name).map(FactValue::value);
  }

  private static List<Evidence> cited(FactSet s, String name) {
    return s.get(name).map(FactValue::evidence).orElse(List.of());
  }

  @Test
  void theSourceOfTheTablesLeavesOutPortsWhoseTableWasUnreadable() {
    FactSet s = facts(Map.of(), List.of(active("mlx5_0", 1, "ACTIVE"), active("mlx5_1", 1, "ACTIVE")),
        new PodFacts.PortGids("mlx5_1", 1, "unreadable", List.of()), canonical("mlx5_0", "sysfs"));
    assertThat(value(s, "probe.gids")).contains("sysfs");
    assertThat(value(s, "pod.gidWantedIndexes")).contains(List.of("3"));
  }

  @Test
  void onlyActivePortsWithTheSameNumberAreJudged() {
    List<PodFacts.Port> ports = List.of(active("mlx5_0", 1, "DOWN"), active("mlx5_1", 2, "ACTIVE"), active("mlx5_2", 1, null));
    FactSet s = facts(Map.of(), ports, canonical("mlx5_0", "sysfs"), canonical("mlx5_1", "sysfs"), canonical("mlx5_2", "sysfs"));
    assertThat((String) value(s, "pod.gidSummary").orElseThrow()).contains("on the one RoCE port");
  }

  @Test
  void aPortWithoutTheWantedGidIsMissingAndCitesItsTable() {
    PodFacts.PortGids noV4 = new PodFacts.PortGids("mlx5_0", 1, "sysfs", List.of(gid(0, LL, 1), gid(1, LL, 2)));
    FactSet s = facts(Map.of(), List.of(active("mlx5_0", 1, "ACTIVE")), noV4);
    assertThat(value(s, "pod.gidWantedMissing")).contains(List.of("mlx5_0/1"));
    assertThat(cited(s, "pod.gidWantedMissing")).anySatisfy(e -> {
      assertThat(e.source()).isEqualTo("/sys/class/infiniband/mlx5_0/ports/1/gids");
      assertThat(e.text()).contains("no RoCE v2").contains("among 2 in use");
    });
    assertThat((String) value(s, "pod.gidSummary").orElseThrow()).contains("GID on the one RoCE port");
  }

  @Test
  void aShowGidsPortWithoutTheWantedGidCitesShowGids() {
    PodFacts.PortGids noV4 = new PodFacts.PortGids("mlx5_0", 1, "show_gids", List.of(gid(0, LL, 1)));
    FactSet s = facts(Map.of(), List.of(active("mlx5_0", 1, "ACTIVE")), noV4);
    assertThat(cited(s, "pod.gidWantedMissing")).extracting(Evidence::source).contains("show_gids");
  }

  @Test
  void anIndexHoldingDifferentWrongGidsOnTwoPortsNamesEachWithItsPorts() {
    PodFacts.PortGids a = canonical("mlx5_0", "sysfs");
    PodFacts.PortGids b = new PodFacts.PortGids("mlx5_1", 1, "sysfs",
        List.of(gid(0, V6, 2), gid(1, LL, 2), gid(2, V4, 1), gid(3, V4, 2)));
    FactSet s = facts(Map.of("NCCL_IB_GID_INDEX", "0"), List.of(active("mlx5_0", 1, "ACTIVE"), active("mlx5_1", 1, "ACTIVE")), a, b);
    String holds = (String) value(s, "pod.gidEnvIndexHolds").orElseThrow();
    assertThat(holds).contains("(mlx5_0/1)").contains("(mlx5_1/1)");
  }

  @Test
  void aWrongEnvIndexCitesAtMostFourLinesWithoutRepeats() {
    PodFacts.PortGids a = canonical("mlx5_0", "sysfs");
    PodFacts.PortGids b = canonical("mlx5_1", "sysfs");
    FactSet s = facts(Map.of("NCCL_IB_GID_INDEX", "0"), List.of(active("mlx5_0", 1, "ACTIVE"), active("mlx5_1", 1, "ACTIVE")), a, b);
    assertThat(value(s, "pod.gidEnvIndexWrong")).contains(List.of("mlx5_0/1", "mlx5_1/1"));
    List<Evidence> ev = cited(s, "pod.gidEnvIndexWrong");
    assertThat(ev).hasSize(4).doesNotHaveDuplicates();
  }

  @Test
  void unsetIndexWithUnreadableTypesSaysTheIndexCannotBeTold() {
    PodFacts.PortGids a = new PodFacts.PortGids("mlx5_0", 1, "sysfs", List.of(gid(0, LL, 1), gid(1, V4, 2), gid(2, V4, null)));
    FactSet s = facts(Map.of(), List.of(active("mlx5_0", 1, "ACTIVE")), a);
    assertThat((String) value(s, "pod.gidSummary").orElseThrow()).contains("an index that cannot be told");
  }

  @Test
  void unsetIndexCountsThePortsWhoseIndexCannotBeTold() {
    PodFacts.PortGids a = new PodFacts.PortGids("mlx5_0", 1, "sysfs", List.of(gid(0, LL, 1), gid(1, V4, 2), gid(2, V4, null)));
    FactSet s = facts(Map.of(), List.of(active("mlx5_0", 1, "ACTIVE"), active("mlx5_1", 1, "ACTIVE")), a,
        canonical("mlx5_1", "sysfs"));
    assertThat((String) value(s, "pod.gidSummary").orElseThrow()).endsWith("index 3 on 1 of 2, unknown on 1, NCCL before 2.21 index 0 (a link-local RoCE v1 GID)");
  }

  @Test
  void anAddressRangeLeavesTheAutomaticIndexUnpredicted() {
    FactSet s = facts(Map.of("NCCL_IB_ADDR_RANGE", "10.0.0.0/8"), List.of(active("mlx5_0", 1, "ACTIVE")),
        canonical("mlx5_0", "sysfs"));
    assertThat((String) value(s, "pod.gidSummary").orElseThrow()).contains("within NCCL_IB_ADDR_RANGE (not predicted)");
  }
}
