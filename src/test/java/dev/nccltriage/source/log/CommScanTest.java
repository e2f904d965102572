package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The word searches that look eight positions at a time answer what a plain scan answers: "comm 0x"
 * found from its 'x', and {@link Bytes#indexOf} by its first two bytes.
 */
class CommScanTest {
  private static final byte[] COMM = Bytes.ascii("comm 0x");

  @Test
  void answersAsTheWordSearchOnLinesMadeOfItsOwnBytes() {
    String alphabet = "comm 0xcx x0 ";
    Random r = new Random(3);
    for (int i = 0; i < 50_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(80);
      for (int j = 0; j < n; j++) {
        sb.append(r.nextInt(12) == 0 ? " comm 0x" : String.valueOf(alphabet.charAt(r.nextInt(alphabet.length()))));
      }
      byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
      int from = b.length == 0 ? 0 : r.nextInt(b.length);
      int to = from + r.nextInt(b.length - from + 1);
      assertThat(MessageParser.commAt(b, from, to)).as("%s [%d, %d)", sb, from, to)
          .isEqualTo(Bytes.indexOfSpaced(b, from, to, COMM));
    }
  }

  @Test
  void findsTheRealShapes() {
    byte[] b = Bytes.ascii("ncclCommInitRank comm 0x55d4a8 rank 0 nranks 16 cudaDev 0 busId 1000 - Init START");
    assertThat(MessageParser.commAt(b, 0, b.length)).isEqualTo(16);
    byte[] none = Bytes.ascii("transport/net_ib.cc:1426 -> 2 [Proxy Service 3] comm0x 0x1");
    assertThat(MessageParser.commAt(none, 0, none.length)).isEqualTo(-1);
  }

  private static int plainIndexOf(byte[] a, int from, int to, byte[] pat) {
    for (int i = from; i + pat.length <= to; i++) {
      if (java.util.Arrays.equals(a, i, i + pat.length, pat, 0, pat.length)) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void indexOfAnswersAsAPlainScanAtEveryOffsetAndLength() {
    byte[][] pats = {Bytes.ascii("NCCL "), Bytes.ascii("NN"), Bytes.ascii("N"), Bytes.ascii("comm 0x"),
        Bytes.ascii(" -> "), Bytes.ascii("CC"), Bytes.ascii("NCCL INFO")};
    String alphabet = "NCL IFOW.-> cm0x";
    Random r = new Random(5);
    for (int i = 0; i < 100_000; i++) {
      byte[] b = new byte[r.nextInt(70)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) alphabet.charAt(r.nextInt(alphabet.length()));
      }
      byte[] pat = pats[r.nextInt(pats.length)];
      int from = b.length == 0 ? 0 : r.nextInt(b.length);
      int to = from + r.nextInt(b.length - from + 1);
      assertThat(Bytes.indexOf(b, from, to, pat)).as("%s in %s [%d, %d)", new String(pat), new String(b), from, to)
          .isEqualTo(plainIndexOf(b, from, to, pat));
    }
  }
}
