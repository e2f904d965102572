package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Network names are interned, bounded in number and in length: garbage cannot grow what a line searches. */
class NetNamesTest {
  private static String of(NetNames names, String s) {
    byte[] b = ("  " + s + "  ").getBytes(StandardCharsets.UTF_8);
    return names.of(b, 2, b.length - 2);
  }

  @Test
  void aNameIsOneStringAndNewNamesPastTheLimitAreOne() {
    NetNames names = new NetNames();
    String ib = of(names, "IB");
    assertThat(of(names, "IB")).isSameAs(ib);
    for (int i = 0; i < 100; i++) {
      of(names, "garbage" + i);
    }
    assertThat(of(names, "garbage5")).isEqualTo("garbage5");
    assertThat(of(names, "garbage99")).isSameAs(NetNames.MORE);
    assertThat(of(names, "Socket")).isSameAs(NetNames.MORE);
    assertThat(of(names, "IB")).isSameAs(ib);
  }

  @Test
  void aNamePastItsLengthIsCut() {
    NetNames names = new NetNames();
    String whole = "x".repeat(NetNames.MAX_NAME);
    assertThat(of(names, whole)).isEqualTo(whole);
    String cut = of(names, whole + "y");
    assertThat(cut).isEqualTo("x".repeat(NetNames.MAX_NAME) + "…").isNotEqualTo(whole);
    assertThat(of(names, whole + "zzz")).isSameAs(cut);
  }

  @Test
  void aLogOfThousandsOfDistinctNetworksCountsTheRestTogether() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      lines.add("h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/net" + i + "/0");
    }
    assertThat(LogLines.parse(lines).transport()).isEqualTo(NetNames.MORE);
  }
}
