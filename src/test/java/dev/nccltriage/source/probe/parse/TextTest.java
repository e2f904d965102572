package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The shared clean-up of pasted output and the number readers every probe parser uses. */
class TextTest {

  @Test
  void everyLineEndEndsOneLine() {
    // CRLF is one line end, a lone CR (old Mac, a TUI redraw) and LF each another;
    // an empty line between two LFs is kept; a CR at the very end ends the last line
    assertThat(Text.lines("a\r\nb\rc\n\nd\r")).containsExactly("a", "b", "c", "", "d");
  }

  @Test
  void boxDrawingRangeDroppedToItsEdges() {
    // U+2500 (─) and U+257F (╿) are the first and last box-drawing characters; U+2580 (▀) is a
    // block element, kept
    assertThat(Text.lines("\u2500 mlx5_0 \u257F\n\u2580")).containsExactly(" mlx5_0", "\u2580");
  }

  @Test
  void joinedPastesComeApart() {
    assertThat(Text.pastes("$ ulimit -l\n64\n---\n$ ulimit -l\nunlimited\n"))
        .containsExactly("$ ulimit -l\n64\n", "$ ulimit -l\nunlimited\n");
  }

  @Test
  void intRangeEndsAreInts() {
    assertThat(Text.toInt("2147483647")).isEqualTo(Integer.MAX_VALUE);
    assertThat(Text.toInt("-2147483648")).isEqualTo(Integer.MIN_VALUE);
    assertThat(Text.toInt("2147483648")).isNull();
    assertThat(Text.toInt("-2147483649")).isNull();
    assertThat(Text.toIntAnyBase("0x7fffffff")).isEqualTo(Integer.MAX_VALUE);
    assertThat(Text.toIntAnyBase("0x80000000")).isNull();
  }

  @Test
  void noTextIsNoNumber() {
    assertThat(Text.toLong(null)).isNull();
    assertThat(Text.toInt(null)).isNull();
    assertThat(Text.hexToLong(null)).isNull();
    assertThat(Text.toIntAnyBase(null)).isNull();
  }

  @Test
  void hexWithOrWithoutPrefix() {
    assertThat(Text.hexToLong("0x1f")).isEqualTo(31L);
    assertThat(Text.hexToLong("0X1F")).isEqualTo(31L);
    assertThat(Text.hexToLong("1f")).isEqualTo(31L);
    assertThat(Text.hexToLong("fe800000")).isEqualTo(0xfe800000L);
  }

  @Test
  void parserBugFailsExactlyWhenAssertionsAreOn() {
    // surefire runs with -ea: a swallowed parser exception must surface there; a user's run
    // (no -ea) goes on. Both sides are checked since a runner may use either.
    Runnable bug = () -> Text.parserBug(new IllegalStateException("x"));
    if (Text.class.desiredAssertionStatus()) {
      assertThatThrownBy(bug::run)
          .isInstanceOf(AssertionError.class)
          .hasCauseInstanceOf(IllegalStateException.class);
    } else {
      assertThatCode(bug::run).doesNotThrowAnyException();
    }
  }
}
