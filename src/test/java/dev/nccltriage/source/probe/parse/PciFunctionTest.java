package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The kernel's PCI identity files as pci-sysfs.c prints them, and which functions are RDMA NICs. */
class PciFunctionTest {

  static Stream<Arguments> hexTexts() {
    return Stream.of(
        Arguments.of("0x15b3\n", 5555),
        Arguments.of("0x020700\n", 132864),
        Arguments.of("15b3", 5555),
        Arguments.of("  0X1D0F  ", 7439),
        Arguments.of("0x7fffffff", Integer.MAX_VALUE),
        Arguments.of("0xffffffff", null),
        Arguments.of("0x100000000", null),
        Arguments.of("0x", null),
        Arguments.of("", null),
        Arguments.of(null, null),
        Arguments.of("0x15b3 0x1017", null),
        Arguments.of("0x15g3", null),
        Arguments.of("-0x1", null),
        Arguments.of("0x\uff17", null));
  }

  @ParameterizedTest
  @MethodSource("hexTexts")
  void hexValuesAndHostileOnes(String text, Integer want) {
    assertThat(PciFunction.hex(text)).isEqualTo(want);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\u0000\u0000", "0x\u0000", "\uFEFF0x15b3", "0x15b3\n0x15b3"})
  void binaryOrDoubledFilesAreNoValue(String text) {
    assertThat(PciFunction.hex(text)).isNull();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', nullValues = "null", value = {
      // class, vendor, device, what
      "0x020700|0x15b3|0x1021|InfiniBand controller",
      "0x020700|0x8086|null|InfiniBand controller",
      "0x020000|0x15b3|0x101d|NVIDIA/Mellanox network controller",
      "0x020000|0x15b3|null|NVIDIA/Mellanox network controller",
      "0x020000|0x1d0f|0xefa1|AWS EFA",
      "0x020000|0x1d0f|0xefa3|AWS EFA",
      // Amazon's ENA, virtio, Intel, Broadcom: plain (or not provably RDMA) NICs
      "0x020000|0x1d0f|0xec20|null",
      "0x020000|0x1d0f|null|null",
      "0x020000|0x1af4|0x1041|null",
      "0x020000|0x8086|0x1593|null",
      "0x020000|0x14e4|0x1750|null",
      "0x020000|null|null|null",
      // a Mellanox PCIe bridge or a GPU is no NIC
      "0x060400|0x15b3|0x197b|null",
      "0x030200|0x10de|0x2335|null",
  })
  void rdmaNics(String cls, String vendor, String device, String want) {
    assertThat(PciFunction.rdmaNic(PciFunction.hex(cls), PciFunction.hex(vendor), PciFunction.hex(device)))
        .isEqualTo(want);
  }
}
