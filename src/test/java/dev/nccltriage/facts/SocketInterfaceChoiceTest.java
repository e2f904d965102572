package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.SocketInterfaceChoice.Pick;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which interface NCCL will bootstrap on (and do IB's out-of-band handshake on), from the Pod's interfaces. */
class SocketInterfaceChoiceTest {

  private static PodFacts.Iface iface(String name, String... addresses) {
    return new PodFacts.Iface(name, "ether", "UP", List.of("UP"), List.of(addresses));
  }

  private static Optional<Pick> auto(String family, PodFacts.Iface... interfaces) {
    return SocketInterfaceChoice.predict(null, family, List.of(interfaces));
  }

  @Test
  void anIbInterfaceWinsOverAnEarlierEthernetOne() {
    Optional<Pick> p = auto(null, iface("eth0", "10.0.0.1/24"), iface("ib0", "192.168.1.1/24"));
    assertThat(p).hasValueSatisfying(x -> {
      assertThat(x.name()).isEqualTo("ib0");
      assertThat(x.address()).isEqualTo("192.168.1.1");
      assertThat(x.how()).contains("ib*");
    });
  }

  @Test
  void dockerIsTakenBeforeLoopback() {
    Optional<Pick> p = auto(null, iface("lo", "127.0.0.1/8", "::1/128"), iface("docker0", "172.17.0.1/16"));
    assertThat(p.map(Pick::name)).contains("docker0");
    assertThat(p.map(Pick::how)).contains("automatic: docker*");
  }

  @Test
  void loopbackIsTheLastResort() {
    Optional<Pick> p = auto(null, iface("lo", "127.0.0.1/8"));
    assertThat(p).contains(new Pick("lo", "127.0.0.1", "automatic: lo"));
  }

  @Test
  void anyInterfacesIpv4AddressIsFoundBeforeAnotherOnesIpv6() {
    Optional<Pick> p = auto(null, iface("eth0", "fd00::1/64"), iface("eth1", "10.0.0.2/24"));
    assertThat(p.map(Pick::name)).contains("eth1");
  }

  @Test
  void anInterfaceWithOnlyIpv6IsPickedWithThatAddress() {
    assertThat(auto(null, iface("eth0", "fd00::1/64")).map(Pick::address)).contains("fd00::1");
  }

  @Test
  void afInetIgnoresIpv6Addresses() {
    assertThat(auto("AF_INET", iface("eth0", "fd00::1/64"))).isEmpty();
  }

  @Test
  void afInet6TakesTheIpv6AddressOfTheFirstInterfaceThatHasOne() {
    assertThat(auto("AF_INET6", iface("eth0", "10.0.0.1/24", "fd00::1/64")).map(Pick::address)).contains("fd00::1");
    Optional<Pick> p = auto("AF_INET6", iface("eth0", "10.0.0.1/24"), iface("eth1", "fd00::2/64"));
    assertThat(p.map(Pick::name)).contains("eth1");
  }

  @Test
  void afInet6SkipsInterfacesTheIfnameDoesNotSelect() {
    Optional<Pick> p = SocketInterfaceChoice.predict("eth1", "AF_INET6",
        List.of(iface("eth0", "fd00::1/64"), iface("eth1", "fd00::2/64")));
    assertThat(p.map(Pick::name)).contains("eth1");
    assertThat(p.map(Pick::how)).contains("NCCL_SOCKET_IFNAME=eth1");
  }

  @Test
  void theIpv6LoopbackAddressIsNoAddressToBootstrapOn() {
    assertThat(auto("AF_INET6", iface("lo", "::1/128"))).isEmpty();
    assertThat(auto("AF_INET6", iface("lo", "::1/128"), iface("eth0", "fd00::3 scope global")).map(Pick::address))
        .contains("fd00::3");
  }

  @Test
  void aOneCharacterSocketIfnameIsIgnoredAsNcclIgnoresIt() {
    // ncclFindInterfaces honours NCCL_SOCKET_IFNAME only when strlen > 1: "^" alone leaves the automatic order
    List<PodFacts.Iface> ifs = List.of(iface("eth0", "10.244.0.5/24"), iface("ib0", "192.168.10.1/24"));
    assertThat(SocketInterfaceChoice.predict("^", null, ifs))
        .contains(new Pick("ib0", "192.168.10.1", "automatic: the first ib* interface"));
    assertThat(SocketInterfaceChoice.predict("^=ib0", null, ifs))
        .contains(new Pick("eth0", "10.244.0.5", "NCCL_SOCKET_IFNAME=^=ib0"));
  }
}
