package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * IPv4 peer addresses in message texts ("Connect to 10.4.7.21<43117> failed", "Got completion from
 * peer 10.4.7.21<43117> with error 12"). A failing job prints such a line per peer and connection,
 * so nearly each one is a text never seen before; what it means does not depend on which peer it
 * names. {@link #lookUp} asks for the text with its addresses masked, so that one answer serves
 * them all, unless that answer quotes digits (a detail that may hold the address itself): then
 * the text's own answer is the one given.
 */
final class PeerAddresses {
  static final String MASK = "0.0.0.0";

  private PeerAddresses() {}

  /**
   * {@code msg} with each dotted-quad address (and its {@code <port>}) replaced by {@link #MASK}
   * (and {@code <0>}); {@code msg} itself, the same object, when it holds none.
   */
  static String masked(String msg) {
    int dot = msg.indexOf('.');
    if (dot < 0) {
      return msg;
    }
    // scanned as Latin-1 bytes, one per char (a copy, not a decode: what C1 does fastest); a char
    // above 0xFF becomes '?', which no test below accepts, and the text is copied from msg itself
    byte[] s = msg.getBytes(StandardCharsets.ISO_8859_1);
    StringBuilder out = null;
    int copied = 0;
    int n = s.length;
    for (int i = Math.max(0, dot - 3); i < n; i++) {
      if (!isDigit(s[i]) || i > 0 && (isDigit(s[i - 1]) || s[i - 1] == '.')) {
        continue;
      }
      int end = quadEnd(s, i, n);
      if (end < 0) {
        continue;
      }
      int portEnd = portEnd(s, end, n);
      if (out == null) {
        out = new StringBuilder(n);
      }
      out.append(msg, copied, i).append(MASK);
      if (portEnd > end) {
        out.append("<0>");
        end = portEnd;
      }
      copied = end;
      i = end - 1;
    }
    return out == null ? msg : out.append(msg, copied, n).toString();
  }

  /**
   * {@link #masked} on the UTF-8 bytes b[from, to): the masked bytes written to {@code out} (at
   * least to - from long, a mask is never longer than what it replaces), their length returned; -1
   * when the text holds no address. Decoding them gives masked() of the decoded text: only ASCII
   * runs are replaced, and no byte of a multi-byte character is ASCII.
   */
  static int maskInto(byte[] b, int from, int to, byte[] out) {
    // an address's first part is the 1-3 digits before a dot: only dots are looked for (by words),
    // and the digits before each; masked() tries every digit, to the same effect
    int o = 0;
    int copied = from;
    for (int dot = Bytes.indexOfByte(b, from, to, (byte) '.'); dot >= 0; ) {
      int i = dot;
      while (i > from && dot - i < 3 && isDigit(b[i - 1])) {
        i--;
      }
      int end = i < dot && !(i > from && (isDigit(b[i - 1]) || b[i - 1] == '.')) ? quadEnd(b, i, to) : -1;
      if (end < 0) {
        dot = Bytes.indexOfByte(b, dot + 1, to, (byte) '.');
        continue;
      }
      int portEnd = portEnd(b, end, to);
      System.arraycopy(b, copied, out, o, i - copied);
      o += i - copied;
      o = put(out, o, MASK_BYTES);
      if (portEnd > end) {
        o = put(out, o, PORT_MASK_BYTES);
        end = portEnd;
      }
      copied = end;
      dot = Bytes.indexOfByte(b, end, to, (byte) '.');
    }
    if (copied == from) {
      return -1;
    }
    System.arraycopy(b, copied, out, o, to - copied);
    return o + to - copied;
  }

  private static final byte[] MASK_BYTES = Bytes.ascii(MASK);
  private static final byte[] PORT_MASK_BYTES = Bytes.ascii("<0>");

  private static int put(byte[] out, int o, byte[] what) {
    System.arraycopy(what, 0, out, o, what.length);
    return o + what.length;
  }

  /** End of "d.d.d.d" (1-3 digits each) starting at i, not followed by another digit or ".digit"; -1 if none. */
  private static int quadEnd(byte[] s, int i, int n) {
    int at = i;
    for (int part = 0; part < 4; part++) {
      if (part > 0) {
        if (at >= n || s[at] != '.') {
          return -1;
        }
        at++;
      }
      int start = at;
      while (at < n && isDigit(s[at]) && at - start < 4) {
        at++;
      }
      if (at == start || at - start > 3) {
        return -1;
      }
    }
    boolean longer = at < n && (isDigit(s[at]) || s[at] == '.' && at + 1 < n && isDigit(s[at + 1]));
    return longer ? -1 : at;
  }

  /** End of "<digits>" at i, or i if there is none. */
  private static int portEnd(byte[] s, int i, int n) {
    if (i >= n || s[i] != '<') {
      return i;
    }
    int at = i + 1;
    while (at < n && isDigit(s[at])) {
      at++;
    }
    return at > i + 1 && at < n && s[at] == '>' ? at + 1 : i;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * The meaning of {@code msg} from {@code lookup} (the classification itself, or a memo of it),
   * asked of the masked text first where msg holds an address.
   */
  static <T> T lookUp(String msg, Function<String, T> lookup, Function<T, ErrorSignatures.Outcome> outcome) {
    String key = masked(msg);
    if (key != msg) {
      T t = lookup.apply(key);
      if (!quotesDigits(outcome.apply(t))) {
        return t;
      }
    }
    return lookup.apply(msg);
  }

  /** Whether a text the outcome was read from shows in it (where an address could be). */
  static boolean quotesDigits(ErrorSignatures.Outcome o) {
    return hasDigit(o.detail()) || hasDigit(o.pluginLoaded());
  }

  private static boolean hasDigit(String s) {
    if (s != null) {
      for (int i = 0; i < s.length(); i++) {
        if (isDigit(s.charAt(i))) {
          return true;
        }
      }
    }
    return false;
  }
}
