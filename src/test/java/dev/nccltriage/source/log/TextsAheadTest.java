package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link TextsAhead} answers as a search from each position to the line's end would. */
class TextsAheadTest {
  private static final byte[][] TEXTS = {Bytes.ascii("abc"), Bytes.ascii("ca"), Bytes.ascii("bbbb")};
  private static final String[] PIECES = {"a", "b", "c", "ab", "abc", "ca", "bb", "x", " "};

  @Test
  void answersAsASearchToTheLineEndForQuestionsInAnyOrder() {
    Random r = new Random(44);
    TextsAhead ahead = new TextsAhead(TEXTS);
    byte[] buf = new byte[96];
    int yes = 0;
    int no = 0;
    for (int line = 0; line < 20_000; line++) {
      // one buffer, refilled: a line may end where the one before ended (forget() tells them apart)
      StringBuilder text = new StringBuilder();
      while (text.length() < 40) {
        text.append(PIECES[r.nextInt(PIECES.length)]);
      }
      int s = r.nextInt(8);
      byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
      int e = s + Math.min(bytes.length, 30 + r.nextInt(10));
      System.arraycopy(bytes, 0, buf, s, e - s);
      ahead.forget();
      int at = s;
      for (int q = 0; q < 12; q++) {
        // mostly rising, as a line's markers come; now and then back (a second search of the line)
        at = r.nextInt(5) == 0 ? s + r.nextInt(e - s + 1) : Math.min(e, at + r.nextInt(6));
        boolean expected = Bytes.holdsAny(buf, at, e, TEXTS);
        assertThat(ahead.anyFrom(buf, at, e)).as("line %d \"%s\" from %d", line,
            new String(buf, s, e - s, StandardCharsets.US_ASCII), at - s).isEqualTo(expected);
        if (expected) {
          yes++;
        } else {
          no++;
        }
      }
    }
    assertThat(yes).isGreaterThan(10_000);
    assertThat(no).isGreaterThan(10_000);
  }

  @Test
  void anotherBufferOrLineEndIsAnotherLine() {
    TextsAhead ahead = new TextsAhead(TEXTS);
    byte[] one = Bytes.ascii("xx abc xx");
    byte[] two = Bytes.ascii("xx xxx xx");
    assertThat(ahead.anyFrom(one, 0, one.length)).isTrue();
    assertThat(ahead.anyFrom(two, 0, two.length)).isFalse();
    assertThat(ahead.anyFrom(one, 0, 5)).isFalse(); // "abc" does not end before 5
    assertThat(ahead.anyFrom(one, 0, 6)).isTrue();
  }
}
