package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The length under which {@link TestsPreamble#parse} does not look at a line is the shortest it takes. */
class TestsPreambleTest {
  private static boolean parse(String line) {
    byte[] b = (line + "\n").getBytes(StandardCharsets.US_ASCII);
    EvidenceSlot slot = new EvidenceSlot();
    slot.at(b, 0, line.length(), 1);
    return TestsPreamble.parse(new LogAccumulator(), slot, b, 0, line.length());
  }

  @Test
  void theShortestRankLineIsTakenAndNothingShorter() {
    String shortest = "#Rank 0 Pid on h device ";
    assertThat(shortest).hasSize(TestsPreamble.SHORTEST);
    assertThat(parse(shortest)).isTrue();
    assertThat(parse("#  Rank  8 Group  0 Pid  22818 on  dgx-a-018 device  0 [0x07] NVIDIA A100")).isTrue();
    // each byte of the shortest is needed
    for (int i = 0; i < shortest.length(); i++) {
      assertThat(parse(shortest.substring(0, i) + shortest.substring(i + 1))).as("without byte %d", i).isFalse();
    }
  }
}
