package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;


/**
 * IPv4 peer addresses and pointers in message texts ("Connect to 10.4.7.21<43117> failed", "Got
 * completion from peer 10.4.7.21<43117> with error 12", "async fatal event on QP (0x55d0c1a2b3c4)").
 * A failing job prints such a line per peer, connection or queue pair, so nearly each one is a text
 * never seen before; what it means does not depend on which peer or object it names. A text is
 * asked for with them masked, so that one answer serves them all, unless that answer quotes digits
 * that may be the masks' (a detail that may hold the address itself: {@link #formServes}): then the
 * text's own answer is the one given.
 */
final class PeerAddresses {
  static final String MASK = "0.0.0.0";
  static final String PORT_MASK = "<0>";
  static final String POINTER_MASK = "0x0";
  private static final byte[] MASK_BYTES = Bytes.ascii(MASK);
  private static final byte[] PORT_MASK_BYTES = Bytes.ascii(MASK + PORT_MASK);
  private static final byte[] POINTER_MASK_BYTES = Bytes.ascii(POINTER_MASK);
  private static final byte[] ZERO_X = Bytes.ascii("0x");
  /** Hex digits a pointer has at least ("0x" and four): fewer could be a number NCCL prints so. */
  private static final int POINTER_DIGITS = 4;

  private PeerAddresses() {}

  /**
   * {@code msg} with each dotted-quad address (and its {@code <port>}) replaced by {@link #MASK}
   * (and {@link #PORT_MASK}) and each pointer ({@code 0x} and 4 or more hex digits, a word of its
   * own) by {@link #POINTER_MASK}; {@code msg} itself, the same object, when it holds none.
   */
  static String masked(String msg) {
    return masked(msg, false);
  }

  /**
   * {@link #masked} with other fills: the longest address and port, a 48-bit pointer. A meaning
   * read alike from a text masked both ways does not depend on what the masks hide (so it serves
   * every text of that masked form: {@link #formServes}).
   */
  static String maskedOtherwise(String msg) {
    return masked(msg, true);
  }

  private static String masked(String msg, boolean otherwise) {
    if (msg.indexOf('.') < 0 && msg.indexOf("0x") < 0) {
      return msg;
    }
    // scanned as Latin-1 bytes, one per char (a copy, not a decode: what C1 does fastest); a char
    // above 0xFF becomes '?', which no test below accepts, and the text is copied from msg itself
    byte[] s = msg.getBytes(StandardCharsets.ISO_8859_1);
    StringBuilder out = null;
    int copied = 0;
    for (long t = next(s, 0, 0, s.length); t >= 0; t = next(s, 0, end(t), s.length)) {
      if (out == null) {
        out = new StringBuilder(s.length);
      }
      out.append(msg, copied, start(t)).append(new String(otherwise ? otherMask(t) : mask(t), StandardCharsets.ISO_8859_1));
      copied = end(t);
    }
    return out == null ? msg : out.append(msg, copied, s.length).toString();
  }

  /**
   * {@link #masked} on the UTF-8 bytes b[from, to): the masked bytes written to {@code out} (at
   * least to - from long, a mask is never longer than what it replaces), their length returned; -1
   * when the text holds nothing to mask. Decoding them gives masked() of the decoded text: only
   * ASCII runs are replaced, and no byte of a multi-byte character is ASCII.
   */
  static int maskInto(byte[] b, int from, int to, byte[] out) {
    if (!Bytes.containsEither(b, from, to, (byte) '.', (byte) 'x')) {
      return -1; // most texts: one pass finds that neither an address nor a pointer can be there
    }
    int o = 0;
    int copied = from;
    for (long t = next(b, from, from, to); t >= 0; t = next(b, from, end(t), to)) {
      int start = start(t);
      System.arraycopy(b, copied, out, o, start - copied);
      o += start - copied;
      byte[] mask = mask(t);
      System.arraycopy(mask, 0, out, o, mask.length);
      o += mask.length;
      copied = end(t);
    }
    if (copied == from) {
      return -1;
    }
    System.arraycopy(b, copied, out, o, to - copied);
    return o + to - copied;
  }

  // a token found: start in bits 0-29, a port after the address in bit 30, end in 31-61, a pointer
  // in bit 62 (the sign bit stays clear: -1 is none); texts are far shorter than 2^30
  private static final int ADDRESS = 0;
  private static final int ADDRESS_PORT = 1;
  private static final int POINTER = 2;

  private static long token(int start, int end, int kind) {
    return start | (long) end << 31 | (long) (kind == POINTER ? 1 : 0) << 62 | (long) (kind == ADDRESS_PORT ? 1 : 0) << 30;
  }

  private static int start(long t) {
    return (int) (t & 0x3FFFFFFF);
  }

  private static int end(long t) {
    return (int) (t >>> 31 & 0x7FFFFFFF);
  }

  private static byte[] mask(long t) {
    return (t >>> 62 & 1) != 0 ? POINTER_MASK_BYTES : (t >>> 30 & 1) != 0 ? PORT_MASK_BYTES : MASK_BYTES;
  }

  private static final byte[] OTHER_MASK_BYTES = Bytes.ascii("255.255.255.255");
  private static final byte[] OTHER_PORT_MASK_BYTES = Bytes.ascii("255.255.255.255<65535>");
  private static final byte[] OTHER_POINTER_MASK_BYTES = Bytes.ascii("0xffffffffffff");

  private static byte[] otherMask(long t) {
    return (t >>> 62 & 1) != 0 ? OTHER_POINTER_MASK_BYTES : (t >>> 30 & 1) != 0 ? OTHER_PORT_MASK_BYTES : OTHER_MASK_BYTES;
  }

  /**
   * The first address or pointer in s[at, to), the text starting at {@code textStart}; -1 if none.
   * An address's first part is the 1-3 digits before a dot, a pointer starts with "0x": only dots
   * and that pair are looked for (by words), and what stands around each is checked.
   */
  private static long next(byte[] s, int textStart, int at, int to) {
    long address = -1;
    for (int dot = Bytes.indexOfByte(s, at, to, (byte) '.'); dot >= 0 && address < 0; ) {
      int i = dot;
      while (i > at && dot - i < 3 && isDigit(s[i - 1])) {
        i--;
      }
      int end = i < dot && (i == textStart || !isDigit(s[i - 1]) && s[i - 1] != '.') ? quadEnd(s, i, to) : -1;
      if (end >= 0) {
        int portEnd = portEnd(s, end, to);
        address = portEnd > end ? token(i, portEnd, ADDRESS_PORT) : token(i, end, ADDRESS);
      } else {
        dot = Bytes.indexOfByte(s, dot + 1, to, (byte) '.');
      }
    }
    int before = address < 0 ? to : start(address);
    // by the pair "0x", not by each 'x' (a text of many x's would try each)
    for (int z = Bytes.indexOf(s, at, before, ZERO_X); z >= 0; z = Bytes.indexOf(s, z + 1, before, ZERO_X)) {
      int end = pointerEnd(s, textStart, z, to);
      if (end >= 0) {
        return token(z, end, POINTER);
      }
    }
    return address;
  }

  /** End of a pointer "0x" + 4 or more hex digits at i, a word of its own; -1 if none is there. */
  private static int pointerEnd(byte[] s, int textStart, int i, int to) {
    if (s[i] != '0' || i > textStart && isWordByte(s[i - 1])) {
      return -1;
    }
    int at = i + 2;
    while (at < to && isHexDigit(s[at])) {
      at++;
    }
    return at - i - 2 >= POINTER_DIGITS && (at == to || !isWordByte(s[at])) ? at : -1;
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

  private static boolean isHexDigit(byte c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
  }

  /** A letter, a digit or '_': what a word is made of (a pointer stands on its own). */
  private static boolean isWordByte(byte c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * Whether the outcome {@code ofForm} of a masked text serves every text of that form, asked with
   * one such text, {@code original}: an outcome that quotes no digit cannot hold an address, else it
   * must read the same from the form masked otherwise ({@link #maskedOtherwise}). Asked once a form.
   */
  static boolean formServes(ErrorSignatures.Outcome ofForm, String original) {
    return !quotesDigits(ofForm) || sameOutcome(ofForm, ErrorSignatures.classify(maskedOtherwise(original)));
  }

  /**
   * The meaning of {@code msg} from {@code lookup} (a classification, or a memo of one), asked of its
   * masked form first where msg holds an address or a pointer: that form's meaning is the answer
   * where {@code serves} says it serves every text of the form (asked with msg), else msg's own.
   */
  static <T> T lookUp(String msg, Function<String, T> lookup, BiPredicate<T, String> serves) {
    String key = masked(msg);
    if (key != msg) {
      T form = lookup.apply(key);
      if (serves.test(form, msg)) {
        return form;
      }
    }
    return lookup.apply(msg);
  }

  /** Whether two outcomes say the same, field by field. */
  static boolean sameOutcome(ErrorSignatures.Outcome a, ErrorSignatures.Outcome b) {
    return a.kind() == b.kind() && Objects.equals(a.detail(), b.detail()) && Objects.equals(a.status(), b.status())
        && Objects.equals(a.pluginLoaded(), b.pluginLoaded()) && a.noVerbs() == b.noVerbs() && a.ibFailed() == b.ibFailed()
        && a.failure() == b.failure() && a.invalidRankOf() == b.invalidRankOf() && a.known() == b.known();
  }

  /** Whether a text the outcome was read from shows in it (where an address could be). */
  static boolean quotesDigits(ErrorSignatures.Outcome o) {
    return hasDigit(o.detail()) || hasDigit(o.pluginLoaded());
  }

  static boolean hasDigit(String s) {
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
