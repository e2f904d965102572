package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.LogLines.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.Iface;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NodeFacts;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which message family a line belongs to, and what each family tells about the process that
 * printed it. A line whose "host:pid:tid [dev] NCCL INFO" prefix was cut off (a user pasting only
 * the messages) is counted as NCCL output exactly when its message belongs to a family the
 * parser knows: the count is where a wrong "known" answer of a family shows.
 */
class MessageFamiliesTest {
  private static final String P = "node01:23051:23051 [0] NCCL INFO ";

  @ParameterizedTest
  @ValueSource(strings = {
    "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
    "Connected all rings",
    "Connected all trees",
    "Connected all rings, use ring PXN 0 GDR 1", // 2.24+
    "Connected NVLS tree", // 2.17+
    "Ring 00 : 0 1 2 3 4 5 6 7",
    "Using network IB",
    "Using internal Network Socket",
    "DMA-BUF is available on GPU device 0",
    "comm 0x55d4c8a0 rank 0 nranks 8 cudaDev 0 busId 1000 - Init COMPLETE",
    "rank 0 nranks 8", // 2.3
    "1 -> 0 via NET/IB/0", // a channel body after its "Ring 00 : " was cut off
    "ncclCommInitRank comm 0x7f3c28001000 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 1000 commId 0x1 - Init START",
    "NCCL version 2.18.1+cuda12.1",
    "NCCL_IB_HCA set by environment to mlx5_0",
    "Bootstrap : Using eth0:10.0.0.1<0>",
    "CUDA Dev 0[0], IB NIC distance :  PHB",
    "GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)",
    "NET/Plugin : Loaded net plugin NCCL RDMA Plugin v8 (v8)",
    "NET/Plugin: Plugin name set by env to libnccl-net-ofi.so",
    "NET/OFI Selected Provider is efa, fabric is efa-direct (found 4 nics)",
    "NET/IB : No device found.",
    "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>",
    "NET/IB : Using interface ib0 for sideband communication",
    "NET/IB : [0] mlx5_0:1/IB",
    "NET/Socket : Using [0]eth0:10.0.0.1<0>",
    "NET : Using interface eth0:10.0.0.1<0>",
    "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
    "NET/Socket : 2 interfaces found",
    "transport/net_ib.cc:368 -> 2",
    "include/socket.h:412 -> 2",
    "transport/net.cc:1302 (ncclTransportP2pSetup) -> 6", // 2.30.7+: the function named too
    "proxy.cc:698 -> 6 [Async thread]",
    "/opt/nccl/src/init.cc:1234 -> 2", // a build whose __FILE__ is absolute
    "Plugin name set by env to libnccl-net.so", // the plugin-env echo without its "NET/Plugin: "
  })
  void aMessageOfAKnownFamilyCountsAsNcclOutputWithoutItsPrefix(String message) {
    assertThat(parse(message).ncclLines()).as(message).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "Channel ", // the family's first word and nothing of a channel
    "Ring ",
    "Connected to the internet", // "Connected" and no family after it
    "Using network   ", // no network named
    "Dumping the topology", // 'D', but not DMA-BUF
    "comm 0x55d4c8a0 freed", // a comm named, but no rank and no rank count
    "ncclCommFinalize comm 0x55d4c8a0 done",
    "GPU Direct RDMA is a thing",
    "NET/IB : GPU Direct RDMA is a thing",
    "Failed to frobnicate",
    "NET/Foo : a line of a plugin nccl-triage does not know",
    "Loaded kernels.cc:12 -> 3", // a source path, but not where a backtrace has it (first)
  })
  void aTextOfNoKnownFamilyIsNotNcclOutputWithoutAPrefix(String message) {
    assertThat(parse(message).ncclLines()).as("'" + message + "'").isZero();
  }

  @Test
  void aDLineThatIsNotDmaBufDoesNotMarkDmaBufAvailable() {
    assertThat(parse(P + "Dumping the topology").dmabufAvailable()).isFalse();
    assertThat(parse(P + "DMA-BUF is available on GPU device 0").dmabufAvailable()).isTrue();
    // only "DMA-BUF is available" says it is
    assertThat(parse(P + "DMA-BUF is not available").dmabufAvailable()).isFalse();
  }

  @Test
  void onlyAnIbNoDeviceLineTurnsASocketListIntoTheSocketTransport() {
    // the socket list alone is no verdict (2.4.0-2.4.7 print it whatever was chosen); IB failing
    // next to it is. Another plugin's "No device found" says nothing of IB.
    String socket = P + "NET/Socket : Using [0]eth0:10.0.0.1<0>";
    assertThat(parse(socket, P + "NET/IB : No device found.").transport()).isEqualTo("Socket");
    assertThat(parse(socket, P + "NET/Foo : No device found.").transport()).isNull();
  }

  @Test
  void theRankOfA23RankLineIsTheProcessRankEvenRankZero() {
    // 2.3 prints "rank R nranks N" with no "comm 0x..": rank 0 is a rank like any other
    LogFacts f = parse("dgx-r07-n1:20811:20811 [0] NCCL INFO rank 0 nranks 8",
        "dgx-r07-n1:20814:20814 [3] NCCL INFO rank 3 nranks 8");
    NodeFacts n = f.nodeDetails().get(0);
    assertThat(n.ranks()).containsExactly(0, 3);
    assertThat(f.ranks()).isEqualTo(8);
  }

  @Test
  void aCommLineWithARankButNoRankCountStillNamesTheRank() {
    LogFacts f = parse(P + "comm 0x55d4c8a0 rank 5 - Abort COMPLETE");
    assertThat(f.ncclLines()).isEqualTo(1);
    assertThat(f.nodeDetails().get(0).ranks()).containsExactly(5);
  }

  @Test
  void theOldNetInterfaceLineListsSocketInterfacesButIsNoNetworkInit() {
    // 2.3: "NET : Using interface eth0:..." and "NET: Using interface": the socket transport's
    // interfaces; neither is one of the init lines (Bootstrap, NET/Plugin, NET/Socket, NET/IB)
    LogFacts f = parse(P + "NET : Using interface eth0:10.0.0.1<0>", P + "NET: Using interface eth1:10.0.1.1<0>");
    assertThat(f.socketInterfaces()).extracting(Iface::name).containsExactly("eth0", "eth1");
    assertThat(f.signals().initLogged()).isFalse();
    assertThat(f.ibLogged()).isFalse();
  }

  @Test
  void everyProcessThatPrintsAnOldInterfaceLineListsTheInterfaceOnce() {
    // 2.3 prints the line per connection: a repeated text adds nothing, and a second process
    // printing the same text gets the interface too
    String line = "NET : Using interface eth0:10.0.0.1<0>";
    LogFacts f = parse(P + line, P + line, "node02:4242:4242 [0] NCCL INFO " + line);
    assertThat(f.socketInterfaces()).extracting(Iface::render).containsExactly("eth0:10.0.0.1");
    assertThat(f.evidenceFor("socket")).extracting(e -> e.text().substring(0, 6)).contains("node01", "node02");
  }

  @Test
  void aProcessKeepsAsManyOldStyleSocketInterfacesAsAMergeDoes() {
    // NCCL 2.3 prints 16 at most (MAX_IFS); a garbled log's further ones stop where a merge of
    // parts stops, so that one thread and several keep the same
    String[] lines = new String[ProcessState.MAX_SOCKET_IFACES + 1];
    for (int i = 0; i < lines.length; i++) {
      lines[i] = P + "NET : Using interface eth" + i + ":10.0." + i + ".1<0>";
    }
    assertThat(parse(lines).socketInterfaces()).hasSize(ProcessState.MAX_SOCKET_IFACES);
  }

  @Test
  void socketAndIbLinesShowTheNetworkInitAndOnlyIbLinesShowIb() {
    LogFacts socket = parse(P + "NET/Socket : 2 interfaces found");
    assertThat(socket.signals().initLogged()).isTrue();
    assertThat(socket.ibLogged()).isFalse();
    LogFacts ibError = parse(P + "NET/IB : Got async event : port error");
    assertThat(ibError.signals().initLogged()).isTrue();
    assertThat(ibError.ibLogged()).isTrue();
    assertThat(parse(P + "NET/Socket : Using [0]eth0:10.0.0.1<0>").ibLogged()).isFalse();
  }

  @Test
  void aLoopbackInterfaceListedBySocketOrAsIbOobIsSeen() {
    assertThat(parse(P + "NET/Socket : Using [0]lo:127.0.0.1<0>").signals().loopback()).isTrue();
    assertThat(parse(P + "NET/IB : Using [0]mlx5_0:1/IB ; OOB lo:127.0.0.1<0>").signals().loopback()).isTrue();
    assertThat(parse(P + "NET/Socket : Using [0]eth0:10.0.0.1<0>").signals().loopback()).isFalse();
  }

  @Test
  void aFrameworkPrintedVersionIsKeptWhenNcclsOwnLineIsAbsent() {
    assertThat(parse("NCCL version: 2.18.1").signals().frameworkVersion()).isEqualTo("2.18.1");
  }

  @Test
  void oneCommunicatorRingWithoutGdrMakesTheProcessRingsGdrZero() {
    // 2.24+ prints per communicator whether its rings use GDR: one without is enough to say 0
    LogFacts f = parse(P + "Connected all rings, use ring PXN 0 GDR 0", P + "Connected all rings, use ring PXN 0 GDR 1");
    assertThat(f.ringsGdr()).isZero();
    assertThat(parse(P + "Connected all rings, use ring PXN 0 GDR 1").ringsGdr()).isEqualTo(1);
  }

  @Test
  void theLinesThatTellTheNetworkAreCitedAsItsEvidence() {
    // a report cites, for each network fact, the line it came from
    assertThat(parse(P + "NET/IB : Using interface ib0 for sideband communication").evidenceFor("ibUsing")).hasSize(1);
    assertThat(parse(P + "NET/IB : [0] mlx5_0:1/IB").evidenceFor("ibUsing")).hasSize(1);
    assertThat(parse(P + "NET : Using interface eth0:10.0.0.1<0>").evidenceFor("socket")).hasSize(1);
    assertThat(parse(P + "CUDA Dev 0[0], IB NIC distance :  PHB").evidenceFor("network")).hasSize(1);
  }
}
