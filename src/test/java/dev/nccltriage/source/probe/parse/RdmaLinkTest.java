package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.RdmaLink.Link;
import java.util.List;
import org.junit.jupiter.api.Test;

class RdmaLinkTest {

  private static List<Link> sample(String name) {
    return RdmaLink.parse(Fixtures.read("rdma-link/" + name)).links();
  }

  @Test
  void softRoceRxe() {
    assertThat(sample("3fs-263-softroce-rxe")).containsExactly(
        new Link("rxe_0", 1, "ACTIVE", "LINK_UP", "p1p1", null, null, null, null, null));
  }

  @Test
  void trailingSpaceAfterNetdev() {
    List<Link> l = sample("3fs-283-roce-cx6dx-active-netdev-trailing-space");
    assertThat(l).extracting(Link::dev).containsExactly("mlx5_0", "mlx5_1");
    assertThat(l).extracting(Link::netdev).containsExactly("p1p1", "p1p2");
    assertThat(l).allMatch(x -> x.state().equals("ACTIVE") && x.subnetPrefix() == null);
  }

  @Test
  void oldFormatIdxPrefixTwoCommands() {
    List<Link> l = sample("iproute2-commit-15259427-old-format-idx-prefix");
    assertThat(l).hasSize(2);
    assertThat(l.get(0)).isEqualTo(
        new Link("mlx5_3", 1, "ACTIVE", "LINK_UP", "ens7", null, null, null, null, 4));
    assertThat(l.get(1).netdevIndex()).isEqualTo(7);
  }

  @Test
  void oldFormatDetailBreaksBeforeState() {
    List<Link> l = sample("iproute2-commit-40fc8c2c-old-format-ib-caps2");
    assertThat(l).singleElement().satisfies(x -> {
      assertThat(x.dev()).isEqualTo("mlx5_0");
      assertThat(x.port()).isEqualTo(1);
      assertThat(x.ifindex()).isEqualTo(1);
      assertThat(x.subnetPrefix()).isEqualTo("fe80:0000:0000:0000");
      assertThat(x.lid()).isEqualTo(2);
      assertThat(x.smLid()).isEqualTo(2);
      assertThat(x.state()).isEqualTo("ACTIVE");
      assertThat(x.physicalState()).isEqualTo("LINK_UP");
      assertThat(x.netdev()).isNull();
    });
  }

  @Test
  void oldJsonPrettyIfnameWithPort() {
    RdmaLink.Result r = RdmaLink.parse(Fixtures.read(
        "rdma-link/iproute2-commit-7fc75744-old-json-pretty"));
    assertThat(r.links()).containsExactly(
        new Link("mlx5_0", 1, "ACTIVE", "LINK_UP", null, null, "fe80:0000:0000:0000", 13399,
            49151, 1),
        new Link("mlx5_1", 1, "ACTIVE", "LINK_UP", null, null, "fe80:0000:0000:0000", 13400,
            49151, 2));
  }

  @Test
  void newJsonFromSource() {
    String json = "[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":1,\"state\":\"ACTIVE\","
        + "\"physical_state\":\"LINK_UP\",\"netdev\":\"net1\",\"netdev_index\":3},"
        + "{\"ifindex\":1,\"ifname\":\"mlx5_1\",\"port\":1,\"subnet_prefix\":\"fe80:0000:0000:0000\","
        + "\"lid\":5,\"sm_lid\":1,\"lmc\":0,\"state\":\"DOWN\",\"physical_state\":\"POLLING\"}]";
    List<Link> l = RdmaLink.parse("$ rdma -j link\n" + json + "\n").links();
    assertThat(l).containsExactly(
        new Link("mlx5_0", 1, "ACTIVE", "LINK_UP", "net1", 3, null, null, null, 0),
        new Link("mlx5_1", 1, "DOWN", "POLLING", null, null, "fe80:0000:0000:0000", 5, 1, 1));
  }

  @Test
  void flappingJoinedPastes() {
    List<Link> l = sample("rccl-1423-ib-down-polling-then-active");
    assertThat(l).extracting(Link::state).containsExactly("DOWN", "DOWN", "ACTIVE");
    assertThat(l).extracting(Link::physicalState)
        .containsExactly("POLLING", "LINK_UP", "LINK_UP");
    assertThat(l).allMatch(x -> x.dev().equals("mlx5_7") && x.lid() == 3403);
  }

  @Test
  void indentedDocWithElision() {
    List<Link> l = sample("spiderpool-doc-pod-sriov-exclusive-netdev-net1");
    assertThat(l).extracting(Link::dev)
        .containsExactly("mlx5_27", "mlx5_54", "mlx5_67", "mlx5_98");
    assertThat(l).extracting(Link::netdev).containsExactly("net2", "net1", "net4", "net3");
  }

  @Test
  void mixedIbActiveDownDisabledAndOneRoce() {
    List<Link> l = sample("sriov-operator-635-dgx-a100-ib-mixed-active-down-disabled");
    assertThat(l).hasSize(9);
    assertThat(l.get(1)).satisfies(x -> {
      assertThat(x.state()).isEqualTo("DOWN");
      assertThat(x.physicalState()).isEqualTo("DISABLED");
      assertThat(x.lid()).isEqualTo(65535);
    });
    assertThat(l.get(4)).isEqualTo(new Link("mlx5_4", 1, "ACTIVE", "LINK_UP", "enp97s0f0", null,
        null, null, null, null));
    assertThat(l).filteredOn(x -> x.state().equals("ACTIVE")).hasSize(5);
  }

  @Test
  void crlfTabsAndMissingNetdev() {
    List<Link> l = RdmaLink.parse("link mlx5_0/1 state ACTIVE physical_state LINK_UP \r\n"
        + "\tlink\tmlx5_1/2\tstate\tDOWN\tphysical_state\tDISABLED\tnetdev\tens1f1\r\n").links();
    assertThat(l).hasSize(2);
    assertThat(l.get(0).netdev()).isNull();
    assertThat(l.get(1).port()).isEqualTo(2);
    assertThat(l.get(1).netdev()).isEqualTo("ens1f1");
  }

  @Test
  void errorLinesAreMessagesProseIsNot() {
    // lines of the kinds rdma and the shell print instead of links (wording approximate), among
    // a real link line and prose
    String text = "root@node102:~# rdma link show mlx5_9/1\n"
        + "Wrong device name\n"
        + "root@node102:~# rdma link show mlx5_0/7\n"
        + "Wrong port index 7\n"
        + "root@node102:~# rdma lnk\n"
        + "Unknown object \"lnk\"\n"
        + "error: netlink answer is not valid\n"
        + "Error: Could not talk to the kernel\n"
        + "bash: rdma: command not found\n"
        + "iproute2 not found in the image\n"
        + "link rxe_0/1 state ACTIVE physical_state LINK_UP netdev p1p1\n"
        + "Here the port came up after a while.\n";
    RdmaLink.Result r = RdmaLink.parse(text);
    assertThat(r.messages()).containsExactly("Wrong device name", "Wrong port index 7",
        "Unknown object \"lnk\"", "error: netlink answer is not valid",
        "Error: Could not talk to the kernel", "bash: rdma: command not found",
        "iproute2 not found in the image");
    assertThat(r.links()).extracting(Link::dev).containsExactly("rxe_0");
  }
}
