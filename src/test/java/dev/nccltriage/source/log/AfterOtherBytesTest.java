package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LauncherReports#afterOtherBytes} reads eight bytes at a time; its answer is the byte loop's
 * that it replaced ({@link #byteByByte}, kept here as the definition) on every line, whichever of
 * its bytes fall in a word and which in the tail.
 */
class AfterOtherBytesTest {
  /** The definition: token starts after a run of blanks, tabs or colons, byte by byte. */
  static int byteByByte(byte[] b, int t, int e) {
    int end = Math.min(e, t + LauncherReports.MAX_WRAPPER + 1);
    int i = t;
    while (i < end && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    if (e - i < 8) {
      return -1;
    }
    int n = 0;
    byte p = b[i];
    for (i++; i < end && n < LauncherReports.MAX_WRAPPER_TOKENS; i++) {
      byte c = b[i];
      if (p <= ' ' || p == ':') {
        if (p != ' ' && p != ':' && p != '\t') {
          break;
        }
        if (c != ' ' && c != ':' && c != '\t') {
          int r = c == '[' || LauncherReports.isoDate(b, i, end) ? Envelope.afterWrapperChain(b, i, end) : i;
          if (r + 1 < end && LauncherReports.mayStart(b[r], b[r + 1])
              && (LauncherReports.kind(b, r, e) != LauncherReports.NONE || FrameworkFailures.fatalLine(b, r, e))) {
            return r;
          }
          n++;
        }
      } else if (p == 0x7f) {
        break;
      }
      p = c;
    }
    return LauncherReports.signalAtEnd(b, t, e);
  }

  private static final String[] PIECES = {
    " ", "  ", ":", ": ", "\t", "\u0001", "\u007f", "\u00e9", "\r", "node-1", "pod", "[1,0]<stdout>:",
    "[default0]:", "2024-05-01T10:00:00Z ", "srun: error: n1: task 5: Killed", "Killed", "Aborted",
    "terminate called after throwing", "F0501 10:00:00.000 1 x.cc:1] bad", "x", "step", "12345", "|", "]",
    "Bus error", "Terminated"
  };

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void answersAsTheByteLoopOnRandomLines(int seed) {
    Random random = new Random(seed);
    for (int k = 0; k < 4000; k++) {
      StringBuilder line = new StringBuilder();
      int pieces = 1 + random.nextInt(random.nextInt(4) == 0 ? 80 : 8);
      for (int j = 0; j < pieces; j++) {
        line.append(PIECES[random.nextInt(PIECES.length)]);
      }
      byte[] text = line.toString().getBytes(StandardCharsets.UTF_8);
      int pad = random.nextInt(3);
      byte[] b = Framed.within(text, pad, random.nextInt(12), (byte) 0);
      int e = pad + text.length;
      assertThat(LauncherReports.afterOtherBytes(b, pad, e)).as("seed %d line %d: %s", seed, k, line)
          .isEqualTo(byteByByte(b, pad, e));
    }
  }

  @Test
  void answersAsTheByteLoopOnEveryByteAtEveryPlace() {
    // each byte value at each place of two tokens before a report, and past the wrapper's reach
    byte[] report = "Killed".getBytes(StandardCharsets.US_ASCII);
    for (int len : new int[] {3, 9, 17, 250, 256, 257}) {
      for (int at = 0; at < len; at++) {
        for (int v = 0; v < 256; v++) {
          byte[] b = new byte[len + 1 + report.length];
          java.util.Arrays.fill(b, 0, len, (byte) 'a');
          b[len / 2] = ' ';
          b[len] = ' ';
          System.arraycopy(report, 0, b, len + 1, report.length);
          b[at] = (byte) v;
          assertThat(LauncherReports.afterOtherBytes(b, 0, b.length)).as("len %d at %d byte %d", len, at, v)
              .isEqualTo(byteByByte(b, 0, b.length));
        }
      }
    }
  }

  @Test
  void findsAReportAfterTwoTokensAndNotAfterThree() {
    byte[] two = "pod container Killed".getBytes(StandardCharsets.US_ASCII);
    byte[] three = "pod container x Aborted (core dumped)".getBytes(StandardCharsets.US_ASCII);
    assertThat(LauncherReports.afterOtherBytes(two, 0, two.length)).isEqualTo(14);
    assertThat(LauncherReports.afterOtherBytes(three, 0, three.length)).isEqualTo(-1);
  }
}
