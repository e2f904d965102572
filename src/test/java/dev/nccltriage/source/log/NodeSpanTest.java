package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.LogLines.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How many nodes a job spans (LogFacts.nodes / nodesFrom / singleNode), read from evidence only:
 * what the log shows is a lower bound of the job. Each case gives the evidence the spec names
 * (§0b) and nothing that would settle the count earlier, so that the answer and where it came
 * from are the rule's under test.
 */
class NodeSpanTest {
  private static final String N1 = "node01:23051:23051 [0] NCCL INFO ";

  private static void assertUnknown(LogFacts f) {
    assertThat(f.nodes()).as("nodes").isNull();
    assertThat(f.nodesFrom()).as("nodesFrom").isNull();
    assertThat(f.singleNode()).as("singleNode").isNull();
  }

  // --- errors of the network transport

  @Test
  void aFailedProxyConnectShowsSeveralNodes() {
    // the proxy connects a rank's network transport: traffic between nodes
    LogFacts f = parse(N1 + "Bootstrap : Using eth0:10.0.0.1<0>",
        "node01:23051:23140 [0] proxy.cc:1459 NCCL WARN Proxy Call to rank 3 failed (Connect)");
    assertThat(f.nodesFrom()).isEqualTo("errors");
    assertThat(f.singleNode()).isFalse();
    assertThat(f.nodes()).as("how many is not shown").isNull();
  }

  @Test
  void aRefusedSocketConnectSaysNothingOfTheNodeCount() {
    // bootstrap connects over TCP on one node too: a refused connect is not the network transport's
    LogFacts f = parse(N1 + "Bootstrap : Using eth0:10.0.0.1<0>",
        "node01:23051:23102 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.1<34567> failed : Connection refused");
    assertThat(f.errors()).isNotEmpty();
    assertUnknown(f);
  }

  // --- every interface loopback

  @Test
  void aJobWhoseEveryInterfaceIsLoopbackRanOnOneNode() {
    LogFacts f = parse(N1 + "Bootstrap : Using lo:127.0.0.1<0>", N1 + "NET/Socket : Using [0]lo:127.0.0.1<0>");
    assertThat(f.nodes()).isEqualTo(1);
    assertThat(f.nodesFrom()).isEqualTo("loopback");
    assertThat(f.singleNode()).isTrue();
  }

  @Test
  void aLoopbackSocketListAloneIsOneNode() {
    // an excerpt without the Bootstrap line: the socket list is all there is, and it is loopback
    LogFacts f = parse(N1 + "NET/Socket : Using [0]lo:127.0.0.1<0>");
    assertThat(f.nodesFrom()).isEqualTo("loopback");
  }

  @Test
  void aLoopbackBootstrapBesideARealIbOobInterfaceIsNotOneNodeByLoopback() {
    LogFacts f = parse(N1 + "Bootstrap : Using lo:127.0.0.1<0>",
        N1 + "NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>");
    assertUnknown(f);
  }

  @Test
  void aLoopbackBootstrapBesideARealSocketInterfaceIsNotOneNodeByLoopback() {
    LogFacts f = parse(N1 + "Bootstrap : Using lo:127.0.0.1<0>",
        N1 + "NET/Socket : Using [0]lo:127.0.0.1<0> [1]eth0:10.0.0.1<0>");
    assertUnknown(f);
  }

  @Test
  void aRealBootstrapInterfaceBesideALoopbackSocketListIsNotOneNodeByLoopback() {
    LogFacts f = parse(N1 + "Bootstrap : Using eth0:10.0.0.1<0>", N1 + "NET/Socket : Using [0]lo:127.0.0.1<0>");
    assertThat(f.signals().loopback()).isTrue();
    assertUnknown(f);
  }

  // --- the logged world size against one node's local ranks

  @Test
  void aWorldSizeAboveOneNodesLocalRanksCountsTheNodes() {
    // the job's comm (nranks 16) and a node-local sub-communicator (8 local ranks on 1 node)
    LogFacts f = parse(
        N1 + "ncclCommInitRank comm 0x7f3c28001000 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5c1e - Init START",
        N1 + "comm 0x7f3c2c002000 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0");
    assertThat(f.nodes()).isEqualTo(2);
    assertThat(f.nodesFrom()).isEqualTo("ranks");
    assertThat(f.singleNode()).isFalse();
  }

  @Test
  void aWorldSizeOfOneNodesLocalRanksIsOneNode() {
    LogFacts f = parse(N1 + "comm 0x7f3c28001000 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0");
    assertThat(f.nodes()).isEqualTo(1);
    assertThat(f.nodesFrom()).isEqualTo("comm");
    assertThat(f.singleNode()).isTrue();
  }

  @Test
  void aPeerRankAtOneNodesLocalRanksShowsSeveralNodes() {
    // 8 local ranks are 0..7: a connection to rank 8 leaves the node
    LogFacts f = parse(N1 + "comm 0x7f3c2c002000 rank 7 nRanks 8 nNodes 1 localRanks 8 localRank 7 MNNVL 0",
        N1 + "Channel 00/0 : 7[7] -> 8[0] [send] via NET/IB/0");
    assertThat(f.nodesFrom()).isEqualTo("ranks");
    assertThat(f.singleNode()).isFalse();
  }

  /**
   * A count read as 0 (a garbled or cut line: NCCL prints at least 1 for each) is no count: it
   * neither spans nodes nor fits one.
   */
  @ParameterizedTest
  @ValueSource(strings = {
    "comm 0x7f3c28001000 rank 0 nRanks 8 nNodes 1 localRanks 0 localRank 0 MNNVL 0",
    "comm 0x7f3c28001000 rank 0 nranks 0 cudaDev 0 busId 18000 - Init COMPLETE",
  })
  void aCountReadAsZeroIsNoCount(String message) {
    LogFacts f = parse(N1 + message);
    if (message.contains("nNodes 1")) {
      assertThat(f.nodesFrom()).as("nNodes 1 says it").isEqualTo("comm");
      assertThat(f.singleNode()).isTrue();
    } else {
      assertUnknown(f);
    }
  }

  @Test
  void anInvalidRankOfARankCountReadAsZeroIsNoCount() {
    LogFacts f = parse("node01:23051:23051 [0] init.cc:1410 NCCL WARN Invalid rank requested : 0/0");
    assertUnknown(f);
    LogFacts real = parse("node01:23051:23051 [0] init.cc:1410 NCCL WARN Invalid rank requested : 9/16");
    assertThat(real.nodesFrom()).isEqualTo("errors");
  }

  // --- nccl-tests' device list

  private static List<String> testsPreamble(String host, int ranks) {
    List<String> l = new ArrayList<>();
    l.add("# Using devices");
    for (int r = 0; r < ranks; r++) {
      l.add(String.format("#  Rank %2d Group  0 Pid %6d on %10s device %2d [0000:%02x:00] NVIDIA H100 80GB HBM3", r,
          4100 + r, host, r, 0x18 + r));
    }
    return l;
  }

  @Test
  void ncclTestsListingEveryRankOnOneHostIsOneNode() {
    // only rank 0's NCCL lines are in the excerpt; the device list names all 8 ranks on node01
    List<String> log = new ArrayList<>(testsPreamble("node01", 8));
    log.add("node01:4100:4100 [0] NCCL INFO comm 0x55d4c8a0 rank 0 nranks 8 cudaDev 0 busId 18000 - Init COMPLETE");
    LogFacts f = parse(log);
    assertThat(f.nodes()).isEqualTo(1);
    assertThat(f.nodesFrom()).isEqualTo("ranks");
    assertThat(f.singleNode()).isTrue();
  }

  @Test
  void ncclTestsListingOneHostSaysNothingBesideARankCountReadAsZero() {
    List<String> log = new ArrayList<>(testsPreamble("node01", 1));
    log.add("node01:4100:4100 [0] NCCL INFO comm 0x55d4c8a0 rank 0 nranks 0 cudaDev 0 busId 18000 - Init COMPLETE");
    assertUnknown(parse(log));
  }

  @Test
  void ncclTestsListingSomeRanksOnOneHostSaysNothing() {
    // the device list is per process of a multi-node run too: 4 of 8 ranks is not the job
    List<String> log = new ArrayList<>(testsPreamble("node01", 4));
    log.add("node01:4100:4100 [0] NCCL INFO comm 0x55d4c8a0 rank 0 nranks 8 cudaDev 0 busId 18000 - Init COMPLETE");
    assertUnknown(parse(log));
  }

  // --- the ranks a node shows

  @Test
  void rankZeroIsARank() {
    LogFacts f = parse("node01:100:100 [0] NCCL INFO comm 0x55d4c8a0 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
        "node02:200:200 [0] NCCL INFO comm 0x55d4c8a0 rank 1 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE");
    assertThat(f.nodeDetails()).extracting(n -> n.ranks()).containsExactly(List.of(0), List.of(1));
  }
}
