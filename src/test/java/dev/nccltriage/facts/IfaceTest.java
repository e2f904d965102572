package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What an interface NCCL printed says about reaching other nodes. */
class IfaceTest {

  @Test
  void anInterfaceRendersAsNcclPrintsIt() {
    assertThat(new Iface("net1", "10.0.0.1<0>").render()).isEqualTo("net1:10.0.0.1<0>");
    assertThat(new Iface("net1", null).render()).isEqualTo("net1");
  }

  @Test
  void loopbackIsLoOrALoopbackAddress() {
    assertThat(new Iface("lo", null).isLoopback()).isTrue();
    assertThat(new Iface("eth0", "127.0.0.1").isLoopback()).isTrue();
    assertThat(new Iface("eth0", "::1").isLoopback()).isTrue();
    assertThat(new Iface("eth0", "10.0.0.1").isLoopback()).isFalse();
    assertThat(new Iface("eth0", null).isLoopback()).isFalse();
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
      "10.0.0.1, IPv4",
      "::1, IPv6",
      "fd00:1::5, IPv6",
      "fe80::1, IPv6 link-local",
      "FEBF::1, IPv6 link-local",
      "fec0::1, IPv6",
      "'', unknown",
  })
  void theFamilyOfAnAddress(String address, String family) {
    assertThat(new Iface("net1", address).family()).isEqualTo(family);
  }

  @Test
  void noAddressIsAnUnknownFamilyAndNotLinkLocal() {
    assertThat(new Iface("net1", null).family()).isEqualTo("unknown");
    assertThat(new Iface("net1", null).isLinkLocal()).isFalse();
  }

  @Test
  void theFirstThreeCharactersDecideLinkLocal() {
    // fe80::/10 is fe8x..febx: three characters are enough to tell, two are not
    assertThat(new Iface("net1", "fe8").isLinkLocal()).isTrue();
    assertThat(new Iface("net1", "fe").isLinkLocal()).isFalse();
  }

  @Test
  void aNameOrAddressNoHostHasIsCutAtItsLimit() {
    String name = "eth0".repeat(5000);
    Iface f = new Iface(name, "10.0.0.1".repeat(100));
    assertThat(f.name()).hasSize(Iface.MAX).startsWith("eth0eth0").endsWith("…");
    assertThat(f.address()).hasSize(Iface.MAX).endsWith("…");
    assertThat(new Iface("enp1s0f0np0", "fe80::1%enp1s0f0np0")).isEqualTo(new Iface("enp1s0f0np0", "fe80::1%enp1s0f0np0"));
    assertThat(new Iface("x".repeat(Iface.MAX), null).name()).hasSize(Iface.MAX).doesNotContain("…");
  }
}
