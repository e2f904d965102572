package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Every part is submitted once; the first waits until each worker has had a part. */
class SubmitOrderTest {
  @Test
  void isAPermutationThatHoldsTheFirstPartBack() {
    for (int workers = 1; workers <= 4; workers++) {
      for (int parts = 1; parts <= 40; parts++) {
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
          order.add(NcclLogSource.submitOrder(k, parts, workers));
        }
        assertThat(order).as("parts %d, workers %d", parts, workers)
            .containsExactlyInAnyOrderElementsOf(IntStream.range(0, parts).boxed().toList());
        assertThat(order.indexOf(0)).isEqualTo(parts > workers ? workers : 0);
      }
    }
  }
}
