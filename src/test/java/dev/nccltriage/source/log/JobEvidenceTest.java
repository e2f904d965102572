package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** JobEvidence.first keeps what a stable sort by (source, line) puts first, without sorting. */
class JobEvidenceTest {
  @Test
  void keepsTheFirstItemsOfAStableSort() {
    Random r = new Random(7);
    for (int round = 0; round < 2000; round++) {
      List<Evidence> l = new ArrayList<>();
      int n = r.nextInt(12);
      for (int i = 0; i < n; i++) {
        // few sources and lines, so ties are common; the text tells tied items apart
        l.add(new Evidence("f" + r.nextInt(3), r.nextInt(4), "item " + i));
      }
      List<Evidence> sorted = new ArrayList<>(l);
      sorted.sort(Comparator.comparing(Evidence::source).thenComparingLong(Evidence::line));
      assertThat(JobEvidence.first(l)).as("%s", l)
          .containsExactlyElementsOf(sorted.subList(0, Math.min(sorted.size(), EvidenceList.KEEP)));
    }
  }
}
