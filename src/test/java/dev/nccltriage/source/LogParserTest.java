package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.hosts;
import static dev.nccltriage.source.Logs.node;
import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.ChannelStats;
import dev.nccltriage.facts.Difference;
import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.GdrDecision;
import dev.nccltriage.facts.Hca;
import dev.nccltriage.facts.Iface;
import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the log source makes of small inline logs, shape by shape (nccl-log-spec.md). */
class LogParserTest {

  private static List<Long> lines(List<Evidence> ev) {
    return ev.stream().map(Evidence::line).toList();
  }

  private static List<String> portNames(LogFacts f) {
    return f.hcas().stream().flatMap(h -> h.ports().stream()).map(Hca::name).toList();
  }

  private static ErrorSignature onlyError(LogFacts f) {
    assertThat(f.errors()).as("errors").hasSize(1);
    return f.errors().get(0);
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Prefixes {
    static Stream<Arguments> prefixes() {
      return Stream.of(
          arguments("plain host:pid:tid [dev]", "node01:23051:23120 [3] NCCL INFO ", "node01"),
          arguments("NCCL_DEBUG_TIMESTAMP_FORMAT", "[2026-01-01 10:00:00.123456] node01:23051:23120 [3] NCCL INFO ",
              "node01"),
          arguments("kubectl --prefix --timestamps",
              "[pod/trainer-0/pytorch] 2026-05-01T10:00:00.123456789Z node01:23051:23120 [3] NCCL INFO ", "node01"),
          arguments("kubectl --timestamps", "2026-05-01T10:00:00.123456789Z node01:23051:23120 [3] NCCL INFO ",
              "node01"),
          arguments("mpirun --tag-output", "[1,0]<stdout>:node01:23051:23120 [3] NCCL INFO ", "node01"),
          arguments("torchrun", "[default0]:node01:23051:23120 [3] NCCL INFO ", "node01"),
          arguments("mpirun and torchrun", "[1,12]<stdout>:[default3]:node01:23051:23120 [3] NCCL INFO ", "node01"),
          arguments("Ray worker", "(RayWorkerWrapper pid=123, ip=10.0.0.1) node01:23051:23120 [3] NCCL INFO ",
              "node01"),
          arguments("rank tag", "rank3: node01:23051:23120 [3] NCCL INFO ", "node01"),
          arguments("no host prefix", "NCCL INFO ", null),
          arguments("user-stripped, bare message", "", null),
          arguments("pre-2.3 without NCCL token", "node01:23051:23120 [3] INFO ", "node01"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("prefixes")
    void everyPrefixShapeYieldsTheSameFacts(String name, String prefix, String host) {
      LogFacts f = parse(String.join("\n",
          "some launcher output",
          prefix + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:192.168.10.1<0>",
          prefix + "Using network IB",
          prefix + "comm 0x55e0b3c71a20 rank 3 nRanks 16 nNodes 2 localRanks 8 localRank 3 MNNVL 0",
          prefix + "Channel 00/0 : 3[3] -> 11[3] [send] via NET/IB/1/GDRDMA",
          prefix + "Channel 00/0 : 11[3] -> 3[3] [receive] via NET/IB/1/GDRDMA",
          ""));
      assertThat(f.ncclLines()).isEqualTo(5);
      assertThat(f.inputs()).singleElement().satisfies(i -> {
        assertThat(i.lines()).isEqualTo(6);
        assertThat(i.unplacedLines()).isEqualTo(1);
      });
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
      assertThat(f.hcaPorts()).isEqualTo(2);
      assertThat(portNames(f)).containsExactly("mlx5_0", "mlx5_1");
      assertThat(f.oob()).isEqualTo(new Iface("ib0", "192.168.10.1"));
      assertThat(f.netChannels()).isEqualTo(new ChannelStats(2, 2, 1, 1, 1, 1));
      assertThat(f.gdr()).isEqualTo("all");
      assertThat(f.ranks()).isEqualTo(16);
      assertThat(f.nodes()).isEqualTo(2);
      assertThat(f.localGpus()).isEqualTo(8);
      assertThat(lines(f.evidenceFor("network"))).containsExactly(3L);
      assertThat(lines(f.evidenceFor("ibUsing"))).containsExactly(2L);
      if (host == null) {
        assertThat(hosts(f)).isEmpty();
        assertThat(f.processes()).isZero();
      } else {
        assertThat(hosts(f)).containsExactly(host);
        assertThat(f.processes()).isEqualTo(1);
        assertThat(node(f, host).netChannels().total()).isEqualTo(2);
      }
    }

    @Test
    void deviceIndexInThePrefixCountsLocalGpus() {
      LogFacts f = parse("""
          node01:10:10 [0] NCCL INFO Using network IB
          node01:13:13 [3] NCCL INFO Using network IB
          """);
      assertThat(f.localGpus()).isEqualTo(4);
      assertThat(f.processes()).isEqualTo(2);
      assertThat(f.ranks()).isEqualTo(2);
    }

    @Test
    void samePidOnTwoHostsIsTwoProcesses() {
      LogFacts f = parse("""
          trainer-worker-0:57:57 [0] NCCL INFO Using network IB
          trainer-worker-1:57:57 [0] NCCL INFO Using network IB
          """);
      assertThat(hosts(f)).containsExactly("trainer-worker-0", "trainer-worker-1");
      assertThat(f.processes()).isEqualTo(2);
      assertThat(f.nodes()).isEqualTo(2);
      assertThat(f.nodesFrom()).isEqualTo("hostnames");
    }

    @Test
    void pythonLoggingLinesAreNotNcclLines() {
      LogFacts f = parse("""
          2026-05-01 10:00:00,118 20811 INFO     Initializing process group (nccl), world size 8
          W0501 10:00:00.512000 1 torch/distributed/run.py:792] Setting OMP_NUM_THREADS
          INFO:root:Using network IB to fetch the dataset
          """);
      assertThat(f.ncclLines()).isZero();
      assertThat(f.transport()).isNull();
    }

    /** "[timestamp] INFO text" is a launcher's logging line, not NCCL's pre-2.3 "host:pid:tid [dev] INFO". */
    @Test
    void launcherInfoLinesAreNotPre23NcclLines() {
      LogFacts f = parse("""
          [2026-05-01 10:00:00] INFO launching torchrun: nnodes=2 nproc_per_node=4
          [2026-05-01 10:00:41] INFO step 10/5000 loss=2.8131 (4.92 s/step)
          """);
      assertThat(f.ncclLines()).isZero();
      assertThat(f.nodeDetails()).isEmpty();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Warnings {
    @Test
    void warnWithFileLineAndFunctionIsAttributedToItsHost() {
      LogFacts f = parse("""

          node01:23051:23102 [3] misc/ibvwrap.cc:135 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory

          [2026-06-20 08:00:01] node02:23051:23102 [5] misc/ibvwrap.cc:120 (wrap_ibv_reg_mr) NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory
          """);
      assertThat(hosts(f)).containsExactly("node01", "node02");
      assertThat(node(f, "node02").gpus()).isEqualTo(6);
      ErrorSignature e = onlyError(f);
      assertThat(e.kind()).isEqualTo("ibv_reg_mr");
      assertThat(e.detail()).isEqualTo("Cannot allocate memory");
      assertThat(e.count()).isEqualTo(2);
      assertThat(e.hosts()).containsExactly("node01", "node02");
      assertThat(lines(e.evidence())).containsExactly(2L, 4L);
      assertThat(e.evidence().get(1).text()).startsWith("[2026-06-20 08:00:01] node02:23051:23102");
    }

    @Test
    void warnWithoutHostStillCounts() {
      LogFacts f = parse("misc/ibvwrap.cc:135 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument\n");
      assertThat(f.ncclLines()).isEqualTo(1);
      assertThat(hosts(f)).isEmpty();
      assertThat(onlyError(f).kind()).isEqualTo("ibv_modify_qp");
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class IbUsing {
    static Stream<Arguments> usingLines() {
      return Stream.of(
          arguments("2.7 space before ;", "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:192.168.10.1<0>",
              List.of("mlx5_0", "mlx5_1"), 2, List.of("IB"), false, "ib0", "192.168.10.1"),
          arguments("2.12 [RO]", "NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>",
              List.of("mlx5_0", "mlx5_1"), 2, List.of("RoCE"), true, "eth0", "10.0.0.1"),
          arguments("2.12 no [RO]", "NET/IB : Using [0]mlx5_0:1/IB ; OOB net1:192.168.100.5<0>",
              List.of("mlx5_0"), 1, List.of("IB"), false, "net1", "192.168.100.5"),
          arguments("2.20 merged",
              "NET/IB : Using [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} [1]={[2] mlx5_2:1/IB, [3] mlx5_3:1/IB} [RO]; OOB ib0:192.168.10.1<0>",
              List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"), 4, List.of("IB"), true, "ib0", "192.168.10.1"),
          arguments("2.20 dual-port merge and single",
              "NET/IB : Using [0]={[0] mlx5_0:1/IB, [1] mlx5_0:2/IB} [2]mlx5_1:1/IB [RO]; OOB ib0:192.168.10.1<0>",
              List.of("mlx5_0", "mlx5_0", "mlx5_1"), 3, List.of("IB"), true, "ib0", "192.168.10.1"),
          arguments("2.30 rails", "NET/IB : Using [0]mlx5_0:1:0/IB [1]mlx5_1:1:1/IB [RO]; OOB ib0:192.168.10.1<0>",
              List.of("mlx5_0", "mlx5_1"), 2, List.of("IB"), true, "ib0", "192.168.10.1"),
          arguments("2.30 plane only", "NET/IB : Using [0]mlx5_0:1::2/IB [1]mlx5_1:1:/RoCE [RO]; OOB ib0:192.168.10.1<0>",
              List.of("mlx5_0", "mlx5_1"), 2, List.of("IB", "RoCE"), true, "ib0", "192.168.10.1"),
          arguments("2.26 UNSPECIFIED", "NET/IB : Using [0]mlx5_0:1/UNSPECIFIED [RO]; OOB net1:192.168.1.1<0>",
              List.of("mlx5_0"), 1, List.of("UNSPECIFIED"), true, "net1", "192.168.1.1"),
          arguments("IPv6 OOB", "NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:fe80::1%eth0<0>",
              List.of("mlx5_0"), 1, List.of("IB"), true, "eth0", "fe80::1%eth0"),
          arguments("interface alias OOB", "NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:1:10.0.0.5<0>",
              List.of("mlx5_0"), 1, List.of("IB"), true, "eth0:1", "10.0.0.5"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("usingLines")
    void usingLineVariants(String name, String msg, List<String> ports, int count, List<String> linkLayers,
        boolean ro, String oobName, String oobAddress) {
      LogFacts f = parse("node01:1:1 [0] NCCL INFO " + msg + "\n");
      assertThat(portNames(f)).containsExactlyElementsOf(ports);
      assertThat(f.hcaPorts()).isEqualTo(count);
      assertThat(f.hcaPortsMin()).isEqualTo(count);
      assertThat(f.linkLayers()).containsExactlyInAnyOrderElementsOf(linkLayers);
      assertThat(f.relaxedOrdering()).isEqualTo(ro);
      assertThat(f.oob()).isEqualTo(new Iface(oobName, oobAddress));
      assertThat(f.ibLogged()).isTrue();
      assertThat(f.ibNoDevice()).isFalse();
      assertThat(node(f, "node01").hcaPorts()).isEqualTo(count);
      assertThat(lines(f.evidenceFor("ibUsing"))).containsExactly(1L);
    }

    @Test
    void mergedEntryKeepsItsPorts() {
      LogFacts f = parse("h:1:1 [0] NCCL INFO NET/IB : Using [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} [1]mlx5_2:1/RoCE ; OOB ib0:1.2.3.4<0>\n");
      assertThat(f.hcas()).hasSize(2);
      Hca merged = f.hcas().get(0);
      assertThat(merged.index()).isZero();
      assertThat(merged.merged()).extracting(Hca::name, Hca::port).containsExactly(
          org.assertj.core.groups.Tuple.tuple("mlx5_0", 1), org.assertj.core.groups.Tuple.tuple("mlx5_1", 1));
      assertThat(f.hcas().get(1)).isEqualTo(new Hca(1, "mlx5_2", 1, "RoCE", List.of()));
    }

    @Test
    void emptyListAfterNoDeviceFound224() {
      LogFacts f = parse("""
          h:1:1 [0] NCCL INFO NET/IB : No device found.
          h:1:1 [0] NCCL INFO NET/IB : Using [RO]; OOB eth0:10.244.1.5<0>
          h:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.244.1.5<0>
          h:1:1 [0] NCCL INFO Using network Socket
          h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0
          """);
      assertThat(f.ibNoDevice()).isTrue();
      assertThat(f.hcas()).isEmpty();
      assertThat(f.hcaPorts()).isNull();
      assertThat(f.hcaPortsMin()).isNull();
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(f.rdma()).isFalse();
      assertThat(f.socketInterfaces()).containsExactly(new Iface("eth0", "10.244.1.5"));
      assertThat(lines(f.evidenceFor("ibNoDevice"))).containsExactly(1L);
      assertThat(f.gdr()).isEqualTo("none");
    }

    @Test
    void emptyListWithoutRo() {
      LogFacts f = parse("""
          h:1:1 [0] NCCL INFO NET/IB : No device found.
          h:1:1 [0] NCCL INFO NET/IB : Using ; OOB eth0:10.244.1.5<0>
          """);
      assertThat(f.hcas()).isEmpty();
      assertThat(f.hcaPorts()).isNull();
      assertThat(f.ibNoDevice()).isTrue();
    }

    @Test
    void oneHcaPerLine23() {
      LogFacts f = parse("""
          dgx1:20811:20811 [0] NCCL INFO NET : Using interface ib0:192.168.30.11<0>
          dgx1:20811:20811 [0] NCCL INFO NET/IB : Using interface ib0 for sideband communication
          dgx1:20811:20811 [0] NCCL INFO NET/IB: [0] mlx5_0:1/IB
          dgx1:20811:20811 [0] NCCL INFO NET/IB: [1] mlx5_1:1/IB
          dgx1:20811:20811 [0] NCCL INFO NET/IB: [2] mlx5_2:1/IB
          dgx1:20811:20811 [0] NCCL INFO Using internal Network IB
          dgx1:20811:20811 [0] NCCL INFO NET/Socket : 1 interfaces found
          """);
      assertThat(portNames(f)).containsExactly("mlx5_0", "mlx5_1", "mlx5_2");
      assertThat(f.hcaPorts()).isEqualTo(3);
      assertThat(f.oob().name()).isEqualTo("ib0");
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
      assertThat(f.ncclLines()).isEqualTo(7);
      assertThat(f.inputs().get(0).unplacedLines()).isZero();
    }

    @Test
    void internalNetworkSocketPre23() {
      LogFacts f = parse("""
          host-a:1:1 [0] INFO NET/Socket : 2 interfaces found
          host-a:1:1 [0] INFO Using internal Network Socket
          host-a:1:1 [0] INFO Ring 00 : 0 -> 1 via NET/Socket/0
          """);
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(f.rdma()).isFalse();
      assertThat(f.netChannels().total()).isEqualTo(1);
      assertThat(hosts(f)).containsExactly("host-a");
    }

    @Test
    void portListedTwiceIsCountedOnce() {
      LogFacts f = parse("h:1:1 [0] NCCL INFO NET/IB : Using [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB}"
          + " [1]={[2] mlx5_0:1/IB, [3] mlx5_2:1/IB} ; OOB ib0:1.2.3.4<0>\n");
      assertThat(f.hcaPorts()).isEqualTo(3);
      assertThat(f.hcaPortsMin()).isEqualTo(3);
    }

    @Test
    void hcasAreUnionedAcrossProcessesAndMinimumKept() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB net1:10.0.0.1<0>
          b:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/IB ; OOB net1:10.0.0.2<0>
          """);
      assertThat(f.hcaPorts()).isEqualTo(3);
      assertThat(f.hcaPortsMin()).isEqualTo(1);
      assertThat(f.oobInterfaces()).containsExactly("net1");
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Channels {
    static Stream<Arguments> channelLines() {
      return Stream.of(
          arguments("2.3 no direction", "Ring 00 : 7 -> 0 via NET/IB/0/GDRDMA", "IB", 1, 1),
          arguments("2.4 receive", "Ring 00 : 6 -> 2 [receive] via NET/IB/0", "IB", 0, 0),
          arguments("2.4 send GDR", "Ring 00 : 2 -> 6 [send] via NET/IB/0/GDRDMA", "IB", 1, 1),
          arguments("2.5 send", "Ring 00 : 0[7000] -> 8[7000] [send] via NET/IB/0/GDRDMA", "IB", 1, 1),
          arguments("2.5 receive", "Ring 01 : 8[7000] -> 0[7000] [receive] via NET/IB/1", "IB", 0, 0),
          arguments("2.7", "Channel 00 : 0[7000] -> 8[7000] [send] via NET/IB/0/GDRDMA", "IB", 1, 1),
          arguments("2.8 socket", "Channel 01 : 7[e4000] -> 15[e4000] [receive] via NET/Socket/0", "Socket", 0, 0),
          arguments("2.12", "Channel 00/0 : 0[7000] -> 8[7000] [send] via NET/IB/0/GDRDMA", "IB", 1, 1),
          arguments("2.18.3 receive", "Channel 01/0 : 9[1] -> 1[1] [receive] via NET/IB/1/GDRDMA", "IB", 0, 1),
          arguments("PXN", "Channel 02/0 : 3[b1000] -> 11[b1000] [send] via NET/IB/2(1)/GDRDMA", "IB", 1, 1),
          arguments("PXN no GDR", "Channel 02/0 : 3[b1000] -> 11[b1000] [send] via NET/IB/2(1)", "IB", 1, 0),
          arguments("Shared", "Channel 00/1 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA/Shared", "IB", 1, 1),
          arguments("Shared no GDR", "Channel 00/1 : 0[0] -> 8[0] [send] via NET/IB/0/Shared", "IB", 1, 0),
          arguments("2.26 PCI", "Channel 00/0 : 0[0] -> 4[0] [send] via NET/IB/0/GDRDMA(PCI)", "IB", 1, 1),
          arguments("2.26 PCI Shared", "Channel 00/1 : 0[0] -> 4[0] [send] via NET/IB/0/GDRDMA(PCI)/Shared", "IB", 1, 1),
          arguments("plugin with a space", "Channel 00/0 : 8[0] -> 0[0] [receive] via NET/AWS Libfabric/0/GDRDMA",
              "AWS Libfabric", 0, 1),
          arguments("IBext plugin", "Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IBext_v8/1/GDRDMA", "IBext_v8", 0, 1),
          arguments("two-digit device", "Channel 03/0 : 8[0] -> 0[0] [receive] via NET/IB/13/GDRDMA", "IB", 0, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("channelLines")
    void networkChannelLine(String name, String msg, String net, int send, int gdr) {
      LogFacts f = parse("node01:1:2 [0] NCCL INFO " + msg + "\n");
      ChannelStats c = f.netChannels();
      assertThat(c.total()).isEqualTo(1);
      assertThat(c.send()).isEqualTo(send);
      assertThat(c.receive()).isEqualTo(1 - send);
      assertThat(c.gdrdma()).isEqualTo(gdr);
      assertThat(c.sendGdrdma()).isEqualTo(send == 1 ? gdr : 0);
      assertThat(c.receiveGdrdma()).isEqualTo(send == 1 ? 0 : gdr);
      assertThat(f.localChannels()).isZero();
      assertThat(f.transport()).isEqualTo(net);
      assertThat(f.gdr()).isEqualTo(gdr == 1 ? "all" : "none");
      assertThat(lines(f.evidenceFor(gdr == 1 ? "channels.gdrdma" : "channels.noGdrdma"))).containsExactly(1L);
      assertThat(lines(f.evidenceFor("channels"))).containsExactly(1L);
    }

    static Stream<Arguments> notNetworkLines() {
      return Stream.of(
          arguments("P2P IPC", "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read", 1),
          arguments("P2P CUMEM", "Channel 00/0 : 1[1] -> 2[2] via P2P/CUMEM/read", 1),
          arguments("P2P direct pointer", "Channel 00 : 0[7000] -> 1[8000] via P2P/direct pointer", 1),
          arguments("SHM", "Channel 00 : 0[0] -> 1[1] via SHM/direct/direct", 1),
          arguments("2.3 P2P", "Ring 00 : 0[0] -> 1[1] via P2P/IPC", 1),
          arguments("ring listing", "Channel 00/02 :    1   2   3   0   4   7   6   5", 0),
          arguments("graph ring", "Ring 00 : 0 -> 1 -> 2 -> 3 -> 0", 0),
          arguments("trees", "Trees [0] 1/4/-1->0->-1 [1] 1/-1/-1->0->4", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notNetworkLines")
    void nonNetworkChannelLine(String name, String msg, int local) {
      LogFacts f = parse("node01:1:2 [0] NCCL INFO " + msg + "\n");
      assertThat(f.netChannels()).isEqualTo(ChannelStats.NONE);
      assertThat(f.localChannels()).isEqualTo(local);
      assertThat(f.gdr()).isEqualTo("unknown");
      assertThat(f.transport()).isNull();
    }

    @Test
    void gdrSomeWithReceiveSendSplit() {
      LogFacts f = parse("""
          a:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA
          a:1:2 [0] NCCL INFO Channel 01/0 : 0[0] -> 8[0] [send] via NET/IB/1
          a:1:2 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA
          a:1:2 [0] NCCL INFO Channel 01/0 : 8[0] -> 0[0] [receive] via NET/IB/1/GDRDMA
          a:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read
          """);
      assertThat(f.netChannels()).isEqualTo(new ChannelStats(4, 3, 2, 1, 2, 2));
      assertThat(f.gdr()).isEqualTo("some");
      assertThat(f.localChannels()).isEqualTo(1);
      assertThat(lines(f.evidenceFor("channels.gdrdma"))).containsExactly(1L, 3L, 4L);
      assertThat(lines(f.evidenceFor("channels.noGdrdma"))).containsExactly(2L);
      assertThat(lines(f.evidenceFor("localChannels"))).containsExactly(5L);
    }

    @Test
    void gdrNoneOverTwoHosts() {
      LogFacts f = parse("""
          a:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0
          b:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [receive] via NET/IB/0
          """);
      assertThat(f.gdr()).isEqualTo("none");
      assertThat(f.netChannels()).isEqualTo(new ChannelStats(2, 0, 1, 0, 1, 0));
      assertThat(node(f, "a").netChannels()).isEqualTo(new ChannelStats(1, 0, 1, 0, 0, 0));
      assertThat(node(f, "b").netChannels()).isEqualTo(new ChannelStats(1, 0, 0, 0, 1, 0));
    }

    @Test
    void channelRanksAreTheRanksOfThePrintingProcess() {
      LogFacts f = parse("""
          a:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA
          b:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [receive] via NET/IB/0/GDRDMA
          """);
      assertThat(node(f, "a").ranks()).containsExactly(0);
      assertThat(node(f, "b").ranks()).containsExactly(8);
    }

    @Test
    void connectedAllRingsGdrFlagIsTheMinimum() {
      LogFacts f = parse("""
          a:1:2 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1
          b:1:2 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 0
          c:1:2 [0] NCCL INFO Connected all rings
          """);
      assertThat(f.ringsGdr()).isZero();
      assertThat(lines(f.evidenceFor("ringsGdr"))).containsExactly(1L, 2L);
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class GdrDecisions {
    static Stream<Arguments> decisionLines() {
      return Stream.of(
          arguments("no module", "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)",
              false, "no-module", null, null),
          arguments("2.7 distance >", "GPU Direct RDMA Disabled for GPU b1000 / HCA 0 (distance 4 > 3)",
              false, "distance", 4, 3),
          arguments("distance >=", "GPU Direct RDMA Disabled for GPU 3 / HCA 1 (distance 6 >= 4)",
              false, "distance", 6, 4),
          arguments("2.12 enabled", "GPU Direct RDMA Enabled for GPU 7000 / HCA 0 (distance 4 <= 4), read 1",
              true, "enabled", 4, 4),
          arguments("2.26 enabled mode", "GPU Direct RDMA Enabled for GPU 0 / HCA 0 (distance 5 <= 5), read 1 mode Default",
              true, "enabled", 5, 5),
          arguments("2.21 hex HCA", "GPU Direct RDMA Disabled for GPU 18000 / HCA 1a (distance 7 > 5)",
              false, "distance", 7, 5),
          arguments("2.29 disabled", "GPU Direct RDMA Disabled for GPU/0-28672 (rank 0) - NET/0-0 (distance 8 > 6)",
              false, "distance", 8, 6),
          arguments("2.29 enabled",
              "GPU Direct RDMA Enabled for GPU/0-28672 (rank 0) - NET/0-0 (distance 5 <= 6, read 1, mode Default)",
              true, "enabled", 5, 6),
          arguments("2.13 NIC enabled", "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
              true, "enabled", null, null),
          arguments("2.13 NIC disabled", "NET/IB : GPU Direct RDMA Disabled for HCA 3 'mlx5_3'",
              false, "nic", null, null),
          arguments("IBext plugin peermem", "NET/IB : GPU Direct RDMA (nvidia-peermem) enabled for HCA 0 'mlx5_0",
              true, "enabled", null, null),
          arguments("IBext plugin dmabuf", "NET/IB : GPU Direct RDMA (DMABUF) enabled for HCA 0 'mlx5_0",
              true, "enabled", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decisionLines")
    void gdrDecisionLine(String name, String msg, boolean enabled, String reason, Integer distance,
        Integer threshold) {
      LogFacts f = parse("node01:1:1 [0] NCCL INFO " + msg + "\nnode01:1:1 [0] NCCL INFO " + msg + "\n");
      assertThat(f.gdrDecisions()).singleElement().satisfies(d -> {
        assertThat(d.enabled()).isEqualTo(enabled);
        assertThat(d.reason()).isEqualTo(reason);
        assertThat(d.distance()).isEqualTo(distance);
        assertThat(d.threshold()).isEqualTo(threshold);
        assertThat(d.count()).isEqualTo(2);
        assertThat(lines(d.evidence())).containsExactly(1L, 2L);
      });
    }

    @Test
    void gdrDecision229WithPxn() {
      LogFacts f = parse("node01:1:1 [0] NCCL INFO GPU Direct RDMA Enabled for GPU/0-28672 (rank 0) - NET/0-0"
          + " ( using PXN via GPU/0-4096, distance 5 <= 6, read 1, mode Default)\n");
      assertThat(f.gdrDecisions()).singleElement().satisfies(d -> {
        assertThat(d.enabled()).isTrue();
        assertThat(d.distance()).isEqualTo(5);
        assertThat(d.threshold()).isEqualTo(6);
      });
    }

    @Test
    void decisionsAreGroupedByOutcome() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'
          a:1:1 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 0 / HCA 0 (distance 7 > 5)
          a:1:1 [1] NCCL INFO GPU Direct RDMA Disabled for GPU 1 / HCA 0 (distance 7 > 5)
          a:1:1 [1] NCCL INFO GPU Direct RDMA Disabled for GPU 1 / HCA 1 (distance 8 > 5)
          """);
      assertThat(f.gdrDecisions()).extracting(GdrDecision::reason, GdrDecision::distance, GdrDecision::count)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple("enabled", null, 1L),
              org.assertj.core.groups.Tuple.tuple("distance", 7, 2L),
              org.assertj.core.groups.Tuple.tuple("distance", 8, 1L));
    }

    @Test
    void dmabufAvailable() {
      assertThat(parse("a:1:1 [0] NCCL INFO DMA-BUF is available on GPU device 0\n").dmabufAvailable()).isTrue();
      assertThat(parse("a:1:1 [0] NCCL INFO Using network IB\n").dmabufAvailable()).isFalse();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Env {
    static Stream<Arguments> envLines() {
      return Stream.of(
          arguments("NCCL_IB_DISABLE set by environment to 1.", "NCCL_IB_DISABLE", "1"),
          arguments("NCCL_IB_GID_INDEX set by environment to 3.", "NCCL_IB_GID_INDEX", "3"),
          arguments("NCCL_IB_TIMEOUT set by environment to -1.", "NCCL_IB_TIMEOUT", "-1"),
          arguments("NCCL_IB_GID_INDEX set by environment to 18446744073709551615.", "NCCL_IB_GID_INDEX",
              "18446744073709551615"),
          arguments("NCCL_P2P_DISABLE set by environment to 1", "NCCL_P2P_DISABLE", "1"),
          arguments("NCCL_IB_HCA set to ^=mlx5_2,mlx5_3", "NCCL_IB_HCA", "^=mlx5_2,mlx5_3"),
          arguments("NCCL_IB_HCA set to =mlx5_0:1:0,mlx5_1:1:1", "NCCL_IB_HCA", "=mlx5_0:1:0,mlx5_1:1:1"),
          arguments("NCCL_IB_HCA set to mlx5", "NCCL_IB_HCA", "mlx5"),
          arguments("NCCL_NET_GDR_LEVEL set by environment to PHB", "NCCL_NET_GDR_LEVEL", "PHB"),
          arguments("NCCL_SOCKET_IFNAME set by environment to =eth0", "NCCL_SOCKET_IFNAME", "=eth0"),
          arguments("NCCL_SOCKET_IFNAME set to ^docker,lo", "NCCL_SOCKET_IFNAME", "^docker,lo"),
          arguments("NCCL_TOPO_FILE set by environment to /etc/nccl/topo.xml", "NCCL_TOPO_FILE", "/etc/nccl/topo.xml"),
          arguments("NCCL_COMM_ID set by environment to 10.0.0.1:29500", "NCCL_COMM_ID", "10.0.0.1:29500"),
          arguments("NCCL_NET_PLUGIN set by environment to none", "NCCL_NET_PLUGIN", "none"),
          arguments("Plugin name set by env to libnccl-net-aws.so", "NCCL_NET_PLUGIN", "libnccl-net-aws.so"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("envLines")
    void envEchoLine(String msg, String name, String value) {
      LogFacts f = parse("some text\nnode01:1:1 [0] NCCL INFO " + msg + "\n");
      assertThat(f.env()).containsEntry(name, value).hasSize(1);
      assertThat(f.envConflicts()).isEmpty();
      assertThat(lines(f.evidenceFor("env." + name))).containsExactly(2L);
    }

    @Test
    void pluginNameSetByEnvWithNetPluginPrefix() {
      LogFacts f = parse("node01:1:1 [0] NCCL INFO NET/Plugin: Plugin name set by env to libnccl-net-aws.so\n");
      assertThat(f.env()).containsEntry("NCCL_NET_PLUGIN", "libnccl-net-aws.so");
    }

    @Test
    void conflictingValuesAreKeptInOrder() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0
          b:1:1 [0] NCCL INFO NCCL_IB_HCA set to mlx5_1
          c:1:1 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0
          """);
      assertThat(f.env()).containsEntry("NCCL_IB_HCA", "mlx5_0");
      assertThat(f.envConflicts()).containsEntry("NCCL_IB_HCA", List.of("mlx5_0", "mlx5_1"));
      assertThat(lines(f.evidenceFor("env.NCCL_IB_HCA"))).containsExactlyInAnyOrder(1L, 2L, 3L);
    }

    @Test
    void numericValueRepeatedWithAndWithoutDotIsOneValue() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1.
          a:1:1 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1
          """);
      assertThat(f.env()).containsEntry("NCCL_P2P_DISABLE", "1");
      assertThat(f.envConflicts()).isEmpty();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Errors {
    static Stream<Arguments> errorLines() {
      return Stream.of(
          arguments("misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory",
              "ibv_reg_mr", "Cannot allocate memory", null),
          arguments("misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed", "ibv_reg_mr", null, null),
          arguments("misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Bad address",
              "ibv_reg_mr", "Bad address", null),
          arguments("misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Operation not supported",
              "ibv_reg_dmabuf_mr", "Operation not supported", null),
          arguments("misc/ibvwrap.cc:190 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument",
              "ibv_modify_qp", "Invalid argument", null),
          arguments("misc/ibvwrap.cc:108 (wrap_ibv_open_device) NCCL WARN Call to ibv_open_device failed",
              "ibv_open_device", null, null),
          arguments("NCCL INFO Call to ibv_reg_mr failed with error Bad address", "ibv_reg_mr", "Bad address", null),
          arguments("transport/net_ib/init.cc:571 (ncclIbInitDevices) NCCL WARN NET/IB : Unable to open device mlx5_2",
              "ib_device_unusable", "mlx5_2", null),
          arguments("transport/net_ib.cc:1 NCCL WARN NET/IB : No IP interface found.", "ib_no_ip_interface", null, null),
          arguments("transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129",
              "completion_error", null, 12),
          arguments("transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45678> with error 12,"
              + " opcode 0, len 0, vendor err 129", "completion_error", null, 12),
          arguments("transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<40213> with"
              + " status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2",
              "completion_error", null, 12),
          arguments("transport/net_ib.cc:1 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<40213> with"
              + " status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129  hca mlx5_0",
              "completion_error", null, 12),
          arguments("transport/net_ib.cc:1 NCCL WARN NET/IB : mlx5_0:1 async fatal event: local catastrophic error",
              "ib_async_event", "local catastrophic error", null),
          arguments("NCCL INFO Failed to open libibverbs.so[.1]", "libibverbs_missing", "libibverbs.so[.1]", null),
          arguments("NCCL INFO Failed to initialize NET plugin IB", "net_plugin_init", "IB", null),
          arguments("init.cc:1 NCCL WARN Failed to initialize any NET plugin", "net_none", null, null),
          arguments("init.cc:1 NCCL WARN Error: network ib not found.", "net_not_found", "ib", null),
          arguments("NCCL INFO External network plugin libnccl-net.so is unsupported", "net_plugin_load",
              "libnccl-net.so", null),
          arguments("misc/socket.cc:1 NCCL WARN NET/Socket : no interface found", "socket_no_interface", null, null),
          arguments("bootstrap.cc:1 NCCL WARN Bootstrap : no socket interface found", "socket_no_interface", null, null),
          arguments("NCCL INFO transport/net_ib.cc:1041 -> 2", "nccl_system_error", "ncclResult 2 (ncclSystemError)", null),
          arguments("NCCL INFO proxy.cc:1 -> 2 [Async thread]", "nccl_system_error", "ncclResult 2 (ncclSystemError)", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errorLines")
    void errorSignature(String rest, String kind, String detail, Integer status) {
      LogFacts f = parse("\nnode07:55:312 [0] " + rest + "\n");
      ErrorSignature e = onlyError(f);
      assertThat(e.kind()).isEqualTo(kind);
      assertThat(e.detail()).isEqualTo(detail);
      assertThat(e.status()).isEqualTo(status);
      assertThat(e.count()).isEqualTo(1);
      assertThat(e.hosts()).containsExactly("node07");
      assertThat(lines(e.evidence())).containsExactly(2L);
      assertThat(hosts(f)).containsExactly("node07");
    }

    @Test
    void backtrace2307WithFunction() {
      LogFacts f = parse("node04:1:2 [0] NCCL INFO init.cc:1832 (ncclCommInitRankFunc) -> 3\n");
      ErrorSignature e = onlyError(f);
      assertThat(e.kind()).isEqualTo("nccl_system_error");
      assertThat(e.detail()).isEqualTo("ncclResult 3 (ncclInternalError)");
    }

    @Test
    void benignPluginLinesAreNotErrors() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so
          a:1:1 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation
          a:1:1 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.
          a:1:1 [0] NCCL INFO Using non-device net plugin version 0
          a:1:1 [0] NCCL INFO Trees [0] 1/4/-1->0->-1 [1] 1/-1/-1->0->4
          a:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read
          """);
      assertThat(f.errors()).isEmpty();
    }

    @Test
    void sameErrorOnManyLinesIsOneSignatureWithCount() {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 10; i++) {
        sb.append("\nhost").append(i % 2).append(":1:1 [0] misc/ibvwrap.cc:1 NCCL WARN Call to ibv_reg_mr failed"
            + " with error Cannot allocate memory\n");
      }
      ErrorSignature e = onlyError(parse(sb.toString()));
      assertThat(e.count()).isEqualTo(10);
      assertThat(e.hosts()).containsExactly("host0", "host1");
      assertThat(lines(e.evidence())).containsExactly(2L, 4L, 6L);
    }

    @Test
    void loadedPluginNameWithASpace() {
      LogFacts f = parse("a:1:1 [0] NCCL INFO NET/Plugin: Loaded net plugin AWS Libfabric (v6)\n");
      assertThat(f.netPlugins()).containsExactly("AWS Libfabric");
    }

    @Test
    void completionStatusWithSpacedStatusText() {
      LogFacts f = parse("h:1:1 [0] transport/net_ib.cc:1 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<40213>"
          + " with status=transport retry counter exceeded(12) opcode=RDMA_WRITE(1) vendor_err=129  hca mlx5_0\n");
      assertThat(onlyError(f).status()).isEqualTo(12);
    }

    @Test
    void loadedPluginsAreListed() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO P2P plugin IBext_v8
          a:1:1 [0] NCCL INFO NET/Plugin: Loaded net plugin IBext_v9 (v9)
          """);
      assertThat(f.netPlugins()).containsExactlyInAnyOrder("IBext_v8", "IBext_v9");
      assertThat(f.errors()).isEmpty();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class JobShape {
    private static final String MIXED = """
        a:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB net1:192.168.0.1<0>
        a:1:1 [0] NCCL INFO Using network IB
        a:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[0] [send] via NET/IB/0/GDRDMA
        b:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB net1:192.168.0.2<0>
        b:1:1 [0] NCCL INFO Using network IB
        b:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA
        c:1:1 [0] NCCL INFO NET/IB : No device found.
        c:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.244.0.9<0>
        c:1:1 [0] NCCL INFO Using network Socket
        c:1:1 [0] NCCL INFO Channel 00/0 : 2[0] -> 0[0] [send] via NET/Socket/0
        """;

    @Test
    void mixedTransportNamesTheOddHost() {
      LogFacts f = parse(MIXED);
      assertThat(f.transport()).isEqualTo("mixed");
      assertThat(f.rdma()).isFalse();
      assertThat(f.transportNodes()).containsEntry("IB", 2).containsEntry("Socket", 1).hasSize(2);
      assertThat(f.nodes()).isEqualTo(3);
      assertThat(f.nodesFrom()).isEqualTo("hostnames");
      assertThat(node(f, "c").transport()).isEqualTo("Socket");
      assertThat(f.differs()).filteredOn(d -> d.aspect().equals("transport")).singleElement().satisfies(d -> {
        assertThat(d.who()).isEqualTo("c");
        assertThat(d.what()).contains("Socket").contains("IB");
        assertThat(lines(d.evidence())).contains(10L).allMatch(l -> l >= 7 && l <= 10);
      });
      assertThat(f.differs()).extracting(Difference::who).containsOnly("c");
      assertThat(f.gdr()).isEqualTo("some");
    }

    @Test
    void hcaCountAndOobDifferencesNameTheHost() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB net1:192.168.0.1<0>
          b:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB net1:192.168.0.2<0>
          c:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.244.0.9<0>
          """);
      assertThat(f.differs()).extracting(Difference::who, Difference::aspect).containsExactlyInAnyOrder(
          org.assertj.core.groups.Tuple.tuple("c", "hcas"), org.assertj.core.groups.Tuple.tuple("c", "oob"));
      assertThat(f.hcaPortsMin()).isEqualTo(1);
      assertThat(f.oob().name()).isEqualTo("net1");
      assertThat(f.oobInterfaces()).containsExactlyInAnyOrder("net1", "eth0");
    }

    @Test
    void agreeingNodesHaveNoDifferences() {
      LogFacts f = parse(MIXED.lines().limit(6).reduce("", (x, y) -> x + y + "\n"));
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
      assertThat(f.differs()).isEmpty();
    }

    @Test
    void nodesFromCommLineOutrankHostnames() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO ncclCommInitRank comm 0x55e0b3c71a20 rank 0 nranks 32 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5f3e1a9c07d2b846 - Init START
          a:1:1 [0] NCCL INFO comm 0x55e0b3c71a20 rank 0 nRanks 32 nNodes 4 localRanks 8 localRank 0 MNNVL 0
          """);
      assertThat(f.nodes()).isEqualTo(4);
      assertThat(f.nodesFrom()).isEqualTo("comm");
      assertThat(f.singleNode()).isFalse();
      assertThat(f.ranks()).isEqualTo(32);
      assertThat(f.localGpus()).isEqualTo(8);
      assertThat(lines(f.evidenceFor("comm"))).containsExactly(1L, 2L);
    }

    @Test
    void nodesFromDistinctHosts() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO Using network IB
          b:1:1 [0] NCCL INFO Using network IB
          b:2:2 [1] NCCL INFO Using network IB
          """);
      assertThat(f.nodes()).isEqualTo(2);
      assertThat(f.nodesFrom()).isEqualTo("hostnames");
      assertThat(f.processes()).isEqualTo(3);
      assertThat(f.ranks()).isEqualTo(3);
    }

    @Test
    void singleNodeFromComm() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 4 nNodes 1 localRanks 4 localRank 0 MNNVL 0
          a:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read
          """);
      assertThat(f.nodes()).isEqualTo(1);
      assertThat(f.singleNode()).isTrue();
      assertThat(f.localChannels()).isEqualTo(1);
    }

    @Test
    void oldInitCompleteAndRankLines() {
      assertThat(parse("a:1:1 [0] NCCL INFO comm 0x7f rank 0 nranks 8 cudaDev 0 nvmlDev 0 - Init COMPLETE\n")
          .ranks()).isEqualTo(8);
      assertThat(parse("a:1:1 [0] NCCL INFO rank 0 nranks 8\n").ranks()).isEqualTo(8);
      assertThat(parse("a:1:1 [0] NCCL INFO [Rank 0] ncclCommInitRankConfig comm 0x1 rank 0 nranks 16 cudaDev 0"
          + " nvmlDev 0 busId 18000 commId 0x1 - Init START\n").ranks()).isEqualTo(16);
    }

    @Test
    void versionLines() {
      LogFacts f = parse("""
          NCCL version 2.21.5+cuda12.4
          a:1:1 [0] NCCL INFO NCCL version 2.18.3+cuda12.2
          a:1:1 [0] NCCL INFO NCCL git version master v2.30.7-1
          """);
      assertThat(f.ncclVersions()).containsExactlyInAnyOrder("2.21.5+cuda12.4", "2.18.3+cuda12.2");
      assertThat(lines(f.evidenceFor("versions"))).containsExactlyInAnyOrder(1L, 2L);
      assertThat(f.ncclLines()).isEqualTo(3);
    }

    @Test
    void bootstrapAndSocketInterfaces() {
      LogFacts f = parse("""
          a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.244.3.21<0>
          b:1:1 [0] NCCL INFO Bootstrap: Using net1:192.168.1.2<0>
          a:1:1 [0] NCCL INFO NET/Socket : Using [0]ens1f0:10.0.0.1<0> [1]ens1f1:10.0.1.1<0>
          """);
      assertThat(f.bootstrap()).isEqualTo(new Iface("eth0", "10.244.3.21"));
      assertThat(f.socketInterfaces()).containsExactly(new Iface("ens1f0", "10.0.0.1"), new Iface("ens1f1", "10.0.1.1"));
    }

    @Test
    void bootstrapList27() {
      LogFacts f = parse("a:1:1 [0] NCCL INFO Bootstrap : Using [0]ib0:192.168.10.1<0> [1]eth0:10.0.0.1<0>\n");
      assertThat(f.bootstrap()).isEqualTo(new Iface("ib0", "192.168.10.1"));
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class DamagedLines {
    /** corpus vllm-9193: kubectl cut a line mid-word and the next line's host follows "nvm". */
    private static final String VLLM_GLUED = """
        2024-10-23T19:30:56.633819710Z lax-ai-vllm-model-78d9c658c8-qlw8z:271:402 [1] NCCL INFO comm 0x2619e050 rank 1 nranks 4 cudaDev 1 nvmlax-ai-vllm-model-78d9c658c8-qlw8z:273:273 [3] NCCL INFO cudaDriverVersion 12040
        2024-10-23T19:30:56.633819710Z lax-ai-vllm-model-78d9c658c8-qlw8z:273:273 [3] NCCL INFO Bootstrap : Using eth0:10.130.6.121<0>
        2024-10-23T19:30:56.633819710Z lax-ai-vllm-model-78d9c658c8-qlw8z:273:273 [3] NCCL INFO NET/IB : No device found.
        2024-10-23T19:30:56.633819710Z lax-ai-vllm-model-78d9c658c8-qlw8z:273:273 [3] NCCL INFO Using network Socket
        """;

    @Test
    void gluedLinesAreBothParsedWithoutAPhantomHost() {
      LogFacts f = parse(VLLM_GLUED);
      assertThat(hosts(f)).containsExactly("lax-ai-vllm-model-78d9c658c8-qlw8z");
      assertThat(f.processes()).isEqualTo(2);
      assertThat(f.ncclLines()).isEqualTo(5);
      assertThat(f.ranks()).isEqualTo(4);
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(f.nodes()).isNotEqualTo(2);
      assertThat(f.differs()).isEmpty();
    }

    @Test
    void gluedRecordsOfTwoProcessesFromSample25() throws Exception {
      LogFacts f = Logs.parseFile(Path.of("samples/logs/25-glued-crlf-ansi-socket-2.21.5.log"), 1,
          Logs.DEFAULT_MAX_LINE, Long.MAX_VALUE);
      assertThat(hosts(f)).containsExactly("trainer-worker-0", "trainer-worker-1");
      assertThat(f.processes()).isEqualTo(4);
      assertThat(node(f, "trainer-worker-0").processes()).isEqualTo(2);
      // line 15 holds the Socket line of pid 61 and the "No device found" of pid 62
      assertThat(lines(f.evidenceFor("ibNoDevice"))).contains(15L);
      assertThat(lines(f.evidenceFor("socket"))).contains(15L);
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(f.nodes()).isEqualTo(2);
      assertThat(f.ranks()).isEqualTo(8);
      assertThat(f.differs()).isEmpty();
      assertThat(f.netChannels()).isEqualTo(new ChannelStats(4, 0, 2, 0, 2, 0));
    }

    @Test
    void gluedLineEndingInAnAddressKeepsTheInterface() {
      LogFacts f = parse("""
          trainer-worker-0:61:288 [0] NCCL INFO NET/Socket : Using [0]eth0:10.244.3.21<0>trainer-worker-0:62:291 [1] NCCL INFO NET/IB : No device found.
          trainer-worker-0:62:291 [1] NCCL INFO NET/Socket : Using [0]eth0:10.244.3.21<0>
          """);
      assertThat(f.socketInterfaces()).containsExactly(new Iface("eth0", "10.244.3.21"));
      assertThat(hosts(f)).containsExactly("trainer-worker-0");
    }

    @Test
    void gluedRecordOfAKnownHostIsAttributedToIt() {
      LogFacts f = parse("""
          b:2:2 [1] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>
          a:1:1 [0] NCCL INFO NET/IB : No device found.b:2:2 [1] NCCL INFO Using network Socket
          a:1:1 [0] NCCL INFO Using network Socket
          """);
      assertThat(hosts(f)).containsExactlyInAnyOrder("a", "b");
      assertThat(node(f, "b").transport()).isEqualTo("Socket");
      assertThat(lines(f.evidenceFor("network"))).contains(2L, 3L);
      assertThat(f.ibNoDevice()).isTrue();
    }

    @Test
    void crlfLineEndings() {
      LogFacts f = parse(String.join("\r\n",
          "h:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:192.168.10.1<0>",
          "h:1:1 [0] NCCL INFO Using network IB",
          "h:1:1 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0",
          "h:1:1 [0] NCCL INFO NCCL_IB_TIMEOUT set by environment to 22.",
          "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA",
          "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0",
          ""));
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.oob()).isEqualTo(new Iface("ib0", "192.168.10.1"));
      assertThat(f.env()).containsEntry("NCCL_IB_HCA", "mlx5_0").containsEntry("NCCL_IB_TIMEOUT", "22");
      assertThat(f.netChannels()).isEqualTo(new ChannelStats(2, 1, 2, 1, 0, 0));
      assertThat(f.evidenceFor("network")).singleElement().satisfies(e ->
          assertThat(e.text()).isEqualTo("h:1:1 [0] NCCL INFO Using network IB"));
      assertThat(f.inputs().get(0).lines()).isEqualTo(6);
    }

    @Test
    void lonelyCarriageReturnsInsideALine() {
      LogFacts f = parse("h:1:1 [0] NCCL INFO Using network IB\r\r\nh:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\r\n");
      assertThat(f.netChannels().gdrdma()).isEqualTo(1);
      assertThat(f.rdma()).isNotEqualTo(Boolean.FALSE);
    }

    @Test
    void ansiColourCodes() {
      String esc = "\u001b";
      LogFacts f = parse(String.join("\n",
          esc + "[32m[2026-05-01 10:00:00]" + esc + "[0m " + esc + "[1mh:1:1 [0] NCCL INFO Using network IB" + esc + "[0m",
          esc + "[1;33mh:1:1 [0] misc/ibvwrap.cc:1 NCCL WARN" + esc + "[0m Call to ibv_reg_mr failed with error Bad address",
          "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/" + esc + "[31mGDRDMA" + esc + "[0m",
          ""));
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(hosts(f)).containsExactly("h");
      assertThat(onlyError(f).detail()).isEqualTo("Bad address");
      assertThat(f.netChannels().gdrdma()).isEqualTo(1);
      assertThat(f.evidenceFor("network")).singleElement().satisfies(e -> assertThat(e.text()).doesNotContain(esc));
    }

    @Test
    void invalidUtf8Bytes() throws Exception {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      b.write(new byte[] {(byte) 0xff, (byte) 0xfe, ' ', (byte) 0xc3, '(', '\n'});
      b.write("h:1:1 [0] NCCL INFO Using network IB \u00e9".getBytes(StandardCharsets.ISO_8859_1));
      b.write('\n');
      b.write("h".getBytes(StandardCharsets.US_ASCII));
      b.write(new byte[] {(byte) 0xe2, (byte) 0x82});
      b.write(":1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:\u00ff<0>\n".getBytes(StandardCharsets.ISO_8859_1));
      b.write("h:1:1 [0] NCCL INFO NCCL_IB_HCA set to ml\u00e9x5\n".getBytes(StandardCharsets.ISO_8859_1));
      b.write("h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n".getBytes(StandardCharsets.US_ASCII));
      LogFacts f = parse(b.toByteArray());
      assertThat(f.inputs().get(0).lines()).isEqualTo(5);
      assertThat(f.ncclLines()).isEqualTo(4);
      assertThat(f.netChannels().gdrdma()).isEqualTo(1);
      assertThat(f.hcaPorts()).isEqualTo(1);
      assertThat(f.env()).containsKey("NCCL_IB_HCA");
      // a host name is ASCII; bytes that are not may drop the host, never the line
      assertThat(hosts(f)).contains("h");
    }

    @Test
    void truncatedLastLineWithoutNewline() {
      LogFacts f = parse("h:1:1 [0] NCCL INFO Using network IB\nh:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [se");
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.inputs().get(0).lines()).isEqualTo(2);
      assertThat(f.netChannels().total()).isLessThanOrEqualTo(1);
    }

    @Test
    void twoInputsAreOneJobWithTheirOwnLineNumbers(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
      Files.writeString(dir.resolve("a.log"), "x\na:1:1 [0] NCCL INFO Using network IB\n");
      Files.writeString(dir.resolve("b.log"), "b:1:1 [0] NCCL INFO Using network IB\n");
      LogFacts f = new dev.nccltriage.source.log.NcclLogSource(java.io.InputStream.nullInputStream(), 1)
          .read(List.of("a.log", "b.log"), dir);
      assertThat(f.inputs()).extracting(i -> i.source(), i -> i.lines())
          .containsExactly(org.assertj.core.groups.Tuple.tuple("a.log", 2L), org.assertj.core.groups.Tuple.tuple("b.log", 1L));
      assertThat(f.evidenceFor("network")).extracting(Evidence::location).containsExactly("a.log:2", "b.log:1");
      assertThat(f.nodes()).isEqualTo(2);
    }
  }
}
