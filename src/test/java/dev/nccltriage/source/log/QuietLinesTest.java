package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link QuietLines}: its test of bytes against a plain one, the readers of a line with no envelope
 * on every line it passes, and its table's keys. That the parser reads a known line as it would read
 * it in full is {@code ShortLinesTest}'s.
 */
class QuietLinesTest {
  private static final String ALPHABET = "+,-./0123456789";

  private static long head(byte[] b, int s) {
    return Bytes.word(b, s);
  }

  private static boolean plain(byte[] b, int s, int e) {
    for (int i = s; i < e; i++) {
      if (ALPHABET.indexOf(b[i] & 0xff) < 0) {
        return false;
      }
    }
    return e > s && e - s < 8;
  }

  /** Every byte value at every position of lines of 1 to 7 bytes, whatever bytes follow the line. */
  @Test
  void inertAgreesWithAByteByByteTest() {
    Random rnd = new Random(3);
    byte[] b = new byte[16];
    for (int n = 0; n <= 8; n++) {
      for (int pos = 0; pos < Math.max(1, n); pos++) {
        for (int v = 0; v < 256; v++) {
          for (int i = 0; i < b.length; i++) {
            b[i] = rnd.nextBoolean() ? (byte) ALPHABET.charAt(rnd.nextInt(ALPHABET.length())) : (byte) rnd.nextInt(256);
          }
          for (int i = 0; i < n; i++) {
            b[i] = (byte) ALPHABET.charAt(rnd.nextInt(ALPHABET.length()));
          }
          if (pos < n) {
            b[pos] = (byte) v;
          }
          assertThat(QuietLines.inert(head(b, 0), n)).as("n=%d pos=%d byte=%d", n, pos, v).isEqualTo(plain(b, 0, n));
        }
      }
    }
  }

  /**
   * The readers {@link LogParser#shortLine} leaves out for an inert line find nothing in any line of
   * that alphabet, and those it leaves out for every short line (a report after a wrapper, a
   * traceback's header) find nothing in any short line.
   */
  @Test
  void noReaderFindsAnythingInAnInertLine() {
    Random rnd = new Random(5);
    for (int i = 0; i < 200_000; i++) {
      int n = 1 + rnd.nextInt(7);
      byte[] b = new byte[n];
      for (int j = 0; j < n; j++) {
        b[j] = (byte) ALPHABET.charAt(rnd.nextInt(ALPHABET.length()));
      }
      String line = new String(b, StandardCharsets.US_ASCII);
      assertThat(Envelope.afterShortWrappers(b, 0, n)).as(line).isZero();
      assertThat(Envelope.afterQuoting(b, 0, n)).as(line).isZero();
      assertThat(Envelope.mayHaveSuffix(b[n - 1])).as(line).isFalse();
      assertThat(Envelope.trimSuffix(b, 0, n)).as(line).isEqualTo(n);
      assertThat(CrashMarkers.isCrash(b, 0, n)).as(line).isFalse();
      assertThat(LauncherReports.kind(b, 0, n)).as(line).isEqualTo(LauncherReports.NONE);
      assertThat(FrameworkFailures.logLevelAt(b, 0, n)).as(line).isNegative();
      assertThat(FrameworkFailures.fatalLine(b, 0, n)).as(line).isFalse();
    }
    for (int i = 0; i < 200_000; i++) {
      int n = 1 + rnd.nextInt(7);
      byte[] b = new byte[n];
      for (int j = 0; j < n; j++) {
        b[j] = (byte) (rnd.nextBoolean() ? ":Traceback -Kille\t"
            .charAt(rnd.nextInt(18)) : rnd.nextInt(256));
      }
      assertThat(LauncherReports.afterOtherBytes(b, 0, n)).isEqualTo(-1);
      assertThat(Tracebacks.headerAfterOtherBytes(b, 0, n)).isEqualTo(-1);
    }
  }

  @Test
  void keysTellLinesApartAndAreNeverEmpty() {
    Set<Long> keys = new HashSet<>();
    byte[] b = "ab\nab\nabc\nabcdefg".getBytes(StandardCharsets.US_ASCII);
    byte[] padded = new byte[b.length + 8];
    System.arraycopy(b, 0, padded, 0, b.length);
    long ab = QuietLines.key(head(padded, 0), 2);
    assertThat(QuietLines.key(head(padded, 3), 2)).as("the same line, other bytes after it").isEqualTo(ab);
    keys.add(ab);
    keys.add(QuietLines.key(head(padded, 6), 3));
    keys.add(QuietLines.key(head(padded, 10), 7));
    keys.add(QuietLines.key(0, 1)); // a NUL byte alone
    keys.add(QuietLines.key(0, 2));
    assertThat(keys).hasSize(5).doesNotContain(0L);
    QuietLines table = new QuietLines();
    assertThat(table.known(ab)).isFalse();
    table.add(ab);
    assertThat(table.known(ab)).isTrue();
    assertThat(table.known(QuietLines.key(head(padded, 6), 3))).isFalse();
  }
}
