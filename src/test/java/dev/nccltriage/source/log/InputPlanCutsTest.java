package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InputPlanCutsTest {
  @ParameterizedTest
  @CsvSource({"1073741824, 2, 16777216", "1073741824, 4, 16777216", "100, 2, 1", "5, 2, 1", "3, 8, 1",
      "33554432, 2, 16777216", "50331648, 2, 16777216", "999999999999, 16, 16777216"})
  void partsCoverTheFileInOrderWithoutGapsOrEmptyParts(long size, int threads, long minBytes) {
    long[] cuts = InputPlan.cuts(size, threads, minBytes);

    assertThat(cuts[0]).isZero();
    assertThat(cuts[cuts.length - 1]).isEqualTo(size);
    for (int k = 1; k < cuts.length; k++) {
      assertThat(cuts[k]).as("part %d", k).isGreaterThan(cuts[k - 1]);
    }
  }

  @org.junit.jupiter.api.Test
  void theLastPartsAreQuartersSoThreadsFinishTogether() {
    long gib = 1L << 30;
    long[] cuts = InputPlan.cuts(gib, 2, 16L << 20);

    // 16 parts of 64 MiB: 14 whole, the last two cut in four (16 MiB each)
    assertThat(cuts).hasSize(14 + 8 + 1);
    assertThat(cuts[1] - cuts[0]).isEqualTo(64L << 20);
    assertThat(cuts[14]).isEqualTo(14 * (64L << 20));
    for (int k = 15; k < cuts.length; k++) {
      assertThat(cuts[k] - cuts[k - 1]).isEqualTo(16L << 20);
    }
  }

  @org.junit.jupiter.api.Test
  void asManyPartsAsThreadsAreNotCut() {
    // 32 MiB on two threads: two parts, each already short
    assertThat(InputPlan.cuts(32L << 20, 2, 16L << 20)).containsExactly(0, 16L << 20, 32L << 20);
  }
}
