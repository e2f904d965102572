package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.nccltriage.facts.LogFacts;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Found by reading healthy runs and garbled pastes against the failure and node rules: what a
 * healthy run prints must not read as a failure, and a number that does not fit is an unknown
 * value, never an error, whichever parser field it lands in.
 */
class BenignLinesAndGarbledNumbersTest {
  private static final String HOST = "gpu-n7:5120:5177 [0] ";

  // ------------------------------------------------------------------------------------------
  @Nested
  class HealthyRunsPrintThese {
    @ParameterizedTest
    @ValueSource(strings = {
        "transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : GID table change", // 2.18
        "transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : client reregistration",
        "transport/net_ib/common.cc:101 (ncclIbAsyncThreadMain) NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async "
            + "event: GID table change(18)", // 2.30
        "nccl_net_ofi_create_plugin:335 NCCL WARN NET/OFI aws-ofi-nccl initialization failed", // no EFA: next net
        "nccl_net_ofi_init:155 NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available",
        "nccl_net_ofi_create_plugin:349 NCCL WARN NET/OFI Couldn't find any optimal provider"})
    void aWarnNcclGoesOnAfterIsNoFailure(String warn) {
      LogFacts f = parse("\n" + HOST + warn + "\n" + HOST + "NCCL INFO Using network Socket\n");
      assertThat(f.signals().warnings()).isEqualTo(1);
      assertThat(f.signals().failed()).isFalse();
    }

    @Test
    void aFatalAsyncEventIsAFailure() {
      LogFacts f = parse("\n" + HOST + "transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : local catastrophic error\n");
      assertThat(f.signals().failed()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"+ grep -c \"NCCL WARN\" /var/log/train.log",
        "alert: count_over_time({app=\"train\"} |= \"NCCL WARN\" [5m]) > 0"})
    void nclWarnQuotedByAnotherProgramIsNoWarn(String line) {
      LogFacts f = parse(line + "\n" + HOST + "NCCL INFO Using network IB\n");
      assertThat(f.signals().warnings()).isZero();
      assertThat(f.signals().failed()).isFalse();
      assertThat(f.ncclLines()).isEqualTo(1);
    }

    @Test
    void gdrDisabledOnlyForFarNicsLeavesEveryGpuWithGdr() {
      // NCCL decides every GPU/NIC pair it considers: each GPU has its own NIC enabled (2.20 shape)
      LogFacts f = parse("""
          gpu-n7:5120:5120 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 7000 / HCA 0 (distance 3 <= 4), read 1
          gpu-n7:5120:5120 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 7000 / HCA 1 (distance 7 > 4), read 1
          gpu-n7:5121:5121 [1] NCCL INFO GPU Direct RDMA Disabled for GPU b000 / HCA 0 (distance 7 > 4), read 1
          gpu-n7:5121:5121 [1] NCCL INFO GPU Direct RDMA Enabled for GPU b000 / HCA 1 (distance 3 <= 4), read 1
          """);
      assertThat(f.signals().gdrLogged()).isNull();
    }

    @Test
    void aGpuWithEveryPairDisabledIsSome() {
      LogFacts f = parse("""
          gpu-n7:5120:5120 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 7000 / HCA 0 (distance 3 <= 4), read 1
          gpu-n7:5121:5121 [1] NCCL INFO GPU Direct RDMA Disabled for GPU b000 / HCA 0 (distance 7 > 4), read 1
          gpu-n7:5121:5121 [1] NCCL INFO GPU Direct RDMA Disabled for GPU b000 / HCA 1 (distance 7 > 4), read 1
          """);
      assertThat(f.signals().gdrLogged()).isEqualTo("some");
    }

    @Test
    void aLineThatLostItsHostDoesNotUndoOneHostHoldingEveryRank() {
      LogFacts f = parse("""
          box:10:10 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE
          box:11:11 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE
           [0] NCCL INFO Connected all rings
          """);
      assertThat(f.singleNode()).isTrue();
    }

    @Test
    void ncclTestsListingMoreHostsThanKeptIsSeveralNodesOfUnknownCount() {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < 5000; i++) {
        b.append("#  Rank ").append(i).append(" Group  0 Pid  1").append(i).append(" on node-").append(i)
            .append(" device  0 [0000:07:00] NVIDIA H100\n");
      }
      LogFacts f = parse(b + HOST + "NCCL INFO Using network IB\n");
      assertThat(f.singleNode()).isFalse();
      assertThat(f.nodes()).isNull();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class NumbersThatDoNotFit {
    @ParameterizedTest
    @ValueSource(strings = {
        "NET/IB : Using [99999999999]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>",
        "NET/IB : Using [0]mlx5_0:2147483648/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>",
        "NET/IB : Using [0]={[0] mlx5_0:1/IB, [1] mlx5_0:99999999999/IB} [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>",
        "NET/IB : Using [4294967296]={[0] mlx5_0:1/IB} [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>"})
    void anHcaEntryOutOfRangeIsDroppedAndTheRestKept(String line) {
      LogFacts f = parse(HOST + "NCCL INFO " + line + "\n");
      assertThat(f.hcas()).extracting(h -> h.name()).contains("mlx5_1");
    }

    @Test
    void theOneHcaPerLineShapeOutOfRangeIsNoError() {
      assertThatCode(() -> parse(HOST + "NCCL INFO NET/IB: [99999999999] mlx5_0:1/IB\n")).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"NCCL version 99999999999.18.5+cuda12.2", "NCCL version 2.99999999999.5+cuda12.2"})
    void aVersionOutOfRangeIsUnknown(String line) {
      LogFacts f = parse(line + "\n" + HOST + "NCCL INFO Using network IB\n");
      assertThat(f.ncclLines()).isEqualTo(2);
      assertThat(dev.nccltriage.facts.Version.parse(f.ncclVersions().get(0))).isNull();
    }

    @Test
    void aWorldSizeOutOfRangeIsUnknown() {
      LogFacts f = parse(HOST + "NCCL INFO comm 0x1 rank 99999999999 nRanks 99999999999 nNodes 4294967297 "
          + "localRanks 8 localRank 0 MNNVL 0\n");
      assertThat(f.ranks()).isNotEqualTo(1215752191);
      assertThat(f.nodes()).isNull();
    }
  }
}
