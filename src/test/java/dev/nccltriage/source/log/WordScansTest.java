package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The scans that read eight bytes at a time give a byte loop's answer: on random bytes drawn mostly
 * from the bytes each one looks for (and those next to them, where a borrow would mark a wrong
 * lane), over random ranges that start and end anywhere in the array, its first and last words
 * included.
 */
class WordScansTest {
  private static final byte ESC = 0x1b;
  // the bytes the scans stop at, their neighbours, and bytes with the high bit set
  private static final byte[] ALPHABET = {'\n', ESC, ' ', '!', 0x1f, 0x21, 0x09, 0, '"', '\\', ']', '#', '[',
      'a', 'Z', '0', '9', '.', (byte) 0x80, (byte) 0xA0, (byte) 0xFF, (byte) 0xC3, 0x7f};

  private static byte[] randomBytes(Random r, int n, int density) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = r.nextInt(density) == 0 ? ALPHABET[r.nextInt(ALPHABET.length)] : (byte) ('a' + r.nextInt(26));
    }
    return b;
  }

  private static int indexOfEither(byte[] b, int from, int to, byte x, byte y) {
    for (int i = from; i < to; i++) {
      if (b[i] == x || b[i] == y) {
        return i;
      }
    }
    return -1;
  }

  private static int wordEnd(byte[] b, int s, int max) {
    int i = s;
    while (i < max && (b[i] > ' ' || b[i] < 0)) {
      i++;
    }
    return i;
  }

  private static int asciiWordEnd(byte[] b, int s, int max) {
    int i = s;
    while (i < max && b[i] > ' ') {
      i++;
    }
    return i;
  }

  @Test
  void everyScanGivesTheByteLoopsAnswer() {
    Random r = new Random(20261204);
    for (int round = 0; round < 20000; round++) {
      byte[] b = randomBytes(r, 1 + r.nextInt(70), 1 + r.nextInt(12));
      int from = r.nextInt(b.length + 1);
      int to = from + r.nextInt(b.length - from + 1);
      String where = "round " + round + " [" + from + ", " + to + ")";
      assertThat(Bytes.indexOfEither(b, from, to, (byte) '"', (byte) '\\')).as(where)
          .isEqualTo(indexOfEither(b, from, to, (byte) '"', (byte) '\\'));
      assertThat(Bytes.indexOfEither(b, from, to, (byte) ']', (byte) '\n')).as(where)
          .isEqualTo(indexOfEither(b, from, to, (byte) ']', (byte) '\n'));
      assertThat(Bytes.wordEnd(b, from, to)).as(where).isEqualTo(wordEnd(b, from, to));
      assertThat(Bytes.asciiWordEnd(b, from, to)).as(where).isEqualTo(asciiWordEnd(b, from, to));
      assertThat(Bytes.hasNewlineOrEscape(b, from, to)).as(where)
          .isEqualTo(indexOfEither(b, from, to, (byte) '\n', ESC) >= 0);
      assertThat(AnsiStrip.hasEscape(b, from, to)).as(where).isEqualTo(indexOfEither(b, from, to, ESC, ESC) >= 0);
      // '#' is '"' + 1: a quote's borrow would mark it, an exact count must not
      for (byte c : new byte[] {'"', '#', 'a', (byte) 0xff}) {
        assertThat(Bytes.oddCount(b, from, to, c)).as(where + " " + (char) c).isEqualTo(count(b, from, to, c) % 2 == 1);
      }
    }
  }

  private static int count(byte[] b, int from, int to, byte c) {
    int n = 0;
    for (int i = from; i < to; i++) {
      n += b[i] == c ? 1 : 0;
    }
    return n;
  }

  /**
   * Colour codes are cut out of a line by runs copied whole: the same bytes as a byte loop that drops
   * each ESC [ ... final byte and each lone ESC with the byte after it, the scratch buffer reused
   * from line to line (a shorter line after a longer one).
   */
  @Test
  void aColourStripKeepsTheByteLoopsBytes() {
    Random r = new Random(20261205);
    AnsiStrip strip = new AnsiStrip();
    for (int round = 0; round < 20000; round++) {
      byte[] b = randomBytes(r, 1 + r.nextInt(90), 1 + r.nextInt(6));
      int from = r.nextInt(b.length + 1);
      int to = from + r.nextInt(b.length - from + 1);
      int n = strip.strip(b, from, to);
      byte[] got = java.util.Arrays.copyOf(strip.buffer(), n);
      assertThat(got).as("round " + round + " [" + from + ", " + to + ")").isEqualTo(stripped(b, from, to));
    }
  }

  private static byte[] stripped(byte[] b, int s, int e) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int i = s; i < e; i++) {
      if (b[i] != ESC) {
        out.write(b[i]);
      } else if (i + 1 < e && b[i + 1] == '[') {
        i += 2;
        while (i < e && (b[i] < 0x40 || b[i] > 0x7e)) {
          i++;
        }
      } else {
        i++;
      }
    }
    return out.toByteArray();
  }

  /** The fraction of a second read eight digits at a time ends where the byte loop ended it. */
  @Test
  void aTimestampsFractionEndsWhereItsBytesEnd() {
    Random r = new Random(4);
    // no blank: the line after the time is a known one (a blank would end the time there)
    byte[] tail = "0123456789.,:+-Za".getBytes(StandardCharsets.US_ASCII);
    for (int round = 0; round < 20000; round++) {
      StringBuilder line = new StringBuilder(r.nextBoolean() ? "2026-05-01T10:00:00" : "2026-05-01 10:00:00");
      int n = r.nextInt(30);
      for (int i = 0; i < n; i++) {
        // mostly digits after a '.' or ',' (nanoseconds, milliseconds), now and then anything
        line.append((char) (i == 0 && r.nextInt(3) > 0 ? (r.nextBoolean() ? '.' : ',')
            : r.nextInt(4) > 0 ? '0' + r.nextInt(10) : tail[r.nextInt(tail.length)]));
      }
      line.append(r.nextBoolean() ? " host:1:2 [0] NCCL INFO x" : "");
      byte[] b = line.toString().getBytes(StandardCharsets.US_ASCII);
      assertThat(Envelope.afterWrappers(b, 0, b.length)).as(line.toString()).isEqualTo(afterTime(b));
    }
  }

  /** Where the line goes on after "YYYY-MM-DD?HH:MM:SS" at 0 and what may follow it: 0 if nothing. */
  private static int afterTime(byte[] b) {
    int e = b.length;
    int max = Math.min(e, 40);
    int i = 19;
    while (i < max && (Character.isDigit(b[i]) || ".,:+-Z".indexOf(b[i]) >= 0)) {
      i++;
    }
    if (i >= max || i >= e || b[i] != ' ' && b[i] != '\t') {
      return 0;
    }
    return i + 1;
  }
}
