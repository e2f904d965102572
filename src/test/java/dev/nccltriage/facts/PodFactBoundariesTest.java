package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Boundaries of what the container's facts say, each stated as the behaviour a rule relies on:
 * DMA-BUF needs kernel 5.12 or later with the open module; an IPv6 link-local address does not
 * make an interface reachable from other nodes; memlock sizes are read as the limit a person
 * wrote; a network NCCL names is RDMA, not RDMA or unknown, never guessed.
 */
class PodFactBoundariesTest {

  private static PodFacts pod(String kernel, String module, List<PodFacts.Iface> ifaces, Long memlock) {
    return new PodFacts(
        new PodFacts.Devices("ok", true, List.of("uverbs0"), Map.of("uverbs0", "mlx5_0"), Map.of("uverbs0", "ok"),
            true, List.of()),
        new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0"), List.of("mlx5_0"),
            List.of(new PodFacts.Port("mlx5_0", 1, "ACTIVE", "LINK_UP", "InfiniBand", 200.0, null))),
        new PodFacts.Rdma("ok", "exclusive", List.of(), 0),
        new PodFacts.Interfaces("ok", "ip -j addr", ifaces),
        new PodFacts.Memlock("ok", "self", memlock, true),
        new PodFacts.GpuDirect("ok", false, false, false, kernel, module, "550.54", 8, List.of(), null, "ok"),
        new PodFacts.Verbs("ok", "/usr/lib/libibverbs.so.1", List.of("mlx5"), List.of(), null),
        new PodFacts.Gids("n/a", List.of()),
        Map.of(), "self", Map.of());
  }

  private static FactSet facts(PodFacts p, Expectations e) {
    FactSet s = new FactSet();
    PodFactSet.add(s, p, e, false);
    return s;
  }

  private static Optional<Object> value(FactSet s, String name) {
    return s.get(name).map(FactValue::value);
  }

  private static PodFacts.Iface iface(String name, String... addresses) {
    return new PodFacts.Iface(name, "ether", "UP", List.of("UP", "LOWER_UP"), List.of(addresses));
  }

  @ParameterizedTest(name = "kernel {0}, {1} module: DMA-BUF possible = {2}")
  @CsvSource({
      "5.11.22, open, false",
      "5.12.0, open, true",
      "5.12, open, true",
      "6.8.0-45-generic, open, true",
      "5.4.0, open, false",
      "6.8.0, proprietary, false",
  })
  void dmabufNeedsKernel512AndTheOpenModule(String kernel, String module, boolean possible) {
    assertThat(value(facts(pod(kernel, module, List.of(), null), Expectations.NONE), "pod.dmabufPossible"))
        .contains(possible);
  }

  @Test
  void dmabufIsUnknownWithoutTheKernelOrTheModule() {
    assertThat(value(facts(pod(null, "open", List.of(), null), Expectations.NONE), "pod.dmabufPossible")).isEmpty();
    assertThat(value(facts(pod("6.8.0", null, List.of(), null), Expectations.NONE), "pod.dmabufPossible")).isEmpty();
  }

  @Test
  void linkLocalOrLoopbackAddressesDoNotMakeASecondaryInterface() {
    FactSet s = facts(pod("6.8", "open", List.of(
        iface("net1", "fe80::1c2b:3fff:fe4d:5e6f/64"),
        iface("net2", "FE80::1/64"),
        iface("net3", "127.0.0.2/8"),
        iface("net4", "fe80::2/64", "10.20.0.4/24"),
        iface("net5", "fd00:1::5/64")), null), new Expectations(null, "net1", null, null));
    assertThat(value(s, "pod.secondaryInterfaces")).contains(List.of("net4", "net5"));
    assertThat(value(s, "pod.secondaryCount")).contains(2L);
    // the expected interface exists but other nodes cannot reach its only address
    assertThat(value(s, "pod.expectedIfacePresent")).contains(false);
  }

  @Test
  void anExpectedInterfaceWithARoutableAddressIsPresent() {
    FactSet s = facts(pod("6.8", "open", List.of(iface("net4", "fe80::2/64", "10.20.0.4/24")), null),
        new Expectations(null, "net4", null, null));
    assertThat(value(s, "pod.expectedIfacePresent")).contains(true);
  }

  @ParameterizedTest(name = "{0} = {1} bytes")
  @CsvSource({
      "65536, 65536",
      "64k, 65536",
      "64K, 65536",
      "64KiB, 65536",
      "64kb, 65536",
      "512M, 536870912",
      "512MiB, 536870912",
      "1G, 1073741824",
      "1g, 1073741824",
      "2T, 2199023255552",
      "unlimited, -1",
      "infinity, -1",
      "' 8m ', 8388608",
  })
  void memlockSizesReadAsPeopleWriteThem(String text, long bytes) {
    assertThat(Expectations.parseSize(text)).isEqualTo(bytes);
  }

  @ParameterizedTest(name = "\"{0}\" is refused")
  @CsvSource({"-1", "lots", "''", "12q", "99999999999T"})
  void aSizeThatIsNoSizeIsRefusedWithTheText(String text) {
    assertThatThrownBy(() -> Expectations.parseSize(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(text);
  }

  @Test
  void memlockDeficitComparesTheLimitWithTheExpectation() {
    long gib = 1L << 30;
    assertThat(value(facts(pod("6.8", "open", List.of(), 64L << 10), new Expectations(null, null, null, gib)),
        "pod.memlockDeficit")).contains(gib - (64L << 10));
    assertThat(value(facts(pod("6.8", "open", List.of(), gib), new Expectations(null, null, null, gib)),
        "pod.memlockDeficit")).contains(0L);
    assertThat(value(facts(pod("6.8", "open", List.of(), -1L), new Expectations(null, null, null, gib)),
        "pod.memlockDeficit")).as("unlimited is enough").contains(0L);
    assertThat(value(facts(pod("6.8", "open", List.of(), gib), new Expectations(null, null, null, -1L)),
        "pod.memlockDeficit")).as("a finite limit is short of an unlimited expectation").contains(1L);
    assertThat(value(facts(pod("6.8", "open", List.of(), 64L << 10), Expectations.NONE), "pod.memlockDeficit"))
        .as("no expectation, no deficit").isEmpty();
  }

  @Test
  void memlockIsShownInTheLargestWholeUnit() {
    assertThat(value(facts(pod("6.8", "open", List.of(), 64L << 10), Expectations.NONE), "pod.memlock")).contains("64 KiB");
    assertThat(value(facts(pod("6.8", "open", List.of(), 8L << 20), Expectations.NONE), "pod.memlock")).contains("8 MiB");
    assertThat(value(facts(pod("6.8", "open", List.of(), -1L), Expectations.NONE), "pod.memlock")).contains("unlimited");
    assertThat(value(facts(pod("6.8", "open", List.of(), 1000L), Expectations.NONE), "pod.memlock")).contains("1000 bytes");
  }

  @ParameterizedTest(name = "{0}: rdma = {1}")
  @CsvSource(nullValues = "unknown", value = {
      "IB, true",
      "Socket, false",
      "IBext_v8, true",
      "UCX, true",
      "AWS Libfabric, true",
      "GPUDirectTCPX_v7, false",
      "FasTrak, false",
      "gIB, true",
      "MyVendorNet, unknown",
      "Foo_v9, unknown",
  })
  void aNetworkIsRdmaOnlyWhenItsKindIsKnown(String network, Boolean rdma) {
    assertThat(NetworkKind.rdma(network)).isEqualTo(rdma);
  }

  @Test
  void aJobIsRdmaOnlyWhenEveryNetworkIs() {
    assertThat(NetworkKind.rdma(List.of("IB", "MyVendorNet"))).as("one unknown plugin").isNull();
    assertThat(NetworkKind.rdma(List.of("MyVendorNet", "Socket"))).as("one TCP network").isFalse();
    assertThat(NetworkKind.rdma(List.of("IB", "UCX"))).isTrue();
    assertThat(NetworkKind.rdma(List.of())).isNull();
  }
}
