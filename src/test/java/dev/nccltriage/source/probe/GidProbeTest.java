package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RoCE GID tables as a user reads them: the GIDs in use per port, from sysfs or else a recorded
 * show_gids, the evidence line per port, and the bounds that keep a hostile capture from costing
 * unbounded reads.
 */
class GidProbeTest {
  private static final CommandResult NO_SHOW_GIDS = CommandResult.missing(GidProbe.SHOW_GIDS);

  @TempDir Path dir;
  private final EvidenceBook book = new EvidenceBook();

  private static PodFacts.Hcas roce(String hca, int... ports) {
    List<PodFacts.Port> list = new ArrayList<>();
    for (int p : ports) {
      list.add(new PodFacts.Port(hca, p, "ACTIVE", null, "Ethernet", null, null));
    }
    return new PodFacts.Hcas("ok", "sysfs", List.of(hca), List.of(hca), list);
  }

  /** A sysfs GID table of {@code size} IPv4-mapped entries (10.0.i/256.i%256). */
  private void table(String hca, int port, int size) throws IOException {
    Path gids = Files.createDirectories(dir.resolve("sys/class/infiniband/" + hca + "/ports/" + port + "/gids"));
    for (int i = 0; i < size; i++) {
      Files.writeString(gids.resolve(String.valueOf(i)),
          String.format("0000:0000:0000:0000:0000:ffff:0a00:%04x%n", i));
    }
  }

  private PodFacts.Gids probe(PodFacts.Hcas hcas, CommandResult showGids) {
    return new GidProbe(new HostRoot(dir), book).probe(hcas, showGids);
  }

  @Test
  void aSysfsTableIsCountedAndCitedFromSysfs() throws IOException {
    table("mlx5_0", 1, 2);
    PodFacts.Gids g = probe(roce("mlx5_0", 1), NO_SHOW_GIDS);

    assertThat(g.status()).isEqualTo("ok");
    assertThat(g.ports()).singleElement().satisfies(p -> {
      assertThat(p.source()).isEqualTo("sysfs");
      assertThat(p.gids()).extracting(PodFacts.Gid::index).containsExactly(0, 1);
    });
    assertThat(book.snapshot().get("pod.gids"))
        .containsExactly(new Evidence("/sys/class/infiniband/mlx5_0/ports/1/gids", 0, "mlx5_0 port 1: 2 GID(s) in use"));
  }

  @Test
  void aTableIsReadUpToIndex255() throws IOException {
    table("mlx5_0", 1, 257);
    PodFacts.Gids g = probe(roce("mlx5_0", 1), NO_SHOW_GIDS);

    assertThat(g.ports().get(0).gids()).hasSize(GidProbe.MAX_INDEX)
        .last().extracting(PodFacts.Gid::index).isEqualTo(255);
  }

  @Test
  void readsStopAfter8192SysfsReadsOverAllPorts() throws IOException {
    int full = GidProbe.MAX_READS / GidProbe.MAX_INDEX;
    int[] ports = new int[full + 1];
    for (int p = 1; p <= full + 1; p++) {
      table("mlx5_0", p, GidProbe.MAX_INDEX);
      ports[p - 1] = p;
    }
    PodFacts.Gids g = probe(roce("mlx5_0", ports), NO_SHOW_GIDS);

    assertThat(g.ports()).hasSize(full + 1);
    assertThat(g.ports().get(full - 1).gids()).hasSize(GidProbe.MAX_INDEX);
    assertThat(g.ports().get(full).source()).as("the budget was spent before this port").isEqualTo("unreadable");
  }

  @Test
  void withoutASysfsTableARecordedShowGidsIsUsedInIndexOrder() {
    CommandResult showGids = new CommandResult(GidProbe.SHOW_GIDS, "ok", 0,
        "mlx5_0\t1\t3\t0000:0000:0000:0000:0000:ffff:c0a8:640a\t192.168.100.10\tv2\tnet1\n"
            + "mlx5_0\t1\t1\tfe80:0000:0000:0000:5054:00ff:fe12:3456\t\tv2\tnet1\n", "", 1, 0, false);
    PodFacts.Gids g = probe(roce("mlx5_0", 1), showGids);

    assertThat(g.ports()).singleElement().satisfies(p -> {
      assertThat(p.source()).isEqualTo("show_gids");
      assertThat(p.gids()).extracting(PodFacts.Gid::index).containsExactly(1, 3);
    });
    assertThat(book.snapshot().get("pod.gids"))
        .containsExactly(new Evidence("show_gids", 0, "mlx5_0 port 1: 2 GID(s) in use"));
  }

  @Test
  void aPortWithNoReadableTableSaysSo() {
    PodFacts.Gids g = probe(roce("mlx5_0", 1), NO_SHOW_GIDS);

    assertThat(g.status()).isEqualTo("unreadable");
    assertThat(book.snapshot().get("pod.gids"))
        .containsExactly(new Evidence("/sys/class/infiniband/mlx5_0/ports/1/gids", 0, "mlx5_0 port 1: no GID table readable"));
  }
}
