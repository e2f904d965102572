package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * A log is usually an excerpt: the processes it shows are a lower bound of the job, so "one host
 * in the log" must not become "single node" (spec §0b). Whether the job is single-node decides
 * whether a missing network is a problem at all, so the count is taken from evidence only and
 * stays unknown otherwise.
 */
class NodeCountTest {

  // ------------------------------------------------------------------------------------------
  @Nested
  class SeveralNodes {
    @Test
    void oneCommLineOfATwoNodeJobSaysTwoNodes() {
      // 2.20+ comm shape; the other node's lines are not in the excerpt
      LogFacts f = parse("""
          dgx-c07:5120:5188 [0] NCCL INFO comm 0x5581c2a0e6b0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0
          """);
      assertThat(f.nodes()).isEqualTo(2);
      assertThat(f.nodesFrom()).isEqualTo("comm");
      assertThat(f.singleNode()).isFalse();
    }

    @Test
    void twoHostNamesAreTwoNodes() {
      LogFacts f = parse("""
          dgx-c07:5120:5120 [0] NCCL INFO Using network IB
          dgx-c08:6211:6211 [0] NCCL INFO Using network IB
          """);
      assertThat(f.nodes()).isEqualTo(2);
      assertThat(f.nodesFrom()).isEqualTo("hostnames");
      assertThat(f.singleNode()).isFalse();
    }

    @Test
    void rankIdAtOrAboveLocalRanksInAConnectionLineIsSeveralNodes() {
      // The only comm line is a node-local sub-communicator's (a tensor-parallel group: nNodes 1,
      // localRanks 8); the world communicator's connection names rank 9, which no 8-GPU node holds.
      LogFacts f = parse("""
          dgx-c07:5121:5190 [1] NCCL INFO comm 0x7f3a2c0019d0 rank 1 nRanks 8 nNodes 1 localRanks 8 localRank 1 MNNVL 0
          dgx-c07:5121:5201 [1] NCCL INFO Channel 00/0 : 9[1] -> 1[1] [receive] via NET/IB/1/GDRDMA
          """);
      assertThat(f.singleNode()).isFalse();
      assertThat(f.nodesFrom()).isEqualTo("ranks");
    }

    @Test
    void invalidRankRequestedIsSeveralNodes() {
      LogFacts f = parse("""

          dgx-c07:5120:5120 [0] enqueue.cc:1565 NCCL WARN Invalid rank requested : 9/8
          """);
      assertThat(f.singleNode()).isFalse();
      assertThat(f.nodesFrom()).isEqualTo("errors");
    }

    @Test
    void completionErrorOnOneHostIsSeveralNodes() {
      // only the network transport raises it, and it carries traffic between nodes
      LogFacts f = parse("""

          dgx-c07:5120:5177 [0] transport/net_ib.cc:788 NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129
          """);
      assertThat(f.singleNode()).isFalse();
      assertThat(f.nodesFrom()).isEqualTo("errors");
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class OneNode {
    @Test
    void nNodesOneIsSingleNode() {
      LogFacts f = parse("""
          infer-0:312:468 [0] NCCL INFO comm 0x55d052e6b430 rank 0 nRanks 4 nNodes 1 localRanks 4 localRank 0 MNNVL 0
          """);
      assertThat(f.singleNode()).isTrue();
      assertThat(f.nodes()).isEqualTo(1);
      assertThat(f.nodesFrom()).isEqualTo("comm");
    }

    @Test
    void everyInterfaceLoopbackIsSingleNode() {
      LogFacts f = parse("""
          3e9a7c51d0f4:88:88 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>
          3e9a7c51d0f4:88:88 [0] NCCL INFO NET/IB : No device found.
          3e9a7c51d0f4:88:88 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>
          """);
      assertThat(f.singleNode()).isTrue();
      assertThat(f.nodes()).isEqualTo(1);
      assertThat(f.nodesFrom()).isEqualTo("loopback");
    }

    @Test
    void worldSizeWithinTheGpusOneHostShowsIsSingleNode() {
      // 2.8.4-2.15 Init COMPLETE shape; only rank 0's is in the excerpt, all four devices print
      LogFacts f = parse("""
          ws-41:900:900 [0] NCCL INFO Bootstrap : Using eth0:10.9.0.41<0>
          ws-41:901:901 [1] NCCL INFO Bootstrap : Using eth0:10.9.0.41<0>
          ws-41:902:902 [2] NCCL INFO Bootstrap : Using eth0:10.9.0.41<0>
          ws-41:903:903 [3] NCCL INFO Bootstrap : Using eth0:10.9.0.41<0>
          ws-41:900:930 [0] NCCL INFO comm 0x5607e1c0 rank 0 nranks 4 cudaDev 0 busId 1b000 - Init COMPLETE
          """);
      assertThat(f.singleNode()).isTrue();
      assertThat(f.nodes()).isEqualTo(1);
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Unknown {
    @Test
    void oneHostOneRankWithoutWorldSizeIsUnknown() {
      // used to be called single-node: one process says nothing about the rest of the job
      LogFacts f = parse("""
          dgx-c07:5120:5120 [0] NCCL INFO Bootstrap : Using eth0:10.9.0.7<0>
          dgx-c07:5120:5120 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.44.0.7<0>
          dgx-c07:5120:5120 [0] NCCL INFO Using network IB
          """);
      assertThat(f.nodes()).isNull();
      assertThat(f.singleNode()).isNull();
      assertThat(f.nodesFrom()).isNull();
    }

    @Test
    void worldSizeAboveTheGpusOneHostShowsIsUnknown() {
      LogFacts f = parse("""
          ws-41:900:900 [0] NCCL INFO Bootstrap : Using eth0:10.9.0.41<0>
          ws-41:901:901 [1] NCCL INFO Bootstrap : Using eth0:10.9.0.41<0>
          ws-41:900:930 [0] NCCL INFO comm 0x5607e1c0 rank 0 nranks 8 cudaDev 0 busId 1b000 - Init COMPLETE
          """);
      assertThat(f.nodes()).isNull();
      assertThat(f.singleNode()).isNull();
    }

    @Test
    void localChannelLinesAloneDoNotMakeASingleNode() {
      // P2P and SHM connections exist inside every node of a multi-node job too
      LogFacts f = parse("""
          dgx-c07:5120:5188 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read
          dgx-c07:5121:5190 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/IPC/read
          dgx-c07:5121:5190 [1] NCCL INFO Channel 01 : 1[1] -> 0[0] via SHM/direct/direct
          """);
      assertThat(f.localChannels()).isEqualTo(3);
      assertThat(f.singleNode()).isNull();
      assertThat(f.nodes()).isNull();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class AroundNccl {
    @Test
    void ncclTestsDeviceListNamingTwoHostsIsTwoNodes() {
      // nccl-tests 2.14.1+ "# Using devices": rank 0 prints every rank's host (spec §12.1)
      LogFacts f = parse("""
          # Using devices
          #  Rank  0 Group  0 Pid  22811 on  dgx-a-017 device  0 [0000:07:00] NVIDIA A100-SXM4-80GB
          #  Rank  1 Group  0 Pid  22818 on  dgx-a-018 device  0 [0000:07:00] NVIDIA A100-SXM4-80GB
          dgx-a-017:22811:22811 [0] NCCL INFO Using network IB
          """);
      assertThat(f.nodes()).isEqualTo(2);
      assertThat(f.singleNode()).isFalse();
    }

    @Test
    void ncclTestsDeviceListWithEveryRankOnOneHostIsOneNode() {
      LogFacts f = parse("""
          #   Rank  0 Pid  4411 on   box-1 device  0 [0x07] Tesla V100-SXM2-32GB
          #   Rank  1 Pid  4411 on   box-1 device  1 [0x0a] Tesla V100-SXM2-32GB
          box-1:4411:4411 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 7000 - Init COMPLETE
          box-1:4411:4411 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId a000 - Init COMPLETE
          """);
      assertThat(f.singleNode()).isTrue();
    }

    @Test
    void aNetworkConnectionWithNothingAgainstItIsSeveralNodes() {
      // NCCL uses NET only between nodes (P2P/SHM serve one node)
      LogFacts f = parse("""
          gpu-a:51:60 [0] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/IB/7/GDRDMA
          """);
      assertThat(f.singleNode()).isFalse();
      assertThat(f.nodesFrom()).isEqualTo("channels");
      assertThat(f.nodes()).isNull();
    }

    @Test
    void nNodesOneOutweighsANetworkConnection() {
      // one node with P2P and SHM disabled connects over NET: NCCL's own count says one node
      LogFacts f = parse("""
          gpu-a:51:51 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0
          gpu-a:51:60 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0
          """);
      assertThat(f.singleNode()).isTrue();
    }
  }
}
