package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link UnknownWrappers#shapeEnd} answers as its definition does (the first token boundary from
 * which the chain of known wrappers reaches the report), whatever wrappers, words and separators a
 * line holds, with the chains it follows kept.
 */
class ShapeEndTest {
  private static final String[] PIECES = {"[default0]: ", "[rank3]: ", "[1,0]<stdout>: ", "[pod/a/b] ",
      "[  123.456789] ", "2024-05-01T10:00:00.123Z ", "10:00:00 ", "Dec  1 10:00:00 host tag[42]: ",
      "(RayWorker pid=12, ip=10.0.0.1) ", " 3: ", "[2025-06-01 12:34:56] ", "node-1 ", "x", ": ", "| ", "\t", " ",
      "[", "12", "job "};

  /** The definition: each boundary in turn, the chain of known wrappers from it. */
  private static int reference(byte[] b, int k, int host) {
    for (int p = k + 1; p < host; p++) {
      byte c = b[p - 1];
      if ((c == ' ' || c == '\t' || c == ':' || c == '|') && Envelope.afterWrapperChain(b, p, host) == host) {
        return p;
      }
    }
    return host;
  }

  @Test
  void answersAsTheChainFromEachBoundaryDoes() {
    Random r = new Random(44);
    int cut = 0;
    for (int i = 0; i < 30_000; i++) {
      StringBuilder line = new StringBuilder();
      for (int n = r.nextInt(12); n >= 0; n--) {
        line.append(PIECES[r.nextInt(PIECES.length)]);
      }
      byte[] b = (line + "Killed").getBytes(StandardCharsets.US_ASCII);
      int k = r.nextInt(3) == 0 ? Math.min(2, b.length - 6) : 0;
      int host = b.length - "Killed".length();
      int expected = reference(b, k, host);
      assertThat(UnknownWrappers.shapeEnd(b, k, host)).as("\"%s\" from %d", line, k).isEqualTo(expected);
      cut += expected < host ? 1 : 0;
    }
    assertThat(cut).as("lines whose known wrappers were cut off").isGreaterThan(5000);
  }
}
