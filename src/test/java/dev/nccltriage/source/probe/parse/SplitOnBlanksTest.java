package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Text#splitOnBlanks} gives what {@code split("\\s+")} gives, on every mix of blanks and fields. */
class SplitOnBlanksTest {
  @Test
  void answersAsTheExpressionSplit() {
    String alphabet = " \t\n\u000B\f\rab1,.#\u0001\u00A0\u2003\u001C";
    Random r = new Random(44);
    for (int i = 0; i < 100_000; i++) {
      StringBuilder s = new StringBuilder();
      for (int n = r.nextInt(12); n > 0; n--) {
        s.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      String line = s.toString();
      assertThat(Text.splitOnBlanks(line)).as("\"%s\"", line.replace("\n", "\\n")).containsExactly(line.split("\\s+"));
    }
  }

  @Test
  void edgeCases() {
    assertThat(Text.splitOnBlanks("")).containsExactly("");
    assertThat(Text.splitOnBlanks("   ")).isEmpty();
    assertThat(Text.splitOnBlanks(" a  b ")).containsExactly("", "a", "b");
    assertThat(Text.splitOnBlanks("a")).containsExactly("a");
  }
}
