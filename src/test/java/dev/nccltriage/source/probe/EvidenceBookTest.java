package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import org.junit.jupiter.api.Test;

/** A fact cites at most four evidence lines, the first ones found: a report stays readable. */
class EvidenceBookTest {
  @Test
  void aFactKeepsItsFirstFourEvidenceLines() {
    EvidenceBook book = new EvidenceBook();
    for (int i = 1; i <= 5; i++) {
      book.add("pod.interfaces", "ip -j addr", "veth" + i);
    }

    assertThat(book.snapshot().get("pod.interfaces")).extracting(Evidence::text)
        .containsExactly("veth1", "veth2", "veth3", "veth4");
  }
}
