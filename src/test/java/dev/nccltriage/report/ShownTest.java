package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShownTest {
  @Test
  void aValueIsWholeUpToItsLimitAndCutPastIt() {
    String whole = "x".repeat(Shown.VALUE_MAX);
    assertThat(Shown.value(whole)).isSameAs(whole);
    assertThat(Shown.value(whole + "y")).hasSize(Shown.VALUE_MAX).endsWith("x…");
    assertThat(Shown.value(null)).isNull();
  }

  @Test
  void aListShowsItsFirstItemsAndCountsTheRest() {
    List<String> items = new ArrayList<>();
    for (int i = 0; i < Shown.LIST_MAX + 8; i++) {
      items.add("eth" + i);
    }
    assertThat(Shown.list(items.subList(0, 3), " ")).isEqualTo("eth0 eth1 eth2");
    assertThat(Shown.list(items.subList(0, Shown.LIST_MAX), ", ")).doesNotContain("more");
    assertThat(Shown.list(items, " ")).startsWith("eth0 eth1").contains("eth31").doesNotContain("eth32")
        .endsWith(" (+8 more)");
    assertThat(Shown.list(List.of("a".repeat(500)), " ")).hasSize(Shown.VALUE_MAX);
  }
}
