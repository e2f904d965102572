package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Units are parsed once each, merged in their order; the first waits for the threads' first turns. */
class OrderedPoolTest {
  private static OrderedPool.Source<Integer> upTo(int n) {
    int[] next = {0};
    return () -> next[0] < n ? next[0]++ : null;
  }

  private static OrderedPool<Integer> pool(int threads) {
    return new OrderedPool<>(threads, () -> new OrderedPool.Worker(new LineReader(64), new PrefixCache()));
  }

  @Test
  void everyUnitOnceAndMergedInOrder() throws LogInputException {
    for (int threads = 1; threads <= 4; threads++) {
      for (int n = 0; n <= 20; n++) {
        List<Integer> parsed = Collections.synchronizedList(new ArrayList<>());
        List<Integer> merged = new ArrayList<>();
        pool(threads).run(upTo(n), (u, w) -> {
          parsed.add(u);
          return new LogAccumulator();
        }, (u, acc) -> merged.add(u));
        assertThat(merged).as("%d threads, %d units", threads, n)
            .containsExactlyElementsOf(IntStream.range(0, n).boxed().toList());
        assertThat(parsed).containsExactlyInAnyOrderElementsOf(merged);
      }
    }
  }

  @Test
  void theFirstUnitWaitsUntilTheThreadsHadOneEach() throws LogInputException {
    // one thread runs units in the order they are submitted
    List<Integer> parsed = new ArrayList<>();
    pool(1).run(upTo(5), (u, w) -> {
      parsed.add(u);
      return new LogAccumulator();
    }, (u, acc) -> { });
    assertThat(parsed).containsExactly(1, 0, 2, 3, 4);
  }

  @Test
  void aFailingUnitFailsTheRunWithItsMessage() {
    assertThatThrownBy(() -> pool(3).run(upTo(9), (u, w) -> {
      if (u == 4) {
        throw new LogInputException("unit 4: broken", null);
      }
      return new LogAccumulator();
    }, (u, acc) -> { })).isInstanceOf(LogInputException.class).hasMessage("unit 4: broken");
  }
}
