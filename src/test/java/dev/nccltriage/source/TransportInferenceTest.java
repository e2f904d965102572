package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.GdrDecision;
import dev.nccltriage.facts.LogFacts;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Logs from before 2.6.4, and excerpts that lost the line, carry no "Using network": the transport
 * must then be read from lines that only imply it (spec §0b). Each implication has a version range
 * and a case where it does not hold (a plugin loaded, 2.4.0-2.4.7's unconditional socket list, the
 * socket transport's own GDR line); reading one wrongly turns a socket job into an RDMA one or back.
 */
class TransportInferenceTest {

  // ------------------------------------------------------------------------------------------
  @Nested
  class IbDeviceList {
    @Test
    void nonEmptyIbListWithoutPluginMeansIb() {
      // 2.7-2.11 shape of the device summary; no "Using network" (an excerpt)
      LogFacts f = parse("""
          hpc-k41:7312:7312 [0] NCCL INFO Bootstrap : Using ib0:10.44.0.41<0>
          hpc-k41:7312:7312 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation
          hpc-k41:7312:7312 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.44.0.41<0>
          """);
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
      assertThat(f.transportNodes()).isEqualTo(Map.of("IB", 1));
    }

    @Test
    void oneHcaPerLineFormOf23MeansIb() {
      LogFacts f = parse("""
          NCCL version 2.3.7+cuda9.2
          hpc-k41:7312:7312 [0] NCCL INFO NET/IB: [0] mlx5_0:1/IB
          hpc-k41:7312:7312 [0] NCCL INFO NET/IB: [1] mlx5_1:1/IB
          """);
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
    }

    @Test
    void ibListBesideTheUnconditionalSocketListOf247StillMeansIb() {
      // 2.4.0-2.4.7 print the socket list at every init: it does not override the IB list
      LogFacts f = parse("""
          NCCL version 2.4.7+cuda10.0
          hpc-k41:7312:7340 [0] NCCL INFO NET/Socket : Using [0]ib0:10.44.0.41<0>
          hpc-k41:7312:7340 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).
          hpc-k41:7312:7340 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.44.0.41<0>
          """);
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
    }

    @Test
    void ibListWhileANetPluginIsLoadedInfersNothing() {
      // 2.13-2.18 fallback-ABI load line; the plugin prints its own NET/IB list in core NCCL's shape
      LogFacts f = parse("""
          hpc-k41:7312:7312 [0] NCCL INFO NET/Plugin: Loaded net plugin NCCL RDMA Plugin (v6)
          hpc-k41:7312:7312 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.44.0.41<0>
          """);
      assertThat(f.transport()).isNull();
      assertThat(f.transportNodes()).isEmpty();
    }

    @Test
    void ibListWhileTheMellanoxP2pPluginIsLoadedInfersNothing() {
      LogFacts f = parse("""
          hpc-k41:7312:7390 [0] NCCL INFO P2P plugin IBext_v8
          hpc-k41:7312:7390 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.44.0.41<0>
          """);
      assertThat(f.transport()).isNull();
      assertThat(f.transportNodes()).isEmpty();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class SocketFallback {
    @ParameterizedTest(name = "version line: \"{0}\"")
    @ValueSource(strings = {"NCCL version 2.4.8+cuda10.1\n", "NCCL version 2.19.3+cuda12.2\n", ""})
    void ibNoDeviceThenSocketListMeansSocket(String versionLine) {
      LogFacts f = parse(versionLine + """
          edge-n3:2210:2210 [0] NCCL INFO NET/IB : No device found.
          edge-n3:2210:2210 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>
          """);
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(f.rdma()).isFalse();
      assertThat(f.transportNodes()).isEqualTo(Map.of("Socket", 1));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2.4.2+cuda10.0", "2.4.7+cuda10.1"})
    void socketListAloneProvesNothingBefore248(String version) {
      LogFacts f = parse("NCCL version " + version + "\n" + """
          edge-n3:2210:2210 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>
          edge-n3:2210:2210 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).
          """);
      assertThat(f.transport()).isNull();
      assertThat(f.transportNodes()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2.4.8+cuda10.1", "2.5.6+cuda10.1"})
    void socketListAloneMeansSocketFrom248(String version) {
      LogFacts f = parse("NCCL version " + version + "\n" + """
          edge-n3:2210:2210 [0] NCCL INFO Bootstrap : Using [0]eth0:10.1.2.3<0>
          edge-n3:2210:2210 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).
          edge-n3:2210:2210 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>
          """);
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(f.rdma()).isFalse();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class NicDistance24 {
    @Test
    void ibNicDistanceMeansIb() {
      LogFacts f = parse("""
          NCCL version 2.4.8+cuda10.1
          hpc-k41:7312:7340 [0] NCCL INFO CUDA Dev 0[0], IB NIC distance :  PHB
          """);
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
    }

    @Test
    void socketNicDistanceMeansSocket() {
      LogFacts f = parse("""
          NCCL version 2.4.8+cuda10.1
          edge-n3:2210:2238 [0] NCCL INFO CUDA Dev 0[0], Socket NIC distance :  SYS
          """);
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(f.rdma()).isFalse();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class NicGdrLine213 {
    @Test
    void ibGdrCapabilityLineMeansIb() {
      LogFacts f = parse("""
          hpc-k41:7312:7312 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'
          """);
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
    }

    @Test
    void socketGdrCapabilityLineMeansSocket() {
      LogFacts f = parse("""
          edge-n3:2210:2210 [0] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 1 'lan3'
          """);
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(f.rdma()).isFalse();
    }

    @Test
    void everyProcessThatPrintsTheLineLearnsItsNetworkFromIt() {
      // the same text from every rank of a node: each process's network is read from it (a text's
      // meaning is remembered, so a second process must not see a stale "no network named")
      LogFacts f = parse("""
          hpc-k41:7312:7312 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'
          hpc-k41:7313:7313 [1] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'
          edge-n3:2210:2210 [0] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 1 'lan3'
          edge-n3:2211:2211 [1] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 1 'lan3'
          """);
      assertThat(f.nodeDetails()).extracting(n -> n.host() + " " + n.transport())
          .containsExactlyInAnyOrder("hpc-k41 IB", "edge-n3 Socket");
    }

    @Test
    void socketGdrCapabilityLineIsNoGdrDecision() {
      // the socket transport cannot do GPUDirect RDMA at all: "Disabled" says nothing about the NICs
      LogFacts f = parse("""
          edge-n3:2210:2210 [0] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 0 'lan2'
          edge-n3:2210:2210 [0] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 1 'lan3'
          """);
      assertThat(f.gdrDecisions()).extracting(GdrDecision::reason).doesNotContain("nic");
      assertThat(f.signals().gdrLogged()).isNull();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class IbRuntimeErrors {
    @Test
    void completionErrorProvesIb() {
      // 2.7-2.9 completion shape, WARN only (an excerpt)
      LogFacts f = parse("""

          hpc-k41:7312:7377 [0] transport/net_ib.cc:788 NCCL WARN NET/IB : Got completion with error 4, opcode 1, len 0, vendor err 81
          hpc-k41:7312:7377 [0] NCCL INFO include/net.h:34 -> 2
          """);
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
    }

    @Test
    void verbsModifyQpFailureProvesIb() {
      LogFacts f = parse("""

          hpc-k41:7312:7377 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device
          hpc-k41:7312:7377 [0] NCCL INFO transport/net_ib.cc:532 -> 2
          """);
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class NoVerbsLibrary {
    @Test
    void failedToOpenLibibverbsWarnOnEveryProcessMeansNoRdma() {
      // 2.7-2.10 print it as a WARN although the socket fallback works
      LogFacts f = parse("""
          NCCL version 2.9.9+cuda11.3

          edge-n3:2210:2210 [0] misc/ibvwrap.cc:106 NCCL WARN Failed to open libibverbs.so[.1]

          edge-n4:3120:3120 [0] misc/ibvwrap.cc:106 NCCL WARN Failed to open libibverbs.so[.1]
          """);
      assertThat(f.rdma()).isFalse();
      assertThat(f.transport()).isNull();
    }

    @Test
    void failedToOpenLibibverbsInfoOnEveryProcessMeansNoRdma() {
      // 2.11-2.29 print it as INFO
      LogFacts f = parse("""
          edge-n3:2210:2210 [0] NCCL INFO NCCL version 2.19.3+cuda12.2
          edge-n3:2210:2210 [0] NCCL INFO Failed to open libibverbs.so[.1]
          edge-n3:2211:2211 [1] NCCL INFO Failed to open libibverbs.so[.1]
          """);
      assertThat(f.rdma()).isFalse();
      assertThat(f.transport()).isNull();
    }

    @Test
    void countNotOpenTheUnversionedSoAloneIsNoErrorAndNoVerdict() {
      // 2.30 tries libibverbs.so, then libibverbs.so.1: a node with only the .so.1 prints this and works
      LogFacts f = parse("""
          NCCL version 2.30.3+cuda13.0
          hpc-k41:7312:7312 [0] NCCL INFO Count not open libibverbs.so
          """);
      assertThat(f.errors()).isEmpty();
      assertThat(f.signals().failed()).isFalse();
      assertThat(f.rdma()).isNull();
    }

    @Test
    void countNotOpenTheUnversionedSoFollowedByAWorkingSo1KeepsRdma() {
      LogFacts f = parse("""
          NCCL version 2.30.3+cuda13.0
          hpc-k41:7312:7312 [0] NCCL INFO Count not open libibverbs.so
          hpc-k41:7312:7312 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.44.0.41<0>
          """);
      assertThat(f.rdma()).isTrue();
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.errors()).isEmpty();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class AwsOfiProvider {
    @Test
    void tcpProviderIsNoRdmaWhateverThePluginIsCalled() {
      LogFacts f = parse("""
          ip-10-31-4-18:81:81 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)
          ip-10-31-4-18:81:81 [0] NCCL INFO Using network AWS Libfabric
          """);
      assertThat(f.rdma()).isFalse();
    }

    @Test
    void efaProviderIsRdma() {
      LogFacts f = parse("""
          ip-10-31-4-18:81:2552 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa (found 4 nics)
          """);
      assertThat(f.rdma()).isTrue();
    }

    @Test
    void providerOfAFailedAwsOfiInitDecidesNothing() {
      // the plugin gave up; NCCL fell back to its internal IB: the tcp provider no longer applies
      LogFacts f = parse("""
          ip-10-31-4-18:81:2552 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)

          ip-10-31-4-18:81:2552 [0] nccl_net_ofi_create_plugin:335 NCCL WARN NET/OFI aws-ofi-nccl initialization failed
          ip-10-31-4-18:81:2552 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.31.4.18<0>
          ip-10-31-4-18:81:2552 [0] NCCL INFO Using network IB
          """);
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Mixed {
    @Test
    void twoRdmaNetworksAreNotMixed() {
      LogFacts f = parse("""
          hpc-k41:7312:7312 [0] NCCL INFO Using network IB
          hpc-k42:7410:7410 [0] NCCL INFO Using network IBext_v8
          """);
      assertThat(f.transport()).isNotEqualTo("mixed").isIn("IB", "IBext_v8");
      assertThat(f.rdma()).isTrue();
      assertThat(f.transportNodes()).isEqualTo(Map.of("IB", 1, "IBext_v8", 1));
    }

    @Test
    void rdmaAndSocketHostsAreMixed() {
      LogFacts f = parse("""
          hpc-k41:7312:7312 [0] NCCL INFO Using network IB
          hpc-k42:7410:7410 [0] NCCL INFO Using network Socket
          """);
      assertThat(f.transport()).isEqualTo("mixed");
      assertThat(f.rdma()).isFalse();
      assertThat(f.transportNodes()).isEqualTo(Map.of("IB", 1, "Socket", 1));
    }

    @Test
    void inferredIbHostAndInferredSocketHostAreMixed() {
      // neither host printed "Using network" (2.4.8): both transports are inferred
      LogFacts f = parse("""
          NCCL version 2.4.8+cuda10.1
          hpc-k41:7312:7312 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.44.0.41<0>
          edge-n3:2210:2210 [0] NCCL INFO NET/IB : No device found.
          edge-n3:2210:2210 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>
          """);
      assertThat(f.transport()).isEqualTo("mixed");
      assertThat(f.rdma()).isFalse();
    }
  }
}
