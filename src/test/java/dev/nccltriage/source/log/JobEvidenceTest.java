package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * JobEvidence.first keeps what a sort by (source, line, text) puts first, without sorting: a stable
 * sort where texts tie too.
 */
class JobEvidenceTest {
  @Test
  void keepsTheFirstItemsOfAStableSort() {
    Random r = new Random(7);
    for (int round = 0; round < 2000; round++) {
      List<Evidence> l = new ArrayList<>();
      int n = r.nextInt(12);
      for (int i = 0; i < n; i++) {
        // few sources, lines and texts, so ties are common; the list index tells tied items apart
        l.add(new Evidence("f" + r.nextInt(3), r.nextInt(4), "item " + r.nextInt(3)));
      }
      List<Evidence> sorted = new ArrayList<>(l);
      sorted.sort(Comparator.comparing(Evidence::source).thenComparingLong(Evidence::line)
          .thenComparing(Evidence::text));
      List<Evidence> first = JobEvidence.first(l);
      assertThat(first).as("%s", l)
          .containsExactlyElementsOf(sorted.subList(0, Math.min(sorted.size(), EvidenceList.KEEP)));
      for (int i = 0; i < first.size(); i++) { // the very items, in a tie the one listed first
        assertThat(first.get(i)).isSameAs(sorted.get(i));
      }
    }
  }
}
