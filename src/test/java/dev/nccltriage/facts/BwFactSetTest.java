package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.source.bw.BwRun;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bw.* facts an nccl-tests run gives: how many nodes it spanned, whether any result was wrong,
 * and what busbw the NICs should have carried.
 */
class BwFactSetTest {
  private static final BwRun.Rows TWO_LARGE = new BwRun.Rows(10, 2, 90.0 + 94.0, 95.0, 8L << 30, false);

  private static BwRun run(long ranks, List<String> hosts, boolean allHosts, BwRun.Rows all, Long outOfBounds) {
    return new BwRun("all_reduce", "preamble", "2.13.8", 1, 1, ranks, hosts, allHosts, List.of(), all, 80.0,
        outOfBounds, "2.13+", 0);
  }

  private static BwRun run(long ranks, List<String> hosts, boolean allHosts) {
    return run(ranks, hosts, allHosts, TWO_LARGE, 0L);
  }

  private static Optional<Object> value(FactSet s, String name) {
    return s.get(name).map(FactValue::value);
  }

  @Test
  void ranksOnOneHostAreASingleNodeRun() {
    FactSet s = BwFactSet.from(run(1, List.of("node-a"), true), null, null, null);
    assertThat(value(s, "bw.ranks")).contains(1L);
    assertThat(value(s, "bw.nodes")).contains(1L);
    assertThat(value(s, "bw.singleNode")).contains(true);
  }

  @Test
  void ranksOnTwoHostsCrossTheNetwork() {
    FactSet s = BwFactSet.from(run(16, List.of("node-a", "node-b"), true), null, null, null);
    assertThat(value(s, "bw.nodes")).contains(2L);
    assertThat(value(s, "bw.singleNode")).contains(false);
  }

  @Test
  void tooManyHostsToCountLeavesTheNodeCountUnknownAndIsNotSingleNode() {
    FactSet s = BwFactSet.from(run(4096, List.of("node-a"), false), null, null, null);
    assertThat(value(s, "bw.nodes")).isEmpty();
    assertThat(value(s, "bw.singleNode")).contains(false);
  }

  @Test
  void withoutRankLinesTheCompanionLogSaysWhetherTheRunWasSingleNode() {
    assertThat(value(BwFactSet.from(run(0, List.of(), true), null, null, null), "bw.singleNode")).isEmpty();
    assertThat(value(BwFactSet.from(run(0, List.of(), true), null, null, new FactSet()), "bw.singleNode")).isEmpty();

    Evidence line = new Evidence("nccl.log", 12, "NCCL INFO comm 0x1 rank 0 nRanks 8 nNodes 1");
    FactSet log = new FactSet().put("job.singleNode", true, List.of(line));
    FactSet s = BwFactSet.from(run(0, List.of(), true), null, null, log);
    assertThat(value(s, "bw.ranks")).isEmpty();
    assertThat(value(s, "bw.singleNode")).contains(true);
    assertThat(s.get("bw.singleNode").orElseThrow().evidence()).containsExactly(line);
  }

  @Test
  void aWrongColumnOrAnOutOfBoundsValueMakesTheRunWrong() {
    BwRun.Rows wrongRows = new BwRun.Rows(10, 2, 184.0, 95.0, 8L << 30, true);
    assertThat(value(BwFactSet.from(run(8, List.of("a"), true, TWO_LARGE, null), null, null, null), "bw.wrong"))
        .contains(false);
    assertThat(value(BwFactSet.from(run(8, List.of("a"), true, TWO_LARGE, 0L), null, null, null), "bw.wrong"))
        .contains(false);
    assertThat(value(BwFactSet.from(run(8, List.of("a"), true, TWO_LARGE, 1L), null, null, null), "bw.wrong"))
        .contains(true);
    assertThat(value(BwFactSet.from(run(8, List.of("a"), true, wrongRows, null), null, null, null), "bw.wrong"))
        .contains(true);
  }

  @Test
  void noSizeRowsGiveNoBusbw() {
    FactSet s = BwFactSet.from(run(8, List.of("a"), true, new BwRun.Rows(0, 0, 0, 0, 0, false), null), 8, 400.0, null);
    assertThat(value(s, "bw.rows")).contains(0L);
    assertThat(value(s, "bw.busbw")).isEmpty();
    assertThat(value(s, "bw.expected")).isEmpty();
  }

  @Test
  void theExpectedBusbwIsPortsTimesRateInBytes() {
    FactSet s = BwFactSet.from(run(8, List.of("a"), true), 1, 800.0, null);
    assertThat(value(s, "bw.busbw")).contains(92.0);
    assertThat(value(s, "bw.expected")).contains(100.0);
    assertThat(value(s, "bw.ratio")).contains(0.92);
  }

  @Test
  void withoutAnHcaCountTheCompanionLogsPortCountIsUsed() {
    FactSet log = new FactSet().put("ib.hcaPortsMin", 4L, List.of());
    FactSet s = BwFactSet.from(run(8, List.of("a"), true), null, 200.0, log);
    assertThat(value(s, "bw.hcas")).contains(4L);
    assertThat(value(s, "bw.expected")).contains(100.0);
    // an explicit count wins over the log's
    assertThat(value(BwFactSet.from(run(8, List.of("a"), true), 2, 200.0, log), "bw.hcas")).contains(2L);
    assertThat(value(BwFactSet.from(run(8, List.of("a"), true), null, 200.0, new FactSet()), "bw.hcas")).isEmpty();
  }

  @Test
  void noPortsOrNoRateGiveNoExpectedBusbw() {
    assertThat(value(BwFactSet.from(run(8, List.of("a"), true), 0, 400.0, null), "bw.expected")).isEmpty();
    assertThat(value(BwFactSet.from(run(8, List.of("a"), true), 8, 0.0, null), "bw.expected")).isEmpty();
  }

  @Test
  void theBusbwBasisSaysWhetherLargeMessagesWereMeasured() {
    assertThat(BwFactSet.busbwBasis(run(8, List.of("a"), true))).isEqualTo("mean of the 2 size(s) >= 256 MB");
    assertThat(BwFactSet.busbwBasis(run(8, List.of("a"), true, new BwRun.Rows(5, 0, 0, 40.0, 1 << 20, false), null)))
        .isEqualTo("maximum over all sizes (none reaches 256 MB)");
  }
}
