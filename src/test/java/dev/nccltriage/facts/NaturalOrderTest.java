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

  @Test
  void pciAddressesCompareAsHexadecimal() {
    // /proc/driver/nvidia/gpus of an 8-GPU node: as decimal runs, 2a and 9a would come before 18
    assertThat(sorted("0000:9a:00.0", "0000:2a:00.0", "0000:18:00.0", "0000:db:00.0", "0000:ab:00.0", "0000:3b:00.0"))
        .containsExactly("0000:18:00.0", "0000:2a:00.0", "0000:3b:00.0", "0000:9a:00.0", "0000:ab:00.0", "0000:db:00.0");
    assertThat(sorted("0001:18:00.0", "0000:ff:1f.7", "0000:ff:1f.1", "0000:ff:0a.0"))
        .containsExactly("0000:ff:0a.0", "0000:ff:1f.1", "0000:ff:1f.7", "0001:18:00.0");
    // nvidia-smi's eight-digit domain and upper case are the same addresses; still a total order
    assertThat(sorted("00000000:2A:00.0", "0000:18:00.0")).containsExactly("0000:18:00.0", "00000000:2A:00.0");
    assertThat(NaturalOrder.INSTANCE.compare("00000000:18:00.0", "0000:18:00.0"))
        .isEqualTo(-NaturalOrder.INSTANCE.compare("0000:18:00.0", "00000000:18:00.0")).isNotZero();
  }

  @Test
  void onlyWholePciAddressesAreReadAsHexadecimal() {
    assertThat(NaturalOrder.pciAddress("0000:2a:00.0")).isEqualTo(0x00002a000L);
    assertThat(NaturalOrder.pciAddress("0000:2A:1f.7")).isEqualTo(0x00002a1f7L);
    assertThat(NaturalOrder.pciAddress("ffffffff:ff:ff.f")).isEqualTo(0xfffffffffffffL);
    for (String no : new String[] {"", "0000:2a:00", "000:2a:00.0", "000000000:2a:00.0", "0000:2g:00.0", "0000-2a:00.0",
        "0000:2a-00.0", "0000:2a:00-0", "0000:2a:00.0 ", "mlx5_0", "0000:2a:0\uff10.0", "0000:2a:00.\uff41"}) {
      assertThat(NaturalOrder.pciAddress(no)).as(no).isEqualTo(-1);
    }
    // a folder holding both: addresses first, then names in natural order, one total order
    assertThat(sorted("nvidia10", "0000:9a:00.0", "0000:10", "nvidia2", "0000:18:00.0"))
        .containsExactly("0000:18:00.0", "0000:9a:00.0", "0000:10", "nvidia2", "nvidia10");
  }

  @Test
  void theAllZeroAddressIsAnAddressToo() {
    // 0000:00:00.0 reads as the number 0: still an address, first, and below every other address
    assertThat(sorted("-lo", "0000:00:01.0", "0000:00:00.0")).containsExactly("0000:00:00.0", "0000:00:01.0", "-lo");
    assertThat(NaturalOrder.INSTANCE.compare("0000:00:01.0", "0000:00:00.0")).isPositive();
    assertThat(NaturalOrder.INSTANCE.compare("0000:00:00.0", "0000:00:01.0")).isNegative();
    assertThat(NaturalOrder.INSTANCE.compare("0000:00:00.0", "-lo")).isNegative();
    assertThat(NaturalOrder.INSTANCE.compare("-lo", "0000:00:00.0")).isPositive();
    // two spellings of the same address (4- and 8-digit domain) are told apart by text, either way round
    assertThat(NaturalOrder.INSTANCE.compare("0000:00:00.0", "00000000:00:00.0")).isPositive();
    assertThat(NaturalOrder.INSTANCE.compare("00000000:00:00.0", "0000:00:00.0")).isNegative();
  }
}
