package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 1 for the probes that use the parsed port numbers: a port number that does not fit an
 * int (4294967296) keeps the port, counted with its state, link layer and rate, and an unknown port
 * never matches another unknown port (nor port 0, which a wrapped number would give).
 */
class UnknownPortNumberTest {
  private static final String H = "4294967296";

  @TempDir Path dir;

  private static CommandResult ok(String cmd, String stdout) {
    return new CommandResult(List.of(cmd), "ok", 0, stdout, "", 1, 0, false);
  }

  private static PodFacts.Devices devices() {
    return new PodFacts.Devices("ok", true, List.of("uverbs0"), Map.of("uverbs0", "mlx5_0"), Map.of(), false, List.of());
  }

  @Test
  void anIbvDevinfoPortThatDoesNotFitIsCountedWithItsStateAndLinkLayer() {
    CommandResult devinfo = ok("ibv_devinfo", "hca_id:\tmlx5_0\n\ttransport:\t\t\tInfiniBand (0)\n"
        + "\t\tport:\t" + H + "\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tlink_layer:\t\tEthernet\n");
    PodFacts.Hcas hcas = new HcaProbe(new HostRoot(dir), new EvidenceBook()).probe(devices(), devinfo);

    assertThat(hcas.ports()).singleElement().satisfies(p -> {
      assertThat(p.hca()).isEqualTo("mlx5_0");
      assertThat(p.port()).isNull();
      assertThat(p.state()).isEqualTo("ACTIVE");
      assertThat(p.linkLayer()).isEqualTo("Ethernet");
    });
  }

  @Test
  void aSysfsPortDirectoryThatDoesNotFitIsCountedWithItsRate() throws IOException {
    Path port = dir.resolve("sys/class/infiniband/mlx5_0/ports/" + H);
    Files.createDirectories(port);
    Files.writeString(port.resolve("state"), "4: ACTIVE\n");
    Files.writeString(port.resolve("phys_state"), "5: LinkUp\n");
    Files.writeString(port.resolve("link_layer"), "InfiniBand\n");
    Files.writeString(port.resolve("rate"), "400 Gb/sec (4X NDR)\n");
    PodFacts.Hcas hcas = new HcaProbe(new HostRoot(dir), new EvidenceBook())
        .probe(devices(), CommandResult.missing(List.of("ibv_devinfo")));

    assertThat(hcas.ports()).singleElement().satisfies(p -> {
      assertThat(p.port()).isNull();
      assertThat(p.state()).isEqualTo("ACTIVE");
      assertThat(p.linkLayer()).isEqualTo("InfiniBand");
      assertThat(p.rateGbps()).isEqualTo(400.0);
    });
  }

  @Test
  void anUnknownPortTakesNoNetdevFromAnotherUnknownPort() throws IOException {
    Files.createDirectories(dir.resolve("sys/class/net/net1"));
    PodFacts.Hcas hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0"), List.of("mlx5_0"),
        List.of(new PodFacts.Port("mlx5_0", null, "ACTIVE", null, "Ethernet", null, null)));
    CommandResult links = ok("rdma -j link", "[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":" + H
        + ",\"state\":\"ACTIVE\",\"netdev\":\"net1\"}]");
    PodFacts.Rdma r = new NetworkProbe(new HostRoot(dir), new EvidenceBook()).rdma(links, () -> links,
        CommandResult.missing(List.of("rdma")), () -> CommandResult.missing(List.of("rdma")), hcas,
        new PodFacts.Interfaces("ok", "ip", List.of()));

    assertThat(r.netdevsHere()).as("net1 belongs to a port whose number is unknown, not to this one").isEmpty();
    assertThat(r.rocePortsNoNetdev()).isEqualTo(1);
  }

  @Test
  void aKnownPortStillFindsItsNetdev() throws IOException {
    Files.createDirectories(dir.resolve("sys/class/net/net1"));
    PodFacts.Hcas hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0"), List.of("mlx5_0"),
        List.of(new PodFacts.Port("mlx5_0", 1, "ACTIVE", null, "Ethernet", null, null)));
    CommandResult links = ok("rdma -j link", "[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":1,\"netdev\":\"net1\"},"
        + "{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":" + H + ",\"netdev\":\"net9\"}]");
    PodFacts.Rdma r = new NetworkProbe(new HostRoot(dir), new EvidenceBook()).rdma(links, () -> links,
        CommandResult.missing(List.of("rdma")), () -> CommandResult.missing(List.of("rdma")), hcas,
        new PodFacts.Interfaces("ok", "ip", List.of()));

    assertThat(r.netdevsHere()).containsExactly("net1");
  }
}
