package dev.nccltriage.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrintableTest {
  @Test
  void controlBytesBecomeEscapes() {
    assertThat(Printable.text("a\u0007b\u001b[31mc\u007fd\u009be")).isEqualTo("a\\x07b\\x1b[31mc\\x7fd\\u009be");
    assertThat(Printable.text("tab\tand\nnewline")).isEqualTo("tab\tand\nnewline");
  }

  /** A log line that would show reversed, or broken, on a terminal: its hidden characters are shown. */
  @ParameterizedTest
  @ValueSource(chars = {'\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069',
      '\u200e', '\u200f', '\u061c', '\u2028', '\u2029'})
  void bidirectionalControlsAndSeparatorsBecomeEscapes(char c) {
    String line = "NCCL WARN " + c + "deliaf";
    assertThat(Printable.text(line)).isEqualTo("NCCL WARN " + String.format("\\u%04x", (int) c) + "deliaf");
    assertThat(Printable.line(line, 100)).doesNotContain(String.valueOf(c));
  }

  /** Letters of any script, and the joiners that shape them, are text. */
  @Test
  void otherScriptsStayAsTheyAre() {
    for (String s : new String[] {"\u00e9t\u00e9", "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627",
        "\u4e2d\u6587", "\u200d\u200c", "\u2030\u2065", "\u061b\u061d", "\ud83d\ude00"}) {
      assertThat(Printable.text(s)).as(s).isSameAs(s);
    }
  }
}
