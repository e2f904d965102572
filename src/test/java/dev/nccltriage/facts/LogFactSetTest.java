package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * How {@link LogFactSet} turns what a job's log established ({@link LogFacts}) into the named facts
 * the rules read, and which lines each fact cites. The log facts are built here directly, so that
 * each test holds exactly what the log said; the parser's side is tested in the source package.
 */
class LogFactSetTest {
  private static final String H = "gpu-a:2841:2841 [0] NCCL INFO ";
  private static final Evidence COMM_2 =
      line(12, "comm 0x55d1c8e0a2b0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0");
  private static final Evidence COMM_1 =
      line(12, "comm 0x55d1c8e0a2b0 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0");
  private static final Evidence USING_IB = line(7, "Using network IB");
  private static final Evidence IB_USING =
      line(6, "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:192.168.10.1<0>");
  private static final Evidence BOOTSTRAP = line(3, "Bootstrap : Using eth0:10.0.0.1<0>");
  private static final Evidence SOCKET_IFNAME = line(2, "NCCL_SOCKET_IFNAME set by environment to =ib0,ib1");

  private static Evidence line(long n, String text) {
    return new Evidence("train.log", n, H + text);
  }

  private static Evidence channel(long n, int ch, String via) {
    return line(n, String.format("Channel %02d/0 : 0[0] -> 8[0] [send] via %s", ch, via));
  }

  /** A job's log facts: nothing said but what a test sets. */
  private static final class Log {
    long ncclLines = 40;
    List<String> versions = List.of();
    Integer nodes;
    String nodesFrom;
    Boolean singleNode;
    Integer localGpus;
    String transport;
    List<Hca> hcas = List.of();
    Integer hcaPorts;
    Integer hcaPortsMin;
    List<String> linkLayers = List.of();
    Iface oob;
    Iface bootstrap;
    ChannelStats channels = ChannelStats.NONE;
    boolean dmabuf;
    final Map<String, String> env = new LinkedHashMap<>();
    List<ErrorSignature> errors = List.of();
    List<String> providers = List.of();
    final Map<String, List<Evidence>> evidence = new LinkedHashMap<>();

    Log cite(String key, Evidence... lines) {
      evidence.put(key, List.of(lines));
      return this;
    }

    LogFacts facts() {
      LogSignals signals = new LogSignals(false, true, 0, null, null, null, false, false, null, null, providers,
          null, false);
      return new LogFacts(List.of(), ncclLines, versions, null, 1, nodes, nodesFrom, singleNode, localGpus,
          transport, NetworkKind.rdma(transport), Map.of(), hcas, hcaPorts, hcaPortsMin, false, linkLayers, oob,
          List.of(), bootstrap, List.of(), channels, 0, channels.gdr(), null, dmabuf, List.of(), env, Map.of(),
          errors, List.of(), false, hcaPorts != null, List.of(), List.of(), signals, evidence, null);
    }
  }

  private static FactSet flatten(Integer expectHcas, Consumer<Log> said) {
    Log log = new Log();
    said.accept(log);
    return LogFactSet.from(log.facts(), expectHcas);
  }

  private static FactSet flatten(Consumer<Log> said) {
    return flatten(null, said);
  }

  private static Optional<Object> value(FactSet s, String name) {
    return s.get(name).map(FactValue::value);
  }

  private static List<Evidence> cited(FactSet s, String name) {
    return s.get(name).map(FactValue::evidence).orElse(List.of());
  }

  // --- version and transport

  @Test
  void aVersionThatIsNoVersionIsLeftOutOfTheLowest() {
    // a garbled "NCCL version" line must not hide the versions the other processes printed
    FactSet s = flatten(l -> l.versions = List.of("2.21.5+cuda12.4", "2.99999999999.0", "2.18.3+cuda12.2"));
    assertThat(value(s, "log.ncclVersion")).contains(new Version(2, 18, 3));
  }

  @Test
  void mixedIsKnownOnlyWhenTheLogNamesATransport() {
    assertThat(value(flatten(l -> l.transport = "IB"), "net.mixed")).contains(false);
    assertThat(value(flatten(l -> l.transport = "mixed"), "net.mixed")).contains(true);
    assertThat(value(flatten(l -> l.transport = null), "net.mixed")).isEmpty();
  }

  @Test
  void theTransportCitesItsUsingLineThenChannelLinesUpToFour() {
    Evidence[] ch = {channel(20, 0, "NET/IB/0/GDRDMA"), channel(21, 1, "NET/IB/1/GDRDMA"),
        channel(22, 2, "NET/IB/0/GDRDMA"), channel(23, 3, "NET/IB/1/GDRDMA"), channel(24, 4, "NET/IB/0/GDRDMA")};
    FactSet s = flatten(l -> {
      l.transport = "IB";
      l.channels = new ChannelStats(5, 5, 5, 5, 0, 0);
      l.cite("network", USING_IB).cite("channels", ch);
    });
    assertThat(cited(s, "net.transport")).containsExactly(USING_IB, ch[0], ch[1], ch[2]);
  }

  @Test
  void aLineKeptUnderTwoHeadingsIsCitedOnce() {
    // the report lists a fact's lines one under the other: the same line twice would read as two
    Evidence ch = channel(20, 0, "NET/IB/0/GDRDMA");
    FactSet s = flatten(l -> {
      l.transport = "IB";
      l.channels = new ChannelStats(1, 1, 1, 1, 0, 0);
      l.cite("network", ch).cite("channels", ch);
    });
    assertThat(cited(s, "net.transport")).containsExactly(ch);
  }

  // --- nodes and whether the network is used

  @Test
  void aLogThatDoesNotTellTheNodeCountHasNoNodeFacts() {
    FactSet s = flatten(l -> l.transport = "IB");
    assertThat(value(s, "job.nodes")).isEmpty();
    assertThat(value(s, "job.singleNode")).isEmpty();
    assertThat(value(s, "net.usesNetwork")).isEmpty();
    assertThat(value(s, "net.transport")).contains("IB");
  }

  @Test
  void aNodeCountFromTheCommLineCitesThatLineOnly() {
    Evidence preamble = new Evidence("train.log", 1, "#  Rank  0 Group  0 Pid   4100 on gpu-a device  0 [0000:18:00] NVIDIA H100 80GB HBM3");
    FactSet s = flatten(l -> {
      l.nodes = 2;
      l.nodesFrom = "comm";
      l.singleNode = false;
      l.cite("comm", COMM_2).cite("testsPreamble", preamble).cite("bootstrap", BOOTSTRAP);
    });
    assertThat(value(s, "job.nodes")).contains(2L);
    assertThat(cited(s, "job.nodes")).containsExactly(COMM_2);
  }

  @Test
  void aNodeCountFromHostNamesCitesTheCommAndNcclTestsLines() {
    Evidence rankA = new Evidence("train.log", 1, "#  Rank  0 Group  0 Pid   4100 on gpu-a device  0 [0000:18:00] NVIDIA H100 80GB HBM3");
    Evidence rankB = new Evidence("train.log", 2, "#  Rank  8 Group  0 Pid   4213 on gpu-b device  0 [0000:18:00] NVIDIA H100 80GB HBM3");
    FactSet s = flatten(l -> {
      l.nodes = 2;
      l.nodesFrom = "hostnames";
      l.singleNode = false;
      l.cite("comm", COMM_1).cite("testsPreamble", rankA, rankB).cite("bootstrap", BOOTSTRAP);
    });
    assertThat(cited(s, "job.singleNode")).containsExactly(COMM_1, rankA, rankB);
  }

  @Test
  void aNodeCountFromHostNamesWithoutCommOrNcclTestsLinesCitesTheBootstrapLines() {
    Evidence bootB = new Evidence("train.log", 4, "gpu-b:3012:3012 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>");
    FactSet s = flatten(l -> {
      l.nodesFrom = "hostnames";
      l.singleNode = false;
      l.cite("bootstrap", BOOTSTRAP, bootB);
    });
    assertThat(value(s, "job.singleNode")).contains(false);
    assertThat(cited(s, "job.singleNode")).containsExactly(BOOTSTRAP, bootB);
  }

  @Test
  void aSingleNodeFromLoopbackInterfacesCitesTheLoopbackLines() {
    Evidence lo = line(5, "NET/Socket : Using [0]lo:127.0.0.1<0>");
    FactSet s = flatten(l -> {
      l.nodes = 1;
      l.nodesFrom = "loopback";
      l.singleNode = true;
      l.cite("loopback", lo).cite("bootstrap", line(3, "Bootstrap : Using lo:127.0.0.1<0>"));
    });
    assertThat(cited(s, "job.nodes")).containsExactly(lo);
  }

  @Test
  void severalNodesFromNetworkErrorsCiteTheFailureNotTheBootstrap() {
    Evidence completion = new Evidence("train.log", 30, "gpu-a:2841:2903 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : "
        + "Got completion from peer 10.0.0.2<40213> with status=12 opcode=0 len=0 vendor err 129 (Send) "
        + "localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2");
    FactSet s = flatten(l -> {
      l.nodesFrom = "errors";
      l.singleNode = false;
      l.cite("failures", completion).cite("bootstrap", BOOTSTRAP);
    });
    assertThat(cited(s, "job.singleNode")).containsExactly(completion);
  }

  @Test
  void withoutNetChannelsWhetherTheNetworkIsUsedCitesTheNodeCountLine() {
    FactSet s = flatten(l -> {
      l.nodes = 1;
      l.nodesFrom = "comm";
      l.singleNode = true;
      l.cite("comm", COMM_1);
    });
    assertThat(value(s, "net.usesNetwork")).contains(false);
    assertThat(cited(s, "net.usesNetwork")).containsExactly(COMM_1);
  }

  @Test
  void netChannelsCiteTheChannelLinesForUsingTheNetwork() {
    Evidence ch = channel(20, 0, "NET/IB/0/GDRDMA");
    FactSet s = flatten(l -> {
      l.nodes = 2;
      l.nodesFrom = "comm";
      l.singleNode = false;
      l.channels = new ChannelStats(1, 1, 1, 1, 0, 0);
      l.cite("comm", COMM_2).cite("channels", ch);
    });
    assertThat(value(s, "net.usesNetwork")).contains(true);
    assertThat(cited(s, "net.usesNetwork")).containsExactly(ch);
  }

  // --- the out-of-band interface (nccl-log-spec §6.2, §7)

  @Test
  void ibNamesItsOutOfBandInterfaceOnItsUsingLineBeforeTheBootstrapOne() {
    FactSet s = flatten(l -> {
      l.transport = "IB";
      l.oob = new Iface("ib0", "192.168.10.1");
      l.bootstrap = new Iface("eth0", "10.0.0.1");
      l.cite("ibUsing", IB_USING).cite("bootstrap", BOOTSTRAP);
    });
    assertThat(value(s, "net.oobInterface")).contains("ib0");
    assertThat(value(s, "net.oobAddress")).contains("192.168.10.1");
    assertThat(cited(s, "net.oobInterface")).containsExactly(IB_USING);
  }

  @Test
  void withoutAnOobNameIbAndTheIbextPluginUseTheBootstrapInterface() {
    for (String transport : List.of("IB", "IBext_v8")) {
      FactSet s = flatten(l -> {
        l.transport = transport;
        l.bootstrap = new Iface("eth0", "10.0.0.1");
        l.cite("bootstrap", BOOTSTRAP);
      });
      assertThat(value(s, "net.oobInterface")).as(transport).contains("eth0");
      assertThat(value(s, "net.oobAddress")).as(transport).contains("10.0.0.1");
      assertThat(cited(s, "net.oobInterface")).as(transport).containsExactly(BOOTSTRAP);
    }
  }

  @Test
  void withoutOobOrBootstrapIbUsesTheFirstInterfaceNcclSocketIfnameNames() {
    FactSet s = flatten(l -> {
      l.transport = "IB";
      l.env.put("NCCL_SOCKET_IFNAME", "=ib0,ib1");
      l.cite("env.NCCL_SOCKET_IFNAME", SOCKET_IFNAME);
    });
    assertThat(value(s, "net.oobInterface")).contains("ib0");
    assertThat(value(s, "net.oobAddress")).isEmpty();
    assertThat(cited(s, "net.oobInterface")).containsExactly(SOCKET_IFNAME);
  }

  @Test
  void anExcludingNcclSocketIfnameNamesNoOutOfBandInterface() {
    FactSet s = flatten(l -> {
      l.transport = "IB";
      l.env.put("NCCL_SOCKET_IFNAME", "^docker0,lo");
    });
    assertThat(value(s, "net.oobInterface")).isEmpty();
  }

  @Test
  void aSocketJobOrOneWithoutATransportHasNoOutOfBandInterface() {
    for (String transport : new String[] {"Socket", null}) {
      FactSet s = flatten(l -> {
        l.transport = transport;
        l.bootstrap = new Iface("eth0", "10.0.0.1");
        l.env.put("NCCL_SOCKET_IFNAME", "eth0");
        l.cite("bootstrap", BOOTSTRAP);
      });
      assertThat(value(s, "net.oobInterface")).as(transport).isEmpty();
      assertThat(value(s, "net.bootstrapInterface")).as(transport).contains("eth0");
    }
  }

  // --- HCAs

  @Test
  void theHcaNamesAreThoseOfEachPhysicalPortMergedOrNot() {
    // 2.20-2.23 NIC fusion: "Using [0]={[0] mlx5_0:1/RoCE, [1] mlx5_1:1/RoCE} [2]mlx5_2:1/RoCE"
    Hca merged = new Hca(0, "mlx5_0", 1, "RoCE",
        List.of(new Hca(0, "mlx5_0", 1, "RoCE", null), new Hca(1, "mlx5_1", 1, "RoCE", null)));
    FactSet s = flatten(l -> {
      l.transport = "IB";
      l.hcas = List.of(merged, new Hca(2, "mlx5_2", 1, "RoCE", null));
      l.hcaPorts = 3;
      l.hcaPortsMin = 3;
      l.linkLayers = List.of("RoCE");
    });
    assertThat(value(s, "ib.hcaNames")).contains(List.of("mlx5_0", "mlx5_1", "mlx5_2"));
  }

  @Test
  void theHcaDeficitIsTheExpectedCountLessTheFewestPortsANodeShows() {
    FactSet s = flatten(8, l -> {
      l.hcaPorts = 6;
      l.hcaPortsMin = 6;
      l.linkLayers = List.of("IB");
    });
    assertThat(value(s, "ib.hcaDeficit")).contains(2L);
    assertThat(value(flatten(8, l -> {
      l.hcaPorts = 8;
      l.hcaPortsMin = 8;
    }), "ib.hcaDeficit")).contains(0L);
  }

  @Test
  void hcasPerGpuNeedAGpuCount() {
    FactSet eight = flatten(l -> {
      l.hcaPorts = 4;
      l.hcaPortsMin = 4;
      l.localGpus = 8;
    });
    assertThat(value(eight, "ib.hcaPerGpu")).contains(0.5);
    // no GPU counted: no ratio (4 / 0 would read as infinitely many HCAs per GPU)
    FactSet none = flatten(l -> {
      l.hcaPorts = 4;
      l.hcaPortsMin = 4;
      l.localGpus = 0;
    });
    assertThat(value(none, "ib.hcaPerGpu")).isEmpty();
  }

  @Test
  void linkLayersAreMixedOnlyWhenBothIbAndRoceAreListed() {
    for (var c : Map.of(List.of("IB", "RoCE"), true, List.of("IB"), false, List.of("RoCE"), false).entrySet()) {
      FactSet s = flatten(l -> {
        l.hcaPorts = 2;
        l.hcaPortsMin = 2;
        l.linkLayers = c.getKey();
      });
      assertThat(value(s, "ib.mixedLinkLayers")).as(c.getKey().toString()).contains(c.getValue());
    }
  }

  // --- GPUDirect RDMA over the network channels

  @Test
  void gdrOnEveryChannelCitesAGdrdmaLineAndOnSomeANonGdrdmaOne() {
    Evidence gdr = channel(20, 0, "NET/IB/0/GDRDMA");
    Evidence plain = channel(21, 1, "NET/IB/1");
    FactSet all = flatten(l -> {
      l.channels = new ChannelStats(4, 4, 2, 2, 2, 2);
      l.cite("channels.gdrdma", gdr);
    });
    assertThat(value(all, "gdr.channels")).contains("all");
    assertThat(cited(all, "gdr.channels")).containsExactly(gdr);
    FactSet some = flatten(l -> {
      l.channels = new ChannelStats(4, 3, 2, 2, 2, 1);
      l.cite("channels.gdrdma", gdr).cite("channels.noGdrdma", plain);
    });
    assertThat(value(some, "gdr.channels")).contains("some");
    assertThat(cited(some, "gdr.channels")).containsExactly(plain);
  }

  @Test
  void receiveChannelsSayWhetherAllSomeOrNoneCarryGdr() {
    assertThat(value(flatten(l -> l.channels = new ChannelStats(4, 4, 2, 2, 2, 2)), "gdr.receiveChannels"))
        .contains("all");
    assertThat(value(flatten(l -> l.channels = new ChannelStats(4, 3, 2, 2, 2, 1)), "gdr.receiveChannels"))
        .contains("some");
    assertThat(value(flatten(l -> l.channels = new ChannelStats(4, 2, 2, 2, 2, 0)), "gdr.receiveChannels"))
        .contains("none");
  }

  @Test
  void sendOnlyChannelsSayNothingOfTheReceiveSide() {
    FactSet s = flatten(l -> l.channels = new ChannelStats(2, 2, 2, 2, 0, 0));
    assertThat(value(s, "gdr.channels")).contains("all");
    assertThat(value(s, "gdr.receiveChannels")).isEmpty();
  }

  @Test
  void dmabufIsTrueWhenLoggedAndUnknownOtherwise() {
    // not seeing "DMA-BUF is available" is not seeing it unavailable
    assertThat(value(flatten(l -> l.dmabuf = true), "gdr.dmabufAvailable")).contains(true);
    assertThat(value(flatten(l -> l.dmabuf = false), "gdr.dmabufAvailable")).isEmpty();
  }

  // --- aws-ofi-nccl's libfabric providers

  @Test
  void theProvidersSayWhetherTheNetworkIsRdmaAndOneThatIsNotDecides() {
    assertThat(value(flatten(l -> l.providers = List.of("efa")), "plugin.providerRdma")).contains(true);
    assertThat(value(flatten(l -> l.providers = List.of("tcp;ofi_rxm")), "plugin.providerRdma")).contains(false);
    assertThat(value(flatten(l -> l.providers = List.of("efa", "tcp;ofi_rxm")), "plugin.providerRdma"))
        .contains(false);
    assertThat(value(flatten(l -> l.providers = List.of("efa", "foo")), "plugin.providerRdma")).isEmpty();
  }

  @Test
  void withoutAProviderLineThereAreNoProviderFacts() {
    FactSet s = flatten(l -> l.transport = "AWS Libfabric");
    assertThat(value(s, "plugin.ofiProviders")).isEmpty();
    assertThat(value(s, "plugin.providerRdma")).isEmpty();
  }

  // --- errors

  private static final Evidence STATUS_12 = new Evidence("train.log", 30, "gpu-a:2841:2903 [0] transport/net_ib.cc:1696 "
      + "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<40213> with status=12 opcode=0 len=0 vendor err 129 "
      + "(Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2");
  private static final Evidence REG_MR = new Evidence("train.log", 25,
      "gpu-a:2841:2903 [0] misc/ibvwrap.cc:135 NCCL WARN Call to ibv_reg_mr failed with error Bad address");

  @Test
  void anErrorCitesTheLinesThatShowIt() {
    FactSet s = flatten(l -> l.errors = List.of(
        new ErrorSignature("ibv_reg_mr", "Bad address", null, 1, List.of("gpu-a"), List.of(REG_MR))));
    assertThat(value(s, "error.ibv_reg_mr")).contains(true);
    assertThat(cited(s, "error.ibv_reg_mr")).containsExactly(REG_MR);
    assertThat(value(s, "error.completion_error")).contains(false);
  }

  @Test
  void theCompletionStatusesComeFromCompletionErrorsAndCiteOnlyThem() {
    FactSet s = flatten(l -> l.errors = List.of(
        new ErrorSignature("ibv_reg_mr", "Bad address", null, 1, List.of("gpu-a"), List.of(REG_MR)),
        new ErrorSignature("completion_error", null, 12, 4, List.of("gpu-a"), List.of(STATUS_12))));
    assertThat(value(s, "error.completionStatus")).contains(List.of("12"));
    assertThat(cited(s, "error.completionStatus")).containsExactly(STATUS_12);
  }
}
