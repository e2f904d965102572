package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.IpAddr.Address;
import dev.nccltriage.source.probe.parse.IpAddr.Interface;
import dev.nccltriage.source.probe.parse.IpAddr.Result;
import org.junit.jupiter.api.Test;

class IpAddrTest {

  private static Result sample(String name) {
    return IpAddr.parse(Fixtures.read("ip-addr/" + name));
  }

  @Test
  void hostRoceNetdev() {
    Result r = sample("3fs-263-host-roce-netdev-for-rxe");
    assertThat(r.json()).isFalse();
    assertThat(r.interfaces()).extracting(Interface::name).containsExactly("lo", "enp0s3", "p1p1");
    Interface lo = r.byName("lo");
    assertThat(lo.linkType()).isEqualTo("loopback");
    assertThat(lo.state()).isEqualTo("UNKNOWN");
    assertThat(lo.mtu()).isEqualTo(65536);
    assertThat(lo.addresses()).containsExactly(
        new Address("inet", "127.0.0.1", 8, "host", "lo"),
        new Address("inet6", "::1", 128, "host", null));
    Interface enp = r.byName("enp0s3");
    assertThat(enp.addresses().get(0)).isEqualTo(
        new Address("inet", "10.0.2.15", 24, "global", "enp0s3")); // "metric 100" skipped
    assertThat(enp.addresses()).hasSize(3);
    Interface p1 = r.byName("p1p1");
    assertThat(p1.index()).isEqualTo(3);
    assertThat(p1.flags()).containsExactly("BROADCAST", "MULTICAST", "UP", "LOWER_UP");
    assertThat(p1.mac()).isEqualTo("08:00:27:36:f4:fc");
    assertThat(p1.state()).isEqualTo("UP");
    assertThat(p1.addresses().get(0).address()).isEqualTo("192.168.56.102");
  }

  @Test
  void flattenedIndentation() {
    Result r = sample("3fs-283-flattened-indentation-roce");
    assertThat(r.interfaces()).extracting(Interface::name).containsExactly("lo", "p1p1", "p1p2");
    Interface p1 = r.byName("p1p1");
    assertThat(p1.linkType()).isEqualTo("ether");
    assertThat(p1.mac()).isEqualTo("9c:63:c0:c5:47:a4");
    assertThat(p1.addresses()).containsExactly(
        new Address("inet", "192.168.56.106", 24, "global", "en01"),
        new Address("inet6", "fe80::9e63:c0ff:fec5:47a4", 64, "link", null));
    Interface p2 = r.byName("p1p2"); // excerpt ends at its header
    assertThat(p2.state()).isEqualTo("UP");
    assertThat(p2.linkType()).isNull();
    assertThat(p2.addresses()).isEmpty();
  }

  @Test
  void podWithoutEth0TunlAtNone() {
    Result r = sample("calicoctl-1634-pod-netns-without-eth0");
    assertThat(r.interfaces()).extracting(Interface::name).containsExactly("lo", "tunl0");
    Interface t = r.byName("tunl0");
    assertThat(t.peerIfindex()).isNull();
    assertThat(t.parent()).isNull();
    assertThat(t.linkType()).isEqualTo("ipip");
    assertThat(t.mac()).isEqualTo("0.0.0.0");
    assertThat(t.state()).isEqualTo("DOWN");
    assertThat(r.byName("eth0")).isNull();
  }

  @Test
  void jsonFixture() {
    Result r = sample("cloud-init-fixture-ip-json-addr-show");
    assertThat(r.json()).isTrue();
    assertThat(r.interfaces()).hasSize(2);
    Interface e = r.byName("enp0s25");
    assertThat(e.index()).isEqualTo(23);
    assertThat(e.peerIfindex()).isEqualTo(24);
    assertThat(e.linkNetnsid()).isZero();
    assertThat(e.linkType()).isEqualTo("ether");
    assertThat(e.mac()).isEqualTo("50:7b:9d:2c:af:91");
    assertThat(e.state()).isEqualTo("UP");
    assertThat(e.mtu()).isEqualTo(1500);
    assertThat(e.addresses()).extracting(Address::address).containsExactly(
        "192.168.2.18", "fe80::7777:2222:1111:eeee", "fe80::8107:2b92:867e:f8a6");
    assertThat(e.addresses().get(0)).isEqualTo(
        new Address("inet", "192.168.2.18", 24, "global", "enp0s25"));
    assertThat(r.byName("lo").linkType()).isEqualTo("loopback");
  }

  @Test
  void podEth0AtIf7() {
    Result r = sample("k8s-website-530-pod-eth0-at-if7");
    Interface e = r.byName("eth0");
    assertThat(e.index()).isEqualTo(6);
    assertThat(e.peerIfindex()).isEqualTo(7);
    assertThat(e.parent()).isNull();
    assertThat(e.addresses().get(0)).isEqualTo(
        new Address("inet", "172.17.0.2", 16, "global", "eth0"));
  }

  @Test
  void ipoibLinkInfinibandAltnameIndented() {
    Result r = sample("spiderpool-doc-host-ipoib-ibs5f0-link-infiniband");
    assertThat(r.interfaces()).singleElement().satisfies(i -> {
      assertThat(i.index()).isEqualTo(9);
      assertThat(i.name()).isEqualTo("ibs5f0");
      assertThat(i.mtu()).isEqualTo(2044);
      assertThat(i.linkType()).isEqualTo("infiniband");
      assertThat(i.mac()).isEqualTo(
          "00:00:10:49:fe:80:00:00:00:00:00:00:e8:eb:d3:03:00:93:ae:10");
      assertThat(i.altnames()).containsExactly("ibp134s0f0");
      assertThat(i.addresses()).extracting(Address::address)
          .containsExactly("172.91.0.10", "fd00:91::172:91:0:10", "fe80::eaeb:d303:93:ae10");
      assertThat(i.addresses().get(1).scope()).isEqualTo("global");
    });
  }

  @Test
  void podCalicoEth0AndSriovNet1Net2() {
    Result r = sample("spiderpool-doc-pod-calico-eth0-at-if-sriov-net1");
    assertThat(r.interfaces()).extracting(Interface::name)
        .containsExactly("lo", "tunl0", "eth0", "net1", "net2");
    Interface eth0 = r.byName("eth0");
    assertThat(eth0.peerIfindex()).isEqualTo(356);
    assertThat(eth0.linkNetnsid()).isZero();
    assertThat(eth0.mtu()).isEqualTo(1480);
    assertThat(eth0.addresses().get(0)).isEqualTo(
        new Address("inet", "10.233.119.164", 32, "global", "eth0"));
    Interface net1 = r.byName("net1");
    assertThat(net1.index()).isEqualTo(269);
    assertThat(net1.peerIfindex()).isNull();
    assertThat(net1.addresses().get(0).address()).isEqualTo("172.16.11.10");
    Interface net2 = r.byName("net2");
    assertThat(net2.index()).isEqualTo(239);
    assertThat(net2.addresses().get(0).label()).isEqualTo("net1"); // as the doc printed it
  }

  @Test
  void macvlanParentNameMasterAndCrlf() {
    String t = "5: macvlan0@eth0: <BROADCAST,UP> mtu 9000 qdisc noqueue master br0 state "
        + "LOWERLAYERDOWN group default\r\n    link/ether aa:bb:cc:dd:ee:ff brd ff:ff:ff:ff:ff:ff\r\n"
        + "    inet 10.0.0.1 peer 10.0.0.2/32 scope global macvlan0\r\n";
    Interface i = IpAddr.parse(t).interfaces().get(0);
    assertThat(i.name()).isEqualTo("macvlan0");
    assertThat(i.parent()).isEqualTo("eth0");
    assertThat(i.master()).isEqualTo("br0");
    assertThat(i.state()).isEqualTo("LOWERLAYERDOWN");
    assertThat(i.addresses().get(0)).isEqualTo(
        new Address("inet", "10.0.0.1", 32, "global", "macvlan0"));
  }

  @Test
  void compactJsonAfterPromptWithNullLink() {
    String t = "root@pod:/# ip -j addr\n[{\"ifindex\":2,\"link\":null,\"ifname\":\"tunl0\","
        + "\"flags\":[\"NOARP\"],\"mtu\":1480,\"operstate\":\"DOWN\",\"link_type\":\"ipip\","
        + "\"address\":\"0.0.0.0\",\"altnames\":[\"x\"],\"addr_info\":[{\"family\":\"inet\"}]}]\n";
    Result r = IpAddr.parse(t);
    assertThat(r.json()).isTrue();
    Interface i = r.interfaces().get(0);
    assertThat(i.parent()).isNull();
    assertThat(i.peerIfindex()).isNull();
    assertThat(i.altnames()).containsExactly("x");
    assertThat(i.addresses()).isEmpty(); // entry without "local"
  }

  @Test
  void linesCutByTheTerminalKeepWhatTheyHold() {
    // the spiderpool pod paste with lines cut right after a keyword (a narrow terminal, a
    // copy that stopped short): the keyword's value is unknown, everything else is read
    String t = "3: eth0@if356: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1480 qdisc noqueue state UP\n"
        + "    link/ether ca:39:52:fc:61:cd brd ff:ff:ff:ff:ff:ff link-netnsid\n"
        + "    inet 10.233.119.164 peer\n"
        + "    inet 10.233.119.165/32 scope\n"
        + "    inet 10.233.119.166/32 scope global\n"
        + "    inet 10.233.119.167/32 scope global eth0\n";
    Interface e = IpAddr.parse(t).byName("eth0");
    assertThat(e.mac()).isEqualTo("ca:39:52:fc:61:cd");
    assertThat(e.linkNetnsid()).isNull();
    assertThat(e.addresses()).containsExactly(
        new Address("inet", "10.233.119.164", null, null, null),
        new Address("inet", "10.233.119.165", 32, null, null),
        new Address("inet", "10.233.119.166", 32, "global", null),
        new Address("inet", "10.233.119.167", 32, "global", "eth0"));
  }
}
