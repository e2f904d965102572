package dev.nccltriage.bw;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import dev.nccltriage.facts.BwFactSet;
import dev.nccltriage.source.bw.BwRun;
import dev.nccltriage.source.bw.NcclTestsParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class NcclTestsParserTest {
  private static BwRun parse(String text, String name) throws IOException {
    return new NcclTestsParser().parse(new BufferedReader(new StringReader(text)), name);
  }

  @Test
  void readsNewGenerationWithPreambleFooterAndNa() throws IOException {
    BwRun r = parse("""
        # Collective test starting: all_gather_perf
        # nThread 1 nGpus 1 minBytes 8 maxBytes 536870912 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 0 graph: 0
        #  Rank  0 Group  0 Pid   4100 on     node-a device  0 [0000:18:00] NVIDIA H100
        #  Rank  1 Group  0 Pid   4200 on     node-b device  0 [0000:18:00] NVIDIA H100
        #       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
        node-a:4100:4180 [0] NCCL INFO Using network IB
          268435456      33554432     float    none      -1  1500.20  178.94   89.47     N/A  1499.90  178.97   89.48     N/A
          536870912      67108864     float    none      -1  2990.10  179.55   89.78     N/A  2991.00  179.50   89.75     N/A
        # Out of bounds values : 0 OK
        # Avg bus bandwidth    : 89.62\s
        """, null);
    assertThat(r.collective()).isEqualTo("all_gather");
    assertThat(r.collectiveFrom()).isEqualTo("preamble");
    assertThat(r.rows()).hasSize(2);
    assertThat(r.rows().get(0).wrong()).isNull();
    assertThat(r.hosts()).containsExactly("node-a", "node-b");
    assertThat(r.avgBusbw()).isEqualTo(89.62);
    assertThat(r.ncclLines()).isEqualTo(1);
    assertThat(BwFactSet.largeMessageBusbw(r)).isEqualTo(89.63);
  }

  @Test
  void numbersThatDoNotFitAreUnknownNotAnError() throws IOException {
    // a garbled paste: counts beyond int/long are unusual values; the rest of the run is kept
    BwRun r = parse("""
        # nThread 99999999999 nGpus 1 minBytes 8 maxBytes 536870912 step: 2(factor) warmup iters: 5 iters: 20
        #  Rank 99999999999 Group  0 Pid   4100 on     node-a device  0 [0000:18:00] NVIDIA H100
        #  Rank  1 Group  0 Pid 99999999999999999999 on     node-b device  0 [0000:18:00] NVIDIA H100
        #  Rank  2 Group  0 Pid   4300 on     node-c device  0 [0000:18:00] NVIDIA H100
        #       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
          268435456      33554432     float    none      -1  1500.20  178.94   89.47     N/A  1499.90  178.97   89.48     N/A
        # Out of bounds values : 99999999999999999999 OK
        """, null);
    assertThat(r.nThread()).isNull();
    assertThat(r.nGpus()).isEqualTo(1);
    assertThat(r.hosts()).containsExactly("node-c");
    assertThat(r.rows()).hasSize(1);
  }

  /** A bandwidth no link has, or a negative time or bandwidth, is a damaged row: left out, not measured. */
  @Test
  void impossibleBandwidthsAndNegativeValuesAreNoMeasurement() throws IOException {
    String header = "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n";
    BwRun r = parse(header
        + "  268435456      33554432     float     sum      -1  1500.20  1e308  1e308       0  1499.90  178.97   89.48       0\n"
        + "  536870912     134217728     float     sum      -1  -3000.1  178.94   89.47       0  2999.90  178.97   89.48       0\n"
        + "  134217728      33554432     float     sum      -1   750.20  -178.9  -89.47       0   749.90  178.97   89.48       0\n"
        + " 1073741824     268435456     float     sum      -1  6000.20  178.94   89.47       0  5999.90  178.97   89.48       0\n",
        "all_reduce_perf.log");
    assertThat(r.rows()).extracting(BwRun.Row::bytes).containsExactly(1073741824L);
    CliRun big = CliRun.run("bw", "--hcas", "8", "--rate", "Infinity", "samples/nccl-tests/01-healthy-8x400g-2.17.6.out");
    assertThat(big.exitCode()).isEqualTo(2);
    assertThat(big.stderr()).contains("--rate must be a port's rate in Gb/s");
  }

  @Test
  void readsOldGenerationWithoutHeaderAndInfersReduceScatter() throws IOException {
    BwRun r = parse("""
           1048576         16384     float     sum    120.5    8.70    8.16  0e+00    120.9    8.67    8.13  0e+00
        """, "results.txt");
    assertThat(r.rows()).singleElement().satisfies(row -> {
      assertThat(row.busbw()).isEqualTo(8.16);
      assertThat(row.wrong()).isNull();
    });
    BwRun rs = parse("""
             1048576         16384     float     sum      -1    120.5    8.70    8.16      3    120.9    8.67    8.13      0
        """, null);
    assertThat(rs.collective()).isEqualTo("reduce_scatter");
    assertThat(rs.rows().get(0).wrong()).isEqualTo(3);
    assertThat(parse("x", "reduce_scatter_perf.log").collective()).isEqualTo("reduce_scatter");
  }

  @Test
  void bwWithoutRateIsUnknownAndWithoutRowsIsAUsageError() {
    CliRun run = CliRun.run("bw", "-o", "json", "samples/nccl-tests/01-healthy-8x400g-2.17.6.out");
    assertThat(run.json().get("bw").get("hypothesis").asText()).isEqualTo("unknown");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(CliRun.run("bw", "README.md").exitCode()).isEqualTo(2);
  }
}
