package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 12 item 11: HCA, device and interface names are ordered as people count, not as strings. */
class NaturalOrderTest {
  private static List<String> sorted(String... names) {
    List<String> l = new ArrayList<>(List.of(names));
    l.sort(NaturalOrder.INSTANCE);
    return l;
  }

  @Test
  void hcaNumbersCompareByValue() {
    assertThat(sorted("mlx5_15", "mlx5_22", "mlx5_6", "mlx5_0", "mlx5_1"))
        .containsExactly("mlx5_0", "mlx5_1", "mlx5_6", "mlx5_15", "mlx5_22");
    assertThat(sorted("uverbs10", "uverbs2", "uverbs1")).containsExactly("uverbs1", "uverbs2", "uverbs10");
  }

  @Test
  void everyDigitRunInANameCounts() {
    assertThat(sorted("ibp12s0", "ibp9s0", "ibp9s1", "ibp100s0")).containsExactly("ibp9s0", "ibp9s1", "ibp12s0", "ibp100s0");
    assertThat(sorted("net10", "net2", "eth0", "net1")).containsExactly("eth0", "net1", "net2", "net10");
  }

  @Test
  void digitRunsLongerThanALongCompareWithoutOverflow() {
    String huge = "mlx5_" + "9".repeat(40);
    String huger = "mlx5_1" + "0".repeat(40);
    String small = "mlx5_18446744073709551616"; // 2^64: past a long, still smaller than huge
    assertThat(sorted(huger, huge, small, "mlx5_7")).containsExactly("mlx5_7", small, huge, huger);
    assertThat(NaturalOrder.INSTANCE.compare(huge, huge)).isZero();
  }

  @Test
  void theSameNumberSpelledWithZerosIsOrderedTheSameWayEveryTime() {
    assertThat(NaturalOrder.INSTANCE.compare("mlx5_06", "mlx5_6")).isNotZero();
    assertThat(Integer.signum(NaturalOrder.INSTANCE.compare("mlx5_06", "mlx5_6")))
        .isEqualTo(-Integer.signum(NaturalOrder.INSTANCE.compare("mlx5_6", "mlx5_06")));
    assertThat(sorted("mlx5_6", "mlx5_06", "mlx5_5", "mlx5_7")).isEqualTo(sorted("mlx5_06", "mlx5_7", "mlx5_6", "mlx5_5"))
        .startsWith("mlx5_5").endsWith("mlx5_7");
    assertThat(sorted("mlx5_000", "mlx5_0")).isEqualTo(sorted("mlx5_0", "mlx5_000"));
  }

  @Test
  void aPrefixComesFirstAndLettersCompareAsChars() {
    assertThat(sorted("mlx5_1a", "mlx5_1", "mlx4_0", "hfi1_0")).containsExactly("hfi1_0", "mlx4_0", "mlx5_1", "mlx5_1a");
  }
}
