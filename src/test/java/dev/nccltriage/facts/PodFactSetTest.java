package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The pod.*, probe.*, expect.* and Q2/Q3 facts one container's situation produces, and the lines
 * each cites. Every case starts from a healthy pod (one mlx5_0 HCA, one ACTIVE 200 Gb/s port, 8
 * GPUs) and changes only what the case is about.
 */
class PodFactSetTest {

  /** A pod under construction: the healthy one, with the parts a case replaces. */
  private static final class Pod {
    PodFacts.Devices devices = new PodFacts.Devices("ok", true, List.of("uverbs0"), Map.of("uverbs0", "mlx5_0"),
        Map.of("uverbs0", "ok"), true, List.of());
    PodFacts.Hcas hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0"), List.of("mlx5_0"),
        List.of(port("mlx5_0", 1, "ACTIVE", "InfiniBand", 200.0)));
    PodFacts.Rdma rdma = new PodFacts.Rdma("ok", "exclusive", List.of(), 0);
    PodFacts.Interfaces interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of());
    PodFacts.Memlock memlock = new PodFacts.Memlock("ok", "self", -1L, true);
    PodFacts.GpuDirect gpudirect = gpus(8, List.of("NVIDIA H100 80GB HBM3"), "PIX");
    Map<String, String> env = new HashMap<>();
    Map<String, List<Evidence>> evidence = new HashMap<>();

    FactSet facts(Expectations e) {
      return facts(new FactSet(), e);
    }

    /** Adds the pod's facts to {@code s}, which may already hold what a log said. */
    FactSet facts(FactSet s, Expectations e) {
      PodFactSet.add(s, new PodFacts(devices, hcas, rdma, interfaces, memlock, gpudirect,
          new PodFacts.Verbs("ok", "/usr/lib/libibverbs.so.1", List.of("mlx5"), List.of(), null),
          new PodFacts.Gids("n/a", List.of()), env, "self", evidence), e, false);
      return s;
    }

    FactSet facts() {
      return facts(Expectations.NONE);
    }

    /** Records the line the probe read for this name, and returns it. */
    Evidence cite(String name, String text) {
      Evidence e = new Evidence("pod", evidence.values().stream().mapToLong(List::size).sum() + 1, text);
      evidence.computeIfAbsent(name, k -> new ArrayList<>()).add(e);
      return e;
    }
  }

  private static PodFacts.Port port(String hca, int n, String state, String linkLayer, Double rate) {
    return new PodFacts.Port(hca, n, state, "LINK_UP", linkLayer, rate, null);
  }

  private static PodFacts.GpuDirect gpus(Integer n, List<String> models, String nicWorst) {
    return new PodFacts.GpuDirect("ok", true, true, false, "6.8.0", "open", "550.54", n, models, nicWorst, "ok");
  }

  private static PodFacts.Iface up(String name, String... addresses) {
    return new PodFacts.Iface(name, "ether", "UP", List.of("BROADCAST", "UP", "LOWER_UP"), List.of(addresses));
  }

  private static Optional<Object> value(FactSet s, String name) {
    return s.get(name).map(FactValue::value);
  }

  private static List<Evidence> evidence(FactSet s, String name) {
    return s.get(name).orElseThrow().evidence();
  }

  @Test
  void uverbsDevicesThatWouldNotOpenAreCountedOnlyWhenInfinibandDevicesArePresent() {
    Pod p = new Pod();
    p.devices = new PodFacts.Devices("ok", true, List.of("uverbs0", "uverbs1", "uverbs2"),
        Map.of("uverbs0", "mlx5_0", "uverbs1", "mlx5_1", "uverbs2", "mlx5_2"),
        Map.of("uverbs0", "ok", "uverbs1", "EACCES", "uverbs2", "EACCES"), true, List.of());
    assertThat(value(p.facts(), "pod.uverbsOpenable")).contains(1L);
    assertThat(value(p.facts(), "pod.uverbsUnopenable")).contains(2L);

    // no /dev/infiniband: nothing there to fail to open
    p.devices = new PodFacts.Devices("ok", false, List.of(), Map.of(), Map.of(), false, List.of());
    assertThat(value(p.facts(), "pod.uverbsUnopenable")).isEmpty();
  }

  /** A device a capture did not try leaves a count unknown only where it could change the count's test. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "ok ok unknown | 2 | ",
      "denied denied unknown | | 2",
      "unknown unknown unknown | | ",
      "ok denied unknown | 1 | 1",
  })
  void anUntriedDeviceIsNeitherOpenableNorNot(String opens, Long openable, Long unopenable) {
    String[] r = opens.split(" ");
    Map<String, String> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < r.length; i++) {
      m.put("uverbs" + i, r[i].equals("unknown") ? PodFacts.Devices.UNTRIED + "not in the capture's opens.tsv" : r[i]);
    }
    Pod p = new Pod();
    p.devices = new PodFacts.Devices("ok", true, List.of("uverbs0", "uverbs1", "uverbs2"), Map.of(), m, true, List.of());
    assertThat(value(p.facts(), "pod.uverbsOpenable")).isEqualTo(java.util.Optional.ofNullable(openable));
    assertThat(value(p.facts(), "pod.uverbsUnopenable")).isEqualTo(java.util.Optional.ofNullable(unopenable));
  }

  @ParameterizedTest(name = "ibv_devinfo {0}: the ports shown were read from {1}")
  @CsvSource({
      "ok, ibv_devinfo, ibv_devinfo, ibv_devinfo",
      "timeout, sysfs, timeout, sysfs (ibv_devinfo timed out)",
      "missing, sysfs, missing, missing",
  })
  void theHcaProbeSaysWhereItsValuesCameFrom(String status, String source, String probe, String read) {
    Pod p = new Pod();
    p.hcas = new PodFacts.Hcas(status, source, List.of("mlx5_0"), List.of("mlx5_0"), List.of());
    assertThat(value(p.facts(), "probe.hcas")).contains(probe);
    assertThat(value(p.facts(), "probe.hcasRead")).contains(read);
  }

  @Test
  void theSlowestActivePortSetsTheMinimumRateAndLinkLayersLeaveOutUnknownOnes() {
    Pod p = new Pod();
    p.hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"),
        List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"), List.of(
            port("mlx5_0", 1, "ACTIVE", "InfiniBand", 400.0),
            port("mlx5_1", 1, "ACTIVE", "InfiniBand", 200.0),
            port("mlx5_2", 1, "DOWN", null, 100.0),   // down: carries nothing, its rate does not count
            port("mlx5_3", 1, "ACTIVE", "InfiniBand", null)));
    FactSet s = p.facts();
    assertThat(value(s, "pod.minRateGbps")).contains(200.0);
    assertThat(value(s, "pod.linkLayers")).contains(List.of("InfiniBand"));
    assertThat(value(s, "pod.portsActive")).contains(3L);
  }

  /** A port whose state could not be read is unknown, not down: with none ACTIVE the count is unknown. */
  @Test
  void portsOfUnknownStateLeaveNoActiveCountUnlessOneIsActive() {
    Pod p = new Pod();
    p.hcas = new PodFacts.Hcas("ok", "sysfs", List.of("mlx5_0", "mlx5_1"), List.of("mlx5_0", "mlx5_1"),
        List.of(port("mlx5_0", 1, null, "InfiniBand", 400.0), port("mlx5_1", 1, "DOWN", "InfiniBand", 400.0)));
    assertThat(value(p.facts(), "pod.portsActive")).isEmpty();
    assertThat(value(p.facts(), "pod.portsSelectedActive")).isEmpty();
    assertThat(value(p.facts(), "pod.ports")).contains(2L);
    p.hcas = new PodFacts.Hcas("ok", "sysfs", List.of("mlx5_0", "mlx5_1"), List.of("mlx5_0", "mlx5_1"),
        List.of(port("mlx5_0", 1, null, "InfiniBand", 400.0), port("mlx5_1", 1, "ACTIVE", "InfiniBand", 400.0)));
    assertThat(value(p.facts(), "pod.portsActive")).contains(1L);
    assertThat(value(p.facts(), "pod.portsSelectedActive")).contains(1L);
    p.hcas = new PodFacts.Hcas("ok", "sysfs", List.of("mlx5_0"), List.of("mlx5_0"),
        List.of(port("mlx5_0", 1, "DOWN", "InfiniBand", 400.0)));
    assertThat(value(p.facts(), "pod.portsActive")).contains(0L);
    assertThat(value(p.facts(), "pod.portsSelectedActive")).contains(0L);
  }

  @Test
  void noActivePortWithARateGivesNoMinimumRate() {
    Pod p = new Pod();
    p.hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0"), List.of("mlx5_0"),
        List.of(port("mlx5_0", 1, "DOWN", "InfiniBand", 200.0), port("mlx5_0", 2, "ACTIVE", "InfiniBand", null)));
    assertThat(value(p.facts(), "pod.minRateGbps")).isEmpty();
  }

  @ParameterizedTest(name = "interfaces read {0} from {1}: probe {2}, read {3}, listed {4}")
  @CsvSource({
      "ok, ip -j addr, ip -j addr, ip -j addr, true",
      "java, java, java, java, true",
      "error, ip -j addr, error, 'ip -j addr, which gave error', false",
  })
  void theInterfaceProbeSaysWhatItReadAndOnlyAReadListIsReported(String status, String source, String probe,
      String read, boolean listed) {
    Pod p = new Pod();
    p.interfaces = new PodFacts.Interfaces(status, source, List.of(up("net1", "10.0.0.1/24")));
    FactSet s = p.facts();
    assertThat(value(s, "probe.interfaces")).contains(probe);
    assertThat(value(s, "probe.interfacesRead")).contains(read);
    assertThat(value(s, "pod.interfaces").isPresent()).isEqualTo(listed);
  }

  @ParameterizedTest(name = "state {0}, flags {1}: {2}")
  @CsvSource(delimiter = '|', value = {
      "DOWN           | BROADCAST,UP              | net1 (DOWN)",
      "LOWERLAYERDOWN | BROADCAST,UP              | net1 (LOWERLAYERDOWN)",
      "NOTPRESENT     | BROADCAST,UP              | net1 (NOTPRESENT)",
      "UNKNOWN        | BROADCAST,UP,NO-CARRIER   | 'net1 (UNKNOWN, NO-CARRIER)'",
      "UNKNOWN        | BROADCAST                 | 'net1 (UNKNOWN, not set UP)'",
      "               | BROADCAST,UP,NO-CARRIER   | 'net1 (DOWN, NO-CARRIER)'",
      "UP             | BROADCAST,UP,LOWER_UP     | ''",
      "UNKNOWN        | BROADCAST,UP,LOWER_UP     | ''",
  })
  void aSecondaryInterfaceIsDownWhenItsStateOrFlagsSaySo(String state, String flags, String down) {
    Pod p = new Pod();
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr",
        List.of(new PodFacts.Iface("net1", "ether", state, List.of(flags.split(",")), List.of("10.0.0.1/24"))));
    assertThat(value(p.facts(), "pod.secondaryDown")).contains(down.isEmpty() ? List.of() : List.of(down));
  }

  @Test
  void aDownInterfaceCountsOnlyIfNcclCouldUseIt() {
    Pod p = new Pod();
    PodFacts.Iface eth0 = new PodFacts.Iface("eth0", "ether", "DOWN", List.of("BROADCAST"), List.of("10.244.0.5/24"));
    PodFacts.Iface lonely = new PodFacts.Iface("net9", "ether", "DOWN", List.of("BROADCAST"), List.of());
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(eth0, lonely, up("net1", "10.0.0.1/24")));
    // the pod network's eth0 and an interface with no address and no RDMA device are not NCCL's data path
    assertThat(value(p.facts(), "pod.secondaryDown")).contains(List.of());

    // an RDMA netdev is, address or not
    p.rdma = new PodFacts.Rdma("ok", "exclusive", List.of("net9"), 0);
    assertThat(value(p.facts(), "pod.secondaryDown")).contains(List.of("net9 (DOWN, not set UP)"));
  }

  @Test
  void allUpCitesTheSecondaryAndTheRdmaInterfacesThatWereJudged() {
    Pod p = new Pod();
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(up("net1", "10.0.0.1/24"), up("net2")));
    p.rdma = new PodFacts.Rdma("ok", "exclusive", List.of("net2"), 0);
    Evidence net1 = p.cite("pod.interface.net1", "3: net1: <BROADCAST,UP,LOWER_UP> state UP");
    Evidence net2 = p.cite("pod.interface.net2", "4: net2: <BROADCAST,UP,LOWER_UP> state UP");
    FactSet s = p.facts();
    assertThat(value(s, "pod.secondaryDown")).contains(List.of());
    assertThat(evidence(s, "pod.secondaryDown")).containsExactly(net1, net2);
  }

  @Test
  void thePredictedOobInterfaceCitesItselfThenTheSecondaryOnes() {
    Pod p = new Pod();
    p.env.put("NCCL_SOCKET_IFNAME", "eth0");
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr",
        List.of(up("eth0", "10.244.0.5/24"), up("net1", "10.0.0.1/24"), up("net2", "10.0.1.1/24")));
    Evidence eth0 = p.cite("pod.interface.eth0", "2: eth0: <BROADCAST,UP,LOWER_UP> state UP");
    Evidence net1 = p.cite("pod.interface.net1", "3: net1: <BROADCAST,UP,LOWER_UP> state UP");
    Evidence net2 = p.cite("pod.interface.net2", "4: net2: <BROADCAST,UP,LOWER_UP> state UP");
    FactSet s = p.facts();
    assertThat(value(s, "pod.oobPredicted")).contains("eth0");
    assertThat(evidence(s, "pod.oobPredicted")).contains(eth0, net1, net2);
    // NCCL_SOCKET_IFNAME=eth0 selects an interface the container has, and cites it
    assertThat(value(s, "pod.socketIfnameMatches")).contains(true);
    assertThat(evidence(s, "pod.socketIfnameMatches")).containsExactly(eth0);
  }

  @Test
  void aSocketIfnameThatSelectsNothingIsSaidSoAndNoneSetSaysNothing() {
    Pod p = new Pod();
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(up("net1", "10.0.0.1/24")));
    assertThat(value(p.facts(), "pod.socketIfnameMatches")).isEmpty();
    p.env.put("NCCL_SOCKET_IFNAME", "ib0");
    assertThat(value(p.facts(), "pod.socketIfnameMatches")).contains(false);
  }

  @ParameterizedTest(name = "memlock {0} bytes reads as {1}")
  @CsvSource({
      "-1, unlimited",
      "0, 0 bytes",
      "65536, 64 KiB",
      "8388608, 8 MiB",
      "1000, 1000 bytes",
  })
  void memlockIsShownInTheUnitItWasSetIn(long bytes, String shown) {
    Pod p = new Pod();
    p.memlock = new PodFacts.Memlock("ok", "self", bytes, true);
    assertThat(value(p.facts(), "pod.memlock")).contains(shown);
  }

  @Test
  void gpuCountAndModelsAreReportedOnlyWhenRead() {
    Pod p = new Pod();
    FactSet s = p.facts();
    assertThat(value(s, "pod.gpus")).contains(8L);
    assertThat(value(s, "pod.gpuModels")).contains(List.of("NVIDIA H100 80GB HBM3"));
    p.gpudirect = gpus(null, List.of(), "PIX");
    s = p.facts();
    assertThat(value(s, "pod.gpus")).isEmpty();
    assertThat(value(s, "pod.gpuModels")).isEmpty();
  }

  @Test
  void aGraceSuperchipsC2cPathCitesTheModelsAsWellAsTheTopology() {
    Pod p = new Pod();
    Evidence topo = p.cite("pod.gpuNicWorst", "GPU0 mlx5_0 PHB");
    Evidence model = p.cite("pod.gpuModels", "Model: NVIDIA GH200 480GB");
    p.gpudirect = gpus(1, List.of("NVIDIA GH200 480GB"), "PHB");
    assertThat(value(p.facts(), "pod.gpuNicC2c")).contains(true);
    assertThat(evidence(p.facts(), "pod.gpuNicC2c")).containsExactly(topo, model);

    p.gpudirect = gpus(8, List.of("NVIDIA H100 80GB HBM3"), "PHB");
    assertThat(value(p.facts(), "pod.gpuNicC2c")).contains(false);
    assertThat(evidence(p.facts(), "pod.gpuNicC2c")).containsExactly(topo);
  }

  @Test
  void withoutALogCountTheContainersPortsAnswerQ2() {
    Pod p = new Pod();
    // one HCA with two ports: NCCL uses each port as a device
    p.hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0"), List.of("mlx5_0"),
        List.of(port("mlx5_0", 1, "ACTIVE", "InfiniBand", 200.0), port("mlx5_0", 2, "ACTIVE", "InfiniBand", 200.0)));
    FactSet s = p.facts(new Expectations(8, null, null, null));
    assertThat(value(s, "ib.hcaPortsMin")).contains(2L);
    assertThat(value(s, "pod.hcaDeficit")).contains(6L);
    assertThat(value(s, "ib.hcaDeficit")).contains(6L);

    // ports unknown (no ibv_devinfo, no sysfs): each usable HCA counts once
    p.hcas = new PodFacts.Hcas("missing", "sysfs", List.of("mlx5_0", "mlx5_1", "mlx5_2"),
        List.of("mlx5_0", "mlx5_1", "mlx5_2"), List.of());
    assertThat(value(p.facts(), "ib.hcaPortsMin")).contains(3L);
    assertThat(value(p.facts(), "ib.hcaPerGpu")).contains(3 / 8.0);
  }

  @Test
  void aPodWithoutInfinibandDevicesHasNoHcaDeficitOfItsOwn() {
    Pod p = new Pod();
    p.devices = new PodFacts.Devices("ok", false, List.of(), Map.of(), Map.of(), false, List.of());
    FactSet s = p.facts(new Expectations(8, null, null, null));
    assertThat(value(s, "pod.hcaDeficit")).isEmpty();
    assertThat(value(s, "expect.hcas")).contains(8L);
  }

  @Test
  void noGpusReadGivesNoHcasPerGpu() {
    Pod p = new Pod();
    p.gpudirect = gpus(0, List.of(), null);
    FactSet s = p.facts();
    assertThat(value(s, "ib.hcaPortsMin")).contains(1L);
    assertThat(value(s, "ib.hcaPerGpu")).isEmpty();
    assertThat(value(s, "job.localGpus")).isEmpty();
  }

  @Test
  void theSitesExpectationsBecomeFactsAndAnEarlierHcaExpectationStays() {
    Pod p = new Pod();
    FactSet s = p.facts(new Expectations(8, "net1", true, 1L << 30));
    assertThat(value(s, "expect.hcas")).contains(8L);
    assertThat(value(s, "expect.iface")).contains("net1");
    assertThat(value(s, "expect.gdr")).contains(true);
    assertThat(value(s, "expect.memlockBytes")).contains(1L << 30);

    s = p.facts();
    assertThat(value(s, "expect.hcas")).isEmpty();
    assertThat(value(s, "expect.gdr")).isEmpty();
    assertThat(value(s, "expect.memlockBytes")).isEmpty();

    FactSet earlier = new FactSet().put("expect.hcas", 4L, List.of());
    PodFactSet.add(earlier, new PodFacts(p.devices, p.hcas, p.rdma, p.interfaces, p.memlock, p.gpudirect,
        new PodFacts.Verbs("ok", null, null, null, null), new PodFacts.Gids("n/a", List.of()), Map.of(), "self",
        Map.of()), new Expectations(8, null, null, null), false);
    assertThat(value(earlier, "expect.hcas")).contains(4L);
  }

  @Test
  void aFactCitesAtMostFourLinesOfOneKind() {
    Pod p = new Pod();
    List<Evidence> lines = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      lines.add(p.cite("pod.uverbs", "crw-rw-rw- 1 root root 231, " + (192 + i) + " uverbs" + i));
    }
    assertThat(evidence(p.facts(), "pod.uverbs")).containsExactlyElementsOf(lines.subList(0, 4));
  }

  @Test
  void anInterfaceFactCitesAtMostFourInterfaceLines() {
    Pod p = new Pod();
    List<PodFacts.Iface> ifs = new ArrayList<>();
    List<Evidence> lines = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      ifs.add(up("net" + i, "10.0." + i + ".1/24"));
      lines.add(p.cite("pod.interface.net" + i, i + ": net" + i + ": <BROADCAST,UP,LOWER_UP> state UP"));
    }
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", ifs);
    assertThat(evidence(p.facts(), "pod.secondaryDown")).containsExactlyElementsOf(lines.subList(0, 4));
  }

  @Test
  void rdmaNetdevsWithoutAnAddressCiteAtMostFiveDistinctLines() {
    Pod p = new Pod();
    List<PodFacts.Iface> ifs = new ArrayList<>();
    List<String> netdevs = new ArrayList<>();
    List<Evidence> ifLines = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      ifs.add(up("net" + i));
      netdevs.add("net" + i);
      ifLines.add(p.cite("pod.interface.net" + i, i + ": net" + i + ": <BROADCAST,UP,LOWER_UP> state UP"));
    }
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", ifs);
    p.rdma = new PodFacts.Rdma("ok", "exclusive", netdevs, 0);
    // the RDMA listing repeats one interface line (already cited) and adds two of its own
    p.evidence.put("pod.rdmaNetdevs", List.of(ifLines.get(0), new Evidence("pod", 90, "mlx5_0 port 1 ==> net1"),
        new Evidence("pod", 91, "mlx5_1 port 1 ==> net2")));
    FactSet s = p.facts();
    assertThat(value(s, "pod.rdmaNetdevsNoAddress")).contains(netdevs);
    List<Evidence> expected = new ArrayList<>(ifLines);
    expected.add(new Evidence("pod", 90, "mlx5_0 port 1 ==> net1"));
    assertThat(evidence(s, "pod.rdmaNetdevsNoAddress")).containsExactlyElementsOf(expected);
  }

  @Test
  void hcasTheNodeHasButThePodWasNotGivenAreCounted() {
    Pod p = new Pod();
    // sysfs shows the node's eight HCAs; the device plugin gave this Pod two of them
    p.hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0", "mlx5_1"),
        List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7"),
        List.of(port("mlx5_0", 1, "ACTIVE", "InfiniBand", 400.0), port("mlx5_1", 1, "ACTIVE", "InfiniBand", 400.0)));
    assertThat(value(p.facts(), "pod.hcasNotAllocated")).contains(6L);

    // the node's HCAs unknown: nothing to compare with
    p.hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0"), List.of(),
        List.of(port("mlx5_0", 1, "ACTIVE", "InfiniBand", 400.0)));
    assertThat(value(p.facts(), "pod.hcasNotAllocated")).isEmpty();
  }

  @Test
  void aPodWithoutInfinibandDevicesIsNotShortOfHcasItWasNeverMeantToHave() {
    Pod p = new Pod();
    p.devices = new PodFacts.Devices("ok", false, List.of(), Map.of(), Map.of(), false, List.of());
    p.hcas = new PodFacts.Hcas("ok", "sysfs", List.of(), List.of("mlx5_0", "mlx5_1"), List.of());
    assertThat(value(p.facts(), "pod.hcasNotAllocated")).isEmpty();
  }

  @Test
  void thePredictedInterfaceCitesThePredictionAndTheEnvLineBeforeTheInterfaces() {
    Pod p = new Pod();
    p.env.put("NCCL_SOCKET_IFNAME", "net1");
    Evidence env = p.cite("env.NCCL_SOCKET_IFNAME", "NCCL INFO NCCL_SOCKET_IFNAME set by environment to net1");
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(up("eth0", "10.244.0.5/24"),
        up("net1", "10.0.0.1/24")));
    Evidence net1 = p.cite("pod.interface.net1", "3: net1: <BROADCAST,UP,LOWER_UP> state UP");
    FactSet s = p.facts();
    assertThat(evidence(s, "pod.oobPredicted")).containsExactly(
        new Evidence("ncclFindInterfaces", 0, "predicted net1 10.0.0.1 (NCCL_SOCKET_IFNAME=net1)"), env, net1);
    assertThat(evidence(s, "pod.socketIfnameMatches")).containsExactly(env, net1);
  }

  @Test
  void aPredictionOnThePodNetworkIsAnOverlay() {
    Pod p = new Pod();
    // no ib*, no secondary interface: NCCL falls back to the pod network's eth0
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(up("lo", "127.0.0.1/8"),
        up("eth0", "10.244.0.5/24")));
    assertThat(value(p.facts(), "pod.oobPredicted")).contains("eth0");
    assertThat(value(p.facts(), "pod.oobOverlay")).contains(true);

    p.env.put("NCCL_SOCKET_IFNAME", "net1");
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(up("eth0", "10.244.0.5/24"),
        up("net1", "10.0.0.1/24")));
    assertThat(value(p.facts(), "pod.oobOverlay")).contains(false);
  }

  @Test
  void withoutALogTheContainerAnswersQ3AndALoggedInterfaceStands() {
    Pod p = new Pod();
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(up("eth0", "10.244.0.5/24"),
        up("ib0", "192.168.10.1/24")));
    FactSet s = p.facts();
    assertThat(value(s, "net.oobInterface")).contains("ib0");
    assertThat(value(s, "net.oobAddress")).contains("192.168.10.1");

    // the log's "NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.244.0.5<0>" said what NCCL did: the
    // prediction is kept beside it, and does not replace it
    Evidence oob = new Evidence("log", 12, "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.244.0.5<0>");
    FactSet logged = new FactSet().put("net.oobInterface", "eth0", List.of(oob))
        .put("net.oobAddress", "10.244.0.5", List.of(oob));
    p.facts(logged, Expectations.NONE);
    assertThat(value(logged, "net.oobInterface")).contains("eth0");
    assertThat(value(logged, "net.oobAddress")).contains("10.244.0.5");
    assertThat(evidence(logged, "net.oobInterface")).containsExactly(oob);
    assertThat(value(logged, "pod.oobPredicted")).contains("ib0");
  }

  @Test
  void aOneCharacterSocketIfnameIsIgnoredAsNcclIgnoresIt() {
    Pod p = new Pod();
    // NCCL honours NCCL_SOCKET_IFNAME only when it is longer than one character (spec §6.2)
    p.env.put("NCCL_SOCKET_IFNAME", "^");
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(up("eth0", "10.244.0.5/24"),
        up("ib0", "192.168.10.1/24")));
    FactSet s = p.facts();
    assertThat(value(s, "pod.socketIfnameMatches")).isEmpty();
    assertThat(value(s, "pod.oobPredicted")).contains("ib0");

    p.env.put("NCCL_SOCKET_IFNAME", "^=ib0");
    assertThat(value(p.facts(), "pod.socketIfnameMatches")).contains(true);
    assertThat(value(p.facts(), "pod.oobPredicted")).contains("eth0");
  }

  @Test
  void theGpuNicPathNamesTheC2cRouteOnlyOnAGraceSuperchip() {
    Pod p = new Pod();
    p.gpudirect = gpus(4, List.of("NVIDIA GH200 480GB"), "NODE");
    assertThat(value(p.facts(), "pod.gpuNicC2c")).contains(true);
    assertThat(value(p.facts(), "pod.gpuNicPath"))
        .contains("NODE (through its Grace CPU over NVLink-C2C: NCCL's P2C path)");

    // the NIC of the other socket: across the SMP link, no C2C path
    p.gpudirect = gpus(4, List.of("NVIDIA GH200 480GB"), "SYS");
    assertThat(value(p.facts(), "pod.gpuNicC2c")).contains(false);
    assertThat(value(p.facts(), "pod.gpuNicPath")).contains("SYS");

    // a PCIe GPU under the same host bridge: PHB is just PHB
    p.gpudirect = gpus(8, List.of("NVIDIA H100 80GB HBM3"), "PHB");
    assertThat(value(p.facts(), "pod.gpuNicPath")).contains("PHB");

    // nvidia-smi topo not read: no path
    p.gpudirect = gpus(8, List.of("NVIDIA H100 80GB HBM3"), null);
    assertThat(value(p.facts(), "pod.gpuNicPath")).isEmpty();
    assertThat(value(p.facts(), "pod.gpuNicC2c")).isEmpty();
  }

  @Test
  void theGidFactsComeWithThePodFacts() {
    // an InfiniBand pod has no RoCE GID table: the pod facts still say so, for step 3
    FactSet s = new Pod().facts();
    assertThat(value(s, "probe.gids")).contains("n/a");
    assertThat(value(s, "pod.gidSummary")).contains("no RoCE port");
  }

  @Test
  void anIbHcaListSaysWhetherItSelectsThePodsHcasAndOnlyTheirActivePortsCount() {
    Pod p = new Pod();
    p.hcas = new PodFacts.Hcas("ok", "ibv_devinfo", List.of("mlx5_0", "mlx5_1"), List.of("mlx5_0", "mlx5_1", "mlx5_2"),
        List.of(port("mlx5_0", 1, "ACTIVE", "InfiniBand", 400.0),
            port("mlx5_1", 1, "ACTIVE", "InfiniBand", 400.0),
            port("mlx5_1", 2, "DOWN", "InfiniBand", 400.0),
            port("mlx5_2", 1, "ACTIVE", "InfiniBand", 400.0)));   // on the node, not in this Pod
    // unset: every ACTIVE port of a usable HCA
    assertThat(value(p.facts(), "pod.portsSelectedActive")).contains(2L);
    assertThat(value(p.facts(), "pod.ibHcaMatches")).isEmpty();

    p.env.put("NCCL_IB_HCA", "=mlx5_1");
    FactSet s = p.facts();
    assertThat(value(s, "pod.portsSelectedActive")).contains(1L);
    assertThat(value(s, "pod.ibHcaMatches")).contains(true);
    assertThat(value(s, "pod.ibHcaExcludes")).contains(true);

    p.env.put("NCCL_IB_HCA", "mlx5");
    s = p.facts();
    assertThat(value(s, "pod.portsSelectedActive")).contains(2L);
    assertThat(value(s, "pod.ibHcaMatches")).contains(true);
    assertThat(value(s, "pod.ibHcaExcludes")).contains(false);

    p.env.put("NCCL_IB_HCA", "mlx5_2");
    s = p.facts();
    assertThat(value(s, "pod.portsSelectedActive")).contains(0L);
    assertThat(value(s, "pod.ibHcaMatches")).contains(false);
  }

  @Test
  void anIbHcaListIsNotJudgedAgainstAPodWithoutHcas() {
    Pod p = new Pod();
    p.env.put("NCCL_IB_HCA", "mlx5_0");
    p.hcas = new PodFacts.Hcas("ok", "sysfs", List.of(), List.of("mlx5_0"), List.of());
    assertThat(value(p.facts(), "pod.ibHcaMatches")).isEmpty();
    assertThat(value(p.facts(), "pod.ibHcaExcludes")).isEmpty();
    assertThat(value(p.facts(), "pod.portsSelectedActive")).isEmpty();
  }

  @Test
  void onlyRdmaNetdevsWithoutARoutableAddressAreListed() {
    Pod p = new Pod();
    // net1 has its address; net2 only a link-local one; net3 is not in this network namespace's listing
    p.interfaces = new PodFacts.Interfaces("ok", "ip -j addr", List.of(up("net1", "10.0.0.1/24"),
        up("net2", "fe80::1/64")));
    p.rdma = new PodFacts.Rdma("ok", "exclusive", List.of("net1", "net2", "net3"), 0);
    assertThat(value(p.facts(), "pod.rdmaNetdevsNoAddress")).contains(List.of("net2", "net3"));
  }
}
