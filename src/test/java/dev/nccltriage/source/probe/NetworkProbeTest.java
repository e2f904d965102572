package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steps 3 and 4 as a user reads them: the Pod's interfaces and where they were listed from, which
 * RDMA netdevs are in this netns, the RDMA netns mode, and the evidence cited for each, whatever
 * ip and rdma answered.
 */
class NetworkProbeTest {
  private static final List<String> IP = List.of("ip", "-j", "addr", "show");
  private static final List<String> LINK = List.of("rdma", "-j", "link", "show");
  private static final List<String> SYSTEM = List.of("rdma", "-j", "system", "show");
  private static final PodFacts.Interfaces NO_IFS = new PodFacts.Interfaces("ok", "ip", List.of());

  @TempDir Path dir;
  private final EvidenceBook book = new EvidenceBook();

  private static CommandResult ok(List<String> argv, String stdout) {
    return new CommandResult(argv, "ok", 0, stdout, "", 1, 5000, false);
  }

  private static CommandResult answered(List<String> argv, String status, String stderr) {
    return new CommandResult(argv, status, status.equals("failed") ? 1 : -1, "", stderr, 1, 5000, false);
  }

  private static Supplier<CommandResult> never() {
    return () -> {
      throw new AssertionError("the fallback is asked only when the first answer is unusable");
    };
  }

  private static String iface(int index, String name, String addrInfo) {
    return "{\"ifindex\":" + index + ",\"ifname\":\"" + name + "\",\"flags\":[\"BROADCAST\",\"UP\",\"LOWER_UP\"],\"operstate\":\"UP\","
        + "\"link_type\":\"ether\",\"addr_info\":[" + addrInfo + "]}";
  }

  private NetworkProbe probe() {
    return new NetworkProbe(new HostRoot(dir), book);
  }

  private List<Evidence> cited(String fact) {
    return book.snapshot().getOrDefault(fact, List.of());
  }

  private List<String> citedTexts(String fact) {
    return cited(fact).stream().map(Evidence::text).toList();
  }

  private static PodFacts.Hcas roce(String hca, int port, String netdev) {
    return new PodFacts.Hcas("ok", "ibv_devinfo", List.of(hca), List.of(hca),
        List.of(new PodFacts.Port(hca, port, "ACTIVE", null, "Ethernet", null, netdev)));
  }

  @Test
  void addressesAreListedWithTheirPrefixAndScope() {
    CommandResult ip = ok(IP, "[" + iface(3, "net1", "{\"family\":\"inet\",\"local\":\"10.0.0.7\",\"prefixlen\":24,"
        + "\"scope\":\"global\"},{\"family\":\"inet6\",\"local\":\"fe80::1\"}") + "]");
    PodFacts.Interfaces ifs = probe().interfaces(ip, never(), never());

    assertThat(ifs.status()).isEqualTo("ok");
    assertThat(ifs.source()).isEqualTo("ip -j addr");
    assertThat(ifs.interfaces()).singleElement().satisfies(i -> {
      assertThat(i.name()).isEqualTo("net1");
      assertThat(i.addresses()).containsExactly("10.0.0.7/24 scope global", "fe80::1");
    });
    String line = "net1 <BROADCAST,UP,LOWER_UP> state UP: 10.0.0.7/24 scope global, fe80::1";
    assertThat(cited("pod.interfaces")).containsExactly(new Evidence("ip -j addr", 0, line));
    assertThat(citedTexts("pod.interface.net1")).containsExactly(line);
  }

  @Test
  void theFirst256InterfacesAreEachCitableAndNoMore() {
    StringBuilder json = new StringBuilder("[");
    for (int i = 1; i <= 257; i++) {
      json.append(i == 1 ? "" : ",").append(iface(i + 2, "veth" + i, ""));
    }
    PodFacts.Interfaces ifs = probe().interfaces(ok(IP, json.append("]").toString()), never(), never());

    assertThat(ifs.interfaces()).hasSize(257);
    assertThat(book.snapshot()).containsKey("pod.interface.veth256").doesNotContainKey("pod.interface.veth257");
  }

  @Test
  void whenIpFailsJavasInterfaceListIsUsedAndSaysWhy() {
    CommandResult builtin = new CommandResult(List.of("java"), "ok", 0, "[" + iface(2, "eth0", "") + "]", "", 1, 0, false);
    PodFacts.Interfaces ifs = probe().interfaces(CommandResult.missing(IP), () -> CommandResult.missing(List.of("ip")),
        () -> builtin);

    assertThat(ifs.status()).isEqualTo("java");
    assertThat(ifs.source()).isEqualTo("java (ip missing)");
    assertThat(ifs.interfaces()).extracting(PodFacts.Iface::name).containsExactly("eth0");
  }

  @Test
  void whenNoListingAnswersTheStatusSaysHowItFailed() {
    CommandResult missing = CommandResult.missing(IP);
    assertThat(probe().interfaces(missing, () -> missing, () -> answered(IP, "timeout", "")))
        .isEqualTo(new PodFacts.Interfaces("timeout", "java (ip missing)", List.of()));
    assertThat(probe().interfaces(missing, () -> missing, () -> missing))
        .isEqualTo(new PodFacts.Interfaces("missing", "java (ip missing)", List.of()));
    assertThat(probe().interfaces(missing, () -> missing, () -> answered(IP, "error", "")))
        .isEqualTo(new PodFacts.Interfaces("error", "java (ip missing)", List.of()));
  }

  @Test
  void aRoceNetdevInThisNetnsIsFoundAndEveryLinkCited() throws IOException {
    Files.createDirectories(dir.resolve("sys/class/net/net1"));
    CommandResult links = ok(LINK, "[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":1,\"state\":\"ACTIVE\","
        + "\"netdev\":\"net1\"},{\"ifindex\":1,\"ifname\":\"mlx5_1\",\"port\":1,\"state\":\"DOWN\"}]");
    PodFacts.Rdma r = probe().rdma(links, never(), CommandResult.missing(SYSTEM),
        () -> CommandResult.missing(SYSTEM), roce("mlx5_0", 1, null), NO_IFS);

    assertThat(r.status()).isEqualTo("ok");
    assertThat(r.netdevsHere()).containsExactly("net1");
    assertThat(r.rocePortsNoNetdev()).isZero();
    assertThat(cited("pod.rdmaNetdevs")).containsExactly(
        new Evidence("rdma -j link show", 0, "mlx5_0/1 state ACTIVE netdev net1"),
        new Evidence("rdma -j link show", 0, "mlx5_1/1 state DOWN"));
    assertThat(book.snapshot()).doesNotContainKey("probe.rdma");
  }

  @Test
  void aRocePortWhoseNetdevIsElsewhereIsCountedAndCitedFromRdma() {
    CommandResult links = ok(LINK, "[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":1,\"state\":\"ACTIVE\","
        + "\"netdev\":\"ens1f0\"}]");
    PodFacts.Rdma r = probe().rdma(links, never(), CommandResult.missing(SYSTEM),
        () -> CommandResult.missing(SYSTEM), roce("mlx5_0", 1, null), NO_IFS);

    assertThat(r.netdevsHere()).isEmpty();
    assertThat(r.rocePortsNoNetdev()).isEqualTo(1);
    assertThat(cited("pod.rdmaPortsNoNetdev"))
        .containsExactly(new Evidence("rdma -j link show", 0, "mlx5_0/1: netdev ens1f0 not in this netns"));
  }

  @Test
  void withoutRdmaARocePortWithNoNetdevIsCitedFromSysfs() {
    CommandResult missing = CommandResult.missing(LINK);
    PodFacts.Rdma r = probe().rdma(missing, () -> missing, CommandResult.missing(SYSTEM),
        () -> CommandResult.missing(SYSTEM), roce("mlx5_0", 1, null), NO_IFS);

    assertThat(r.status()).isEqualTo("missing");
    assertThat(r.rocePortsNoNetdev()).isEqualTo(1);
    assertThat(cited("pod.rdmaPortsNoNetdev"))
        .containsExactly(new Evidence("/sys/class/infiniband/mlx5_0/device/net", 0, "mlx5_0/1: no netdev in this netns"));
    assertThat(book.snapshot()).as("a missing tool is no failure to report").doesNotContainKey("probe.rdma");
  }

  @Test
  void aFailingRdmaIsReportedWithItsFirstLine() {
    CommandResult failed = answered(LINK, "failed", "Unknown option -j\nUsage: rdma ...\n");
    PodFacts.Rdma r = probe().rdma(failed, () -> answered(List.of("rdma", "link", "show"), "failed",
        "Error: unknown\n"), CommandResult.missing(SYSTEM), () -> CommandResult.missing(SYSTEM),
        roce("mlx5_0", 1, null), NO_IFS);

    assertThat(r.status()).isEqualTo("error");
    assertThat(cited("probe.rdma")).containsExactly(new Evidence("rdma link show", 0, "failed: Error: unknown"));
  }

  @Test
  void aTimedOutRdmaSaysSo() {
    CommandResult timeout = answered(LINK, "timeout", "");
    PodFacts.Rdma r = probe().rdma(timeout, () -> timeout, CommandResult.missing(SYSTEM),
        () -> CommandResult.missing(SYSTEM), roce("mlx5_0", 1, null), NO_IFS);

    assertThat(r.status()).isEqualTo("timeout");
    assertThat(citedTexts("probe.rdma")).containsExactly("timeout: timeout");
  }

  @Test
  void theNetnsModeComesFromTheJsonFormOrElseTheTextForm() {
    CommandResult missing = CommandResult.missing(LINK);
    PodFacts.Rdma json = probe().rdma(missing, () -> missing, ok(SYSTEM, "{\"netns\":\"exclusive\",\"copy-on-fork\":true}"),
        never(), roce("mlx5_0", 1, null), NO_IFS);
    assertThat(json.netnsMode()).isEqualTo("exclusive");
    assertThat(cited("pod.rdmaNetns")).containsExactly(new Evidence("rdma -j system show", 0, "netns exclusive"));

    PodFacts.Rdma text = probe().rdma(missing, () -> missing, answered(SYSTEM, "failed", "Unknown option -j"),
        () -> ok(List.of("rdma", "system", "show"), "netns shared copy-on-fork on\n"), roce("mlx5_0", 1, null), NO_IFS);
    assertThat(text.netnsMode()).isEqualTo("shared");
  }
}
