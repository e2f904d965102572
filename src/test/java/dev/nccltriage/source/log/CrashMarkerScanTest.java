package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The crash scan looks only at the bytes that can start a marker, eight at a time: it answers
 * what a plain scan of every position answers, at every offset, length and alignment.
 */
class CrashMarkerScanTest {
  private static final List<String> MARKERS = List.of("SIGSEGV", "SIGABRT", "SIGBUS", "Segmentation fault",
      "core dumped", "Watchdog caught collective operation timeout", "Fatal Python error", "ncclSystemError",
      "ncclInternalError", "ncclRemoteError", "ncclUnhandledCudaError", "ncclInvalidUsage",
      "ncclInvalidArgument", "ncclTimeout");

  private static boolean plainScan(String line) {
    for (String m : MARKERS) {
      if (line.contains(m)) {
        return true;
      }
    }
    return false;
  }

  private static boolean scan(String line, int pad) {
    byte[] text = line.getBytes(StandardCharsets.ISO_8859_1);
    byte[] b = new byte[text.length + 2 * pad];
    java.util.Arrays.fill(b, (byte) 'S'); // marker-like bytes around the range must not count
    System.arraycopy(text, 0, b, pad, text.length);
    return CrashMarkers.isCrash(b, pad, pad + text.length);
  }

  @Test
  void everyMarkerIsFoundAtEveryOffset() {
    for (String m : MARKERS) {
      for (int before = 0; before < 20; before++) {
        for (int after = 0; after < 10; after++) {
          String line = "x".repeat(before) + m + "y".repeat(after);
          for (int pad = 0; pad < 9; pad++) {
            assertThat(scan(line, pad)).as("%s at %d, pad %d", m, before, pad).isTrue();
          }
        }
      }
    }
  }

  @Test
  void aMarkerCutByTheEndOfTheRangeIsNotFound() {
    for (String m : MARKERS) {
      for (int keep = 1; keep < m.length(); keep++) {
        String line = "Some output: " + m.substring(0, keep);
        assertThat(scan(line, 3)).as(line).isFalse();
      }
    }
  }

  @Test
  void randomLinesOfMarkerBytesAnswerAsAPlainScan() {
    // lines made of the markers' own letters, so that candidates and near misses are everywhere
    String alphabet = "SIGEVABRTUcoredumpWatchFlnyImsSeg ncl\u00ff\u0000";
    Random r = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(60);
      for (int j = 0; j < n; j++) {
        if (r.nextInt(40) == 0) {
          String m = MARKERS.get(r.nextInt(MARKERS.size()));
          sb.append(m, 0, 1 + r.nextInt(m.length()));
        } else {
          sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
      }
      String line = sb.toString();
      assertThat(scan(line, r.nextInt(9))).as(line).isEqualTo(plainScan(line));
    }
  }
}
