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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Step 2 as a user reads it: which HCAs the container can use, their ports, where that was read
 * (ibv_devinfo or sysfs), and the evidence lines cited for it, for the states ibv_devinfo and
 * /sys/class/infiniband can be in.
 */
class HcaProbeTest {
  private static final List<String> ARGV = List.of("ibv_devinfo");

  @TempDir Path dir;
  private final EvidenceBook book = new EvidenceBook();

  private static CommandResult devinfo(String status, int exit, String stdout, String stderr) {
    return new CommandResult(ARGV, status, exit, stdout, stderr, 3, 5000, false);
  }

  private static String hcaBlock(String hca, String linkLayerLine) {
    return "hca_id:\t" + hca + "\n\ttransport:\t\t\tInfiniBand (0)\n"
        + "\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n" + linkLayerLine;
  }

  private static PodFacts.Devices uverbs(Map<String, String> uverbsHca) {
    return new PodFacts.Devices("ok", true, List.copyOf(uverbsHca.keySet()), uverbsHca, Map.of(), false, List.of());
  }

  private static PodFacts.Devices noDevInfiniband() {
    return new PodFacts.Devices("ok", false, List.of(), Map.of(), Map.of(), false, List.of());
  }

  private Path sysfsPort(String hca, String port) throws IOException {
    return Files.createDirectories(dir.resolve("sys/class/infiniband/" + hca + "/ports/" + port));
  }

  private PodFacts.Hcas probe(PodFacts.Devices devices, CommandResult devinfo) {
    return new HcaProbe(new HostRoot(dir), book).probe(devices, devinfo);
  }

  private List<String> cited(String fact) {
    return book.snapshot().getOrDefault(fact, List.of()).stream().map(Evidence::text).toList();
  }

  @Test
  void theNodesHcasAreCitedFromSysfs() throws IOException {
    sysfsPort("mlx5_0", "1");
    sysfsPort("mlx5_1", "1");
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")), CommandResult.missing(ARGV));

    assertThat(hcas.onNode()).containsExactly("mlx5_0", "mlx5_1");
    assertThat(cited("pod.hcasOnNode")).containsExactly("mlx5_0 mlx5_1");
  }

  @Test
  void aNodeWithoutSysfsInfinibandCitesNoHcasOnIt() {
    PodFacts.Hcas hcas = probe(noDevInfiniband(), CommandResult.missing(ARGV));

    assertThat(hcas.onNode()).isEmpty();
    assertThat(book.snapshot()).doesNotContainKey("pod.hcasOnNode");
  }

  @Test
  void ibvDevinfosPortsAreReportedWithTheirStateAndLinkLayer() {
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")),
        devinfo("ok", 0, hcaBlock("mlx5_0", "\t\t\tlink_layer:\t\tEthernet\n"), ""));

    assertThat(hcas.status()).isEqualTo("ok");
    assertThat(hcas.source()).isEqualTo("ibv_devinfo");
    assertThat(hcas.ports()).containsExactly(new PodFacts.Port("mlx5_0", 1, "ACTIVE", null, "Ethernet", null, null));
    assertThat(cited("pod.portsActive")).containsExactly("mlx5_0 port 1: PORT_ACTIVE, link_layer Ethernet");
  }

  /** Every HCA has a port: one ibv_devinfo did not describe (output cut short or damaged) is read from sysfs. */
  @Test
  void hcasIbvDevinfoDidNotDescribeAreReadFromSysfs() throws IOException {
    Files.writeString(sysfsPort("mlx5_0", "1").resolve("state"), "4: ACTIVE\n");
    Files.writeString(sysfsPort("mlx5_1", "1").resolve("state"), "1: DOWN\n");
    Map<String, String> both = new java.util.LinkedHashMap<>();
    both.put("uverbs0", "mlx5_0");
    both.put("uverbs1", "mlx5_1");
    // cut short after the first HCA's port: the second is not named
    PodFacts.Hcas cut = probe(uverbs(both), devinfo("ok", 0, hcaBlock("mlx5_0", ""), ""));
    assertThat(cut.ports()).extracting(PodFacts.Port::hca, PodFacts.Port::state)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("mlx5_0", "ACTIVE"), org.assertj.core.groups.Tuple.tuple("mlx5_1", "DOWN"));
    assertThat(cut.source()).isEqualTo("ibv_devinfo, and sysfs for 1 HCA(s) it did not describe");
    assertThat(cited("probe.hcas")).containsExactly("described no port of mlx5_1; those read from /sys/class/infiniband");

    // named without ports (the port blocks lost): none described, all read from sysfs
    PodFacts.Hcas bare = probe(uverbs(both), devinfo("ok", 0, "hca_id:\tmlx5_0\nhca_id:\tmlx5_1\n", ""));
    assertThat(bare.source()).isEqualTo("sysfs");
    assertThat(bare.ports()).extracting(PodFacts.Port::state).containsExactly("ACTIVE", "DOWN");
  }

  @Test
  void anOldIbvDevinfoWithoutLinkLayerCitesTheStateAlone() {
    probe(uverbs(Map.of("uverbs0", "mlx5_0")), devinfo("ok", 0, hcaBlock("mlx5_0", ""), ""));

    assertThat(cited("pod.portsActive")).containsExactly("mlx5_0 port 1: PORT_ACTIVE");
  }

  @Test
  void onlyTheHcasWithAUverbsDeviceHereAreUsable() {
    String out = hcaBlock("mlx5_0", "\t\t\tlink_layer:\t\tInfiniBand\n")
        + hcaBlock("mlx5_1", "\t\t\tlink_layer:\t\tInfiniBand\n");
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs1", "mlx5_1")), devinfo("ok", 0, out, ""));

    assertThat(hcas.usable()).containsExactly("mlx5_1");
    assertThat(hcas.ports()).extracting(PodFacts.Port::hca).containsExactly("mlx5_1");
  }

  @Test
  void whenNoUverbsNamesItsHcaEveryHcaIbvDevinfoListsIsUsable() {
    // /dev/infiniband is there but /sys/class/infiniband_verbs/*/ibdev could not be read
    String out = hcaBlock("mlx5_0", "\t\t\tlink_layer:\t\tInfiniBand\n")
        + hcaBlock("mlx5_1", "\t\t\tlink_layer:\t\tInfiniBand\n");
    PodFacts.Hcas hcas = probe(uverbs(Map.of()), devinfo("ok", 0, out, ""));

    assertThat(hcas.usable()).containsExactly("mlx5_0", "mlx5_1");
    assertThat(hcas.ports()).extracting(PodFacts.Port::hca).containsExactly("mlx5_0", "mlx5_1");
  }

  @Test
  void withoutDevInfinibandNoHcaIsUsableWhateverIbvDevinfoLists() {
    PodFacts.Hcas hcas = probe(noDevInfiniband(),
        devinfo("ok", 0, hcaBlock("mlx5_0", "\t\t\tlink_layer:\t\tInfiniBand\n"), ""));

    assertThat(hcas.usable()).isEmpty();
    assertThat(hcas.ports()).isEmpty();
  }

  @Test
  void unnamedUverbsAndNoIbvDevinfoLeaveNoHcaUsable() {
    PodFacts.Hcas hcas = probe(uverbs(Map.of()), CommandResult.missing(ARGV));

    assertThat(hcas.usable()).isEmpty();
    assertThat(hcas.status()).isEqualTo("sysfs");
  }

  @Test
  void aFailedIbvDevinfoStillTellsWhy() {
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")),
        devinfo("failed", 255, "", "Failed to get IB devices list: Function not implemented\n"));

    // its message is what was read: ibv_devinfo answered, with no device
    assertThat(hcas.status()).isEqualTo("ok");
    assertThat(hcas.source()).isEqualTo("ibv_devinfo");
    assertThat(cited("pod.hcas")).containsExactly("Failed to get IB devices list: Function not implemented");
  }

  @Test
  void noIbDevicesFoundIsIbvDevinfosAnswer() {
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")), devinfo("ok", 0, "No IB devices found\n", ""));

    assertThat(hcas.status()).isEqualTo("ok");
    assertThat(hcas.source()).isEqualTo("ibv_devinfo");
    assertThat(cited("pod.hcas")).containsExactly("No IB devices found");
  }

  @Test
  void anIbvDevinfoThatCouldNotStartFallsBackToSysfs() throws IOException {
    Files.writeString(sysfsPort("mlx5_0", "1").resolve("state"), "4: ACTIVE\n");
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")),
        new CommandResult(ARGV, "error", -1, "", "", 0, 0, false));

    assertThat(hcas.status()).isEqualTo("sysfs");
    assertThat(hcas.source()).isEqualTo("sysfs");
    assertThat(hcas.ports()).extracting(PodFacts.Port::state).containsExactly("ACTIVE");
    assertThat(book.snapshot()).doesNotContainKeys("probe.hcas", "pod.hcas");
  }

  @Test
  void aMissingIbvDevinfoIsSaidAndSysfsPortsAreCited() throws IOException {
    Path port = sysfsPort("mlx5_0", "1");
    Files.writeString(port.resolve("state"), "4: ACTIVE\n");
    Files.writeString(port.resolve("phys_state"), "5: LinkUp\n");
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")), CommandResult.missing(ARGV));

    assertThat(hcas.status()).isEqualTo("sysfs");
    assertThat(hcas.ports()).singleElement().satisfies(p -> {
      assertThat(p.state()).isEqualTo("ACTIVE");
      assertThat(p.physState()).isEqualTo("LinkUp");
    });
    assertThat(cited("probe.hcas")).containsExactly("not installed; ports read from /sys/class/infiniband");
    assertThat(cited("pod.portsActive")).containsExactly("mlx5_0 port 1: 4: ACTIVE");
  }

  @Test
  void aSysfsPortWhoseStateCannotBeReadSaysSo() throws IOException {
    sysfsPort("mlx5_0", "1");
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")), CommandResult.missing(ARGV));

    assertThat(hcas.ports()).singleElement().satisfies(p -> {
      assertThat(p.state()).isNull();
      assertThat(p.physState()).isNull();
    });
    assertThat(cited("pod.portsActive")).containsExactly("mlx5_0 port 1: missing");
  }

  @Test
  void aTimedOutIbvDevinfoSaysHowLongItRanAndFallsBackToSysfs() throws IOException {
    Files.writeString(sysfsPort("mlx5_0", "1").resolve("state"), "4: ACTIVE\n");
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")),
        new CommandResult(ARGV, "timeout", -1, "", "", 5003, 5000, false));

    assertThat(hcas.status()).isEqualTo("timeout");
    assertThat(hcas.source()).isEqualTo("sysfs");
    assertThat(hcas.ports()).hasSize(1);
    assertThat(cited("probe.hcas"))
        .containsExactly("timed out after 5003 ms (limit 5000 ms) and was killed; ports read from /sys/class/infiniband");
  }

  @Test
  void aTimeoutFromACaptureWithoutItsLimitSaysWhatTheCaptureRecorded() {
    assertThat(HcaProbe.timedOut(new CommandResult(ARGV, "timeout", -1, "", "\nkilled by the capture's watchdog\nmore\n",
        0, 0, false))).isEqualTo("timed out (killed by the capture's watchdog)");
    assertThat(HcaProbe.timedOut(new CommandResult(ARGV, "timeout", -1, "", "", 0, 0, false)))
        .isEqualTo("timed out (how long it ran was not recorded)");
  }

  @Test
  void aLongPortDirectoryNameThatFitsAnIntKeepsItsNumber() throws IOException {
    // ten digits (more than a quick parse takes on trust) and still an int
    Files.writeString(sysfsPort("mlx5_0", "1000000000").resolve("state"), "4: ACTIVE\n");
    PodFacts.Hcas hcas = probe(uverbs(Map.of("uverbs0", "mlx5_0")), CommandResult.missing(ARGV));

    assertThat(hcas.ports()).extracting(PodFacts.Port::port).containsExactly(1000000000);
  }
}
