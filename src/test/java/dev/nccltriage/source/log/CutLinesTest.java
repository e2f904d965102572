package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A line past the reader's limit is read only up to it: the report says so, because what stood
 * after the cut is unknown (a log whose lines end in a carriage return alone is one such line).
 */
class CutLinesTest {
  private static final String LINE = "node-a:7:7 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/IB/0/GDRDMA";

  @Test
  void aLogWithCarriageReturnsAloneSaysItWasCut() {
    List<String> records = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      records.add(LINE);
    }
    LogFacts f = LogLines.parse(String.join("\r", records));
    assertThat(f.inputs().get(0).truncatedLines()).isEqualTo(1);
    assertThat(f.leftOut().linesCut()).isEqualTo(1);
    assertThat(f.leftOut().summary()).startsWith("1 line was longer than the line limit").contains("tr '\\r' '\\n'");
  }

  @Test
  void linesWithinTheLimitLeaveNothingOut() {
    LogFacts f = LogLines.parse(LINE, LINE.replace("Channel 00", "Channel 01"));
    assertThat(f.leftOut()).isNull();
  }
}
