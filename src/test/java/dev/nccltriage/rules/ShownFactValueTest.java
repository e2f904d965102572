package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A fact value in a rule's message: whole as the tool composes it, cut where input made it absurd. */
class ShownFactValueTest {
  @Test
  void aSentenceOfShortWordsStaysWholeAndALongWordIsCut() {
    String summary = "netns mode exclusive; netdevs of the RDMA ports in this netns: net1, net2, net3, net4; "
        .repeat(5);
    assertThat(Engine.clip(summary)).isEqualTo(summary);
    String word = "eth0,".repeat(4000);
    assertThat(Engine.clip("NCCL_SOCKET_IFNAME=" + word + " and more"))
        .startsWith("NCCL_SOCKET_IFNAME=eth0,eth0,").endsWith("… and more").hasSize(160 + " and more".length());
    assertThat(Engine.clip("x".repeat(160))).isEqualTo("x".repeat(160));
    assertThat(Engine.clip("x".repeat(161))).isEqualTo("x".repeat(159) + "…");
  }

  @Test
  void aValueOfManyWordsIsCutAtItsLength() {
    String many = "word ".repeat(1000);
    assertThat(Engine.clip(many)).hasSize(1000).endsWith("…");
    assertThat(Engine.clip("word ".repeat(200))).hasSize(1000).doesNotContain("…");
  }
}
