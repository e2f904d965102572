package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PeerAddresses' one pass over a text finds the tokens that a plain search for each kind in turn
 * finds (the first address by its dots, a pointer before it by its "0x", a long number before
 * both): on texts made of the bytes that decide, in every order. What makes a token (its end) is
 * PeerAddresses' own; the order the tokens are found in is the model's.
 */
class PeerAddressesModelTest {
  private static final byte[] ALPHABET = "0123456789..........xxx<<>>  af_z-".getBytes(StandardCharsets.US_ASCII);

  @Test
  void onePassFindsWhatTheSearchesFind() {
    Random r = new Random(17);
    int masked = 0;
    for (int n = 0; n < 300_000; n++) {
      byte[] b = new byte[1 + r.nextInt(40)];
      for (int i = 0; i < b.length; i++) {
        b[i] = ALPHABET[r.nextInt(ALPHABET.length)];
      }
      String text = new String(b, StandardCharsets.US_ASCII);
      String expected = model(b);
      assertThat(PeerAddresses.masked(text)).as(text).isEqualTo(expected);
      masked += expected.equals(text) ? 0 : 1;
    }
    assertThat(masked).isGreaterThan(20_000);
  }

  /** The masked text as the searches of each kind find its tokens, one after another. */
  private static String model(byte[] s) {
    StringBuilder out = new StringBuilder();
    int copied = 0;
    for (long[] t = next(s, 0); t != null; t = next(s, (int) t[1])) {
      out.append(new String(s, copied, (int) t[0] - copied, StandardCharsets.US_ASCII));
      int len = (int) (t[1] - t[0]);
      out.append(switch ((int) t[2]) {
        case 0 -> "0.0.0.0";
        case 1 -> "0.0.0.0<0>";
        case 2 -> "0x0";
        default -> "0000";
      });
      copied = (int) t[1];
    }
    return out.append(new String(s, copied, s.length - copied, StandardCharsets.US_ASCII)).toString();
  }

  /** {start, end, kind}: 0 address, 1 address and port, 2 pointer, 3 number; null if none. */
  private static long[] next(byte[] s, int at) {
    int to = s.length;
    long[] address = null;
    for (int dot = indexOf(s, at, to, '.'); dot >= 0 && address == null; ) {
      int i = dot;
      while (i > at && dot - i < 3 && isDigit(s[i - 1])) {
        i--;
      }
      int end = i < dot && (i == 0 || !isDigit(s[i - 1]) && s[i - 1] != '.') ? PeerAddresses.quadEnd(s, i, to) : -1;
      if (end >= 0) {
        int portEnd = PeerAddresses.portEnd(s, end, to);
        address = portEnd > end ? new long[] {i, portEnd, 1} : new long[] {i, end, 0};
      } else {
        dot = indexOf(s, dot + 1, to, '.');
      }
    }
    int before = address == null ? to : (int) address[0];
    long[] found = address;
    for (int z = indexOfZeroX(s, at, before); z >= 0; z = indexOfZeroX(s, z + 1, before)) {
      int end = PeerAddresses.pointerEnd(s, 0, z, to);
      if (end >= 0) {
        found = new long[] {z, end, 2};
        before = z;
        break;
      }
    }
    for (int i = at; i < before; i++) {
      if (isDigit(s[i])) {
        int end = i + 1;
        while (end < to && isDigit(s[end])) {
          end++;
        }
        if (end - i >= PeerAddresses.NUMBER_DIGITS) {
          return new long[] {i, end, 3};
        }
        i = end;
      }
    }
    return found;
  }

  private static int indexOf(byte[] s, int from, int to, char c) {
    for (int i = from; i < to; i++) {
      if (s[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static int indexOfZeroX(byte[] s, int from, int to) {
    for (int i = from; i + 1 < to; i++) {
      if (s[i] == '0' && s[i + 1] == 'x') {
        return i;
      }
    }
    return -1;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }
}
