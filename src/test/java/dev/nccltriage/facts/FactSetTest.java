package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A fact set lists the known facts, in the order they were put, and leaves unknown ones out. */
class FactSetTest {

  @Test
  void asMapListsTheKnownFactsInOrder() {
    FactSet s = new FactSet().put("pod.hcas", 2L, List.of()).put("pod.gpus", null, List.of())
        .put("log.present", true, List.of());
    assertThat(s.asMap().keySet()).containsExactly("pod.hcas", "log.present");
    assertThat(s.asMap().get("pod.hcas").value()).isEqualTo(2L);
  }
}
