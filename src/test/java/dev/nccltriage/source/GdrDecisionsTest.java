package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * When a log has no channel lines (connections are lazy from 2.22, excerpts drop them), NCCL's own
 * GPUDirect RDMA decision lines are the only account of GDR (spec §4.4, §8.1). They are printed
 * only where a decision was made, so all of them enabled is not a claim that every connection uses
 * GDR, while channel lines, when present, are what actually happened and win.
 */
class GdrDecisionsTest {

  // ------------------------------------------------------------------------------------------
  @Nested
  class NicSide {
    @Test
    void noModuleOnEveryListedHcaIsNone() {
      // 2.7-2.12: the peer-memory module is missing, one line per HCA (NCCL_DEBUG_SUBSYS=INIT,NET)
      LogFacts f = parse("""
          NCCL version 2.12.12+cuda11.7
          gpu-r2n5:4401:4401 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.60.2.5<0>
          gpu-r2n5:4401:4401 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)
          gpu-r2n5:4401:4401 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 1 'mlx5_1' (no module)
          """);
      assertThat(f.signals().gdrLogged()).isEqualTo("none");
      assertThat(f.gdr()).isEqualTo("none");
    }

    @Test
    void noModuleOnSomeHcasWhileOthersAreEnabledIsSome() {
      // a job on two NCCL builds: the 2.12 node lacks the module, the 2.13 node reports its NIC capable
      LogFacts f = parse("""
          gpu-r2n5:4401:4401 [0] NCCL INFO NCCL version 2.12.12+cuda11.7
          gpu-r2n5:4401:4401 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.60.2.5<0>
          gpu-r2n5:4401:4401 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)
          gpu-r2n6:4517:4517 [0] NCCL INFO NCCL version 2.13.4+cuda11.7
          gpu-r2n6:4517:4517 [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/IB ; OOB ib0:10.60.2.6<0>
          gpu-r2n6:4517:4517 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_2'
          """);
      assertThat(f.signals().gdrLogged()).isEqualTo("some");
      assertThat(f.gdr()).isEqualTo("some");
    }

    @Test
    void nicCapabilityDisabledOnEveryHcaIsNone() {
      // 2.13+: "Disabled for HCA" on every NIC means the same as (no module)
      LogFacts f = parse("""
          gpu-r2n5:4401:4401 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'
          gpu-r2n5:4401:4401 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 1 'mlx5_1'
          """);
      assertThat(f.signals().gdrLogged()).isEqualTo("none");
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class DistanceDecisions {
    @Test
    void everyPairDisabledIsNone() {
      // 2.26 numbering: PHB 7 > PXB 5
      LogFacts f = parse("""
          gpu-r2n5:4401:4460 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 0 / HCA 0 (distance 7 > 5)
          gpu-r2n5:4402:4461 [1] NCCL INFO GPU Direct RDMA Disabled for GPU 1 / HCA 0 (distance 7 > 5)
          gpu-r2n5:4403:4462 [2] NCCL INFO GPU Direct RDMA Disabled for GPU 2 / HCA 1 (distance 7 > 5)
          """);
      assertThat(f.signals().gdrLogged()).isEqualTo("none");
      assertThat(f.gdr()).isEqualTo("none");
    }

    @Test
    void oneEnabledAndOneDisabledPairIsSome() {
      LogFacts f = parse("""
          gpu-r2n5:4401:4460 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 0 / HCA 0 (distance 5 <= 5), read 1 mode Default
          gpu-r2n5:4403:4462 [2] NCCL INFO GPU Direct RDMA Disabled for GPU 2 / HCA 1 (distance 7 > 5)
          """);
      assertThat(f.signals().gdrLogged()).isEqualTo("some");
      assertThat(f.gdr()).isEqualTo("some");
    }

    @Test
    void everyPairEnabledClaimsNothing() {
      // decisions are printed only where both sides are capable: they cannot prove "all"
      LogFacts f = parse("""
          gpu-r2n5:4401:4460 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 0 / HCA 0 (distance 5 <= 5), read 1 mode Default
          gpu-r2n5:4402:4461 [1] NCCL INFO GPU Direct RDMA Enabled for GPU 1 / HCA 0 (distance 5 <= 5), read 1 mode Default
          """);
      assertThat(f.signals().gdrLogged()).isNull();
      assertThat(f.gdr()).isEqualTo("unknown");
    }

    @Test
    void distance229ShapeEveryPairDisabledIsNone() {
      // 2.29 body with GRAPH in NCCL_DEBUG_SUBSYS: PHB 8 > P2C 6
      LogFacts f = parse("""
          gpu-r2n5:4401:4460 [0] NCCL INFO GPU Direct RDMA Disabled for GPU/0-630784 (rank 0) - NET/0-0 (distance 8 > 6)
          gpu-r2n5:4402:4461 [1] NCCL INFO GPU Direct RDMA Disabled for GPU/0-700416 (rank 1) - NET/0-0 (distance 8 > 6)
          """);
      assertThat(f.signals().gdrLogged()).isEqualTo("none");
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Plugin {
    @Test
    void awsOfiDisablingGdrIsNone() {
      LogFacts f = parse("""
          ip-10-31-4-18:81:2552 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa (found 4 nics)
          ip-10-31-4-18:81:2552 [0] NCCL INFO NET/OFI Could not disable CUDA API usage for HMEM, disabling GDR
          """);
      assertThat(f.signals().gdrLogged()).isEqualTo("none");
      assertThat(f.gdr()).isEqualTo("none");
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class ChannelsWin {
    @Test
    void allGdrdmaChannelsAreAllDespiteNoModuleLines() {
      LogFacts f = parse("""
          gpu-r2n5:4401:4401 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)
          gpu-r2n5:4401:4470 [0] NCCL INFO Channel 00/0 : 8[7000] -> 0[7000] [receive] via NET/IB/0/GDRDMA
          gpu-r2n5:4401:4470 [0] NCCL INFO Channel 00/0 : 0[7000] -> 8[7000] [send] via NET/IB/0/GDRDMA
          """);
      assertThat(f.gdr()).isEqualTo("all");
      assertThat(f.signals().gdrLogged()).isEqualTo("none");
    }

    @Test
    void plainChannelsAreNoneDespiteEnabledDecisions() {
      LogFacts f = parse("""
          gpu-r2n5:4401:4460 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 0 / HCA 0 (distance 5 <= 5), read 1 mode Default
          gpu-r2n5:4401:4470 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0
          gpu-r2n5:4401:4470 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0
          """);
      assertThat(f.gdr()).isEqualTo("none");
    }

    @Test
    void mixedChannelsAreSomeDespiteEveryPairDisabled() {
      LogFacts f = parse("""
          gpu-r2n5:4401:4460 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 0 / HCA 0 (distance 7 > 5)
          gpu-r2n5:4401:4470 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA
          gpu-r2n5:4401:4470 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0
          """);
      assertThat(f.gdr()).isEqualTo("some");
    }
  }
}
