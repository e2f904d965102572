package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;


/**
 * IPv4 peer addresses, pointers and long numbers in message texts ("Connect to 10.4.7.21<43117>
 * failed", "async fatal event on QP (0x55d0c1a2b3c4)", "Got completion from peer 10.4.7.21<43117>
 * with status=5 opcode=32656 len=32659"). A failing job prints such a line per peer, connection,
 * queue pair or request (a failed completion's opcode and length are whatever the work completion
 * held), so nearly each one is a text never seen before; what it means rarely depends on which peer,
 * object or size it names. A text is asked for with them masked, so that one answer serves them all,
 * unless that answer reads differently from the text masked otherwise (a detail that holds the
 * address itself, a rank or a result read from a masked number: {@link #formServes}): then the
 * text's own answer is the one given.
 */
final class PeerAddresses {
  static final String MASK = "0.0.0.0";
  static final String PORT_MASK = "<0>";
  static final String POINTER_MASK = "0x0";
  private static final byte[] MASK_BYTES = Bytes.ascii(MASK);
  private static final byte[] PORT_MASK_BYTES = Bytes.ascii(MASK + PORT_MASK);
  private static final byte[] POINTER_MASK_BYTES = Bytes.ascii(POINTER_MASK);
  /** Hex digits a pointer has at least ("0x" and four): fewer could be a number NCCL prints so. */
  private static final int POINTER_DIGITS = 4;

  private PeerAddresses() {}

  /**
   * {@code msg} with each dotted-quad address (and its {@code <port>}) replaced by {@link #MASK}
   * (and {@link #PORT_MASK}), each pointer ({@code 0x} and 4 or more hex digits, a word of its
   * own) by {@link #POINTER_MASK} and each other run of {@link #NUMBER_DIGITS} digits or more by
   * {@link #NUMBER_MASK}; {@code msg} itself, the same object, when it holds none.
   */
  static String masked(String msg) {
    return masked(msg, false);
  }

  /**
   * {@link #masked} with other fills: the longest address and port, a 48-bit pointer, nines. A meaning
   * read alike from a text masked both ways does not depend on what the masks hide (so it serves
   * every text of that masked form: {@link #formServes}).
   */
  static String maskedOtherwise(String msg) {
    return masked(msg, true);
  }

  private static String masked(String msg, boolean otherwise) {
    if (msg.indexOf('.') < 0 && msg.indexOf("0x") < 0 && !hasLongNumber(msg)) {
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
      out.append(msg, copied, start(t));
      if (isNumber(t)) {
        out.append(otherwise ? NUMBER_OTHER_MASK : NUMBER_MASK);
      } else {
        out.append(new String(otherwise ? otherMask(t) : mask(t), StandardCharsets.ISO_8859_1));
      }
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
    int o = 0;
    int copied = from;
    for (long t = next(b, from, from, to); t >= 0; t = next(b, from, end(t), to)) {
      int start = start(t);
      System.arraycopy(b, copied, out, o, start - copied);
      o += start - copied;
      if (isNumber(t)) {
        java.util.Arrays.fill(out, o, o + NUMBER_DIGITS, (byte) '0');
        o += NUMBER_DIGITS;
      } else {
        byte[] mask = mask(t);
        System.arraycopy(mask, 0, out, o, mask.length);
        o += mask.length;
      }
      copied = end(t);
    }
    if (copied == from) {
      return -1;
    }
    System.arraycopy(b, copied, out, o, to - copied);
    return o + to - copied;
  }

  // a token found: start in bits 0-29, a port after the address in bit 30, end in 31-61, a pointer
  // in bit 62, a number both (the sign bit stays clear: -1 is none); texts are far shorter than 2^30
  private static final int ADDRESS = 0;
  private static final int ADDRESS_PORT = 1;
  private static final int POINTER = 2;
  private static final int NUMBER = 3;
  /**
   * Digits a number has at least to be masked: sizes, lengths, ids, process ids, a completion's
   * garbage opcode. Fewer are left as they are: a status, an errno, a result or a small rank is what
   * a text's meaning may quote (and a form that would vary with them would not serve anyway).
   */
  static final int NUMBER_DIGITS = 4;
  /**
   * A long number's mask, whatever its length: a failed completion's length and opcode are garbage
   * of 4 to 10 digits, and a mask of as many zeros made as many forms of one text, each classified.
   */
  static final String NUMBER_MASK = "0".repeat(NUMBER_DIGITS);
  private static final String NUMBER_OTHER_MASK = "9".repeat(NUMBER_DIGITS);

  private static long token(int start, int end, int kind) {
    return start | (long) end << 31 | (long) (kind == POINTER || kind == NUMBER ? 1 : 0) << 62
        | (long) (kind == ADDRESS_PORT || kind == NUMBER ? 1 : 0) << 30;
  }

  private static boolean isNumber(long t) {
    return (t >>> 62 & 1) != 0 && (t >>> 30 & 1) != 0;
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
   * The first address, pointer or long number in s[at, to), the text starting at {@code textStart};
   * -1 if none. One pass over the bytes: each starts with a digit that follows no digit (an address
   * no dot either, a pointer no word byte), which is all that is looked at closer.
   */
  private static long next(byte[] s, int textStart, int at, int to) {
    for (int i = at; i < to; i++) {
      // to the next digit, eight bytes a step: a byte x ^ '0' below 10 is one (the lowest marked
      // byte of a word is exact: a borrow only runs upwards)
      while (i + 8 <= to) {
        long x = Bytes.word(s, i) ^ ZEROS;
        long digits = (x - TENS) & ~x & HIGHS;
        if (digits != 0) {
          i += Bytes.firstMarkedByte(digits); // (Long.numberOfTrailingZeros is no C1 intrinsic on Java 17)
          break;
        }
        i += 8;
      }
      if (i >= to) {
        break;
      }
      if (!isDigit(s[i])) {
        continue;
      }
      byte before = i == textStart ? (byte) ' ' : s[i - 1];
      if (isDigit(before)) {
        continue; // inside a run that started before at: none does (tokens end before a non-digit)
      }
      // the run of digits read once: most runs are a number followed by no dot, which quadEnd
      // would read again only to fail at its first part
      int end = i + 1;
      while (end < to && isDigit(s[end])) {
        end++;
      }
      if (end - i <= 3 && end < to && s[end] == '.' && before != '.') {
        int quad = quadEnd(s, i, to);
        if (quad >= 0) {
          int portEnd = portEnd(s, quad, to);
          return portEnd > quad ? token(i, portEnd, ADDRESS_PORT) : token(i, quad, ADDRESS);
        }
      }
      if (end == i + 1 && s[i] == '0' && end < to && s[end] == 'x') {
        int pointer = pointerEnd(s, textStart, i, to);
        if (pointer >= 0) {
          return token(i, pointer, POINTER);
        }
      }
      if (end - i >= NUMBER_DIGITS) {
        return token(i, end, NUMBER);
      }
      i = end; // a non-digit (or the end): no token starts there
    }
    return -1;
  }

  private static final long ZEROS = Bytes.broadcast((byte) '0');
  private static final long TENS = Bytes.broadcast((byte) 10);
  private static final long HIGHS = 0x8080808080808080L;

  private static boolean hasLongNumber(String msg) {
    int run = 0;
    for (int i = 0; i < msg.length(); i++) {
      run = isDigit(msg.charAt(i)) ? run + 1 : 0;
      if (run >= NUMBER_DIGITS) {
        return true;
      }
    }
    return false;
  }

  /** End of a pointer "0x" + 4 or more hex digits at i, a word of its own; -1 if none is there. */
  static int pointerEnd(byte[] s, int textStart, int i, int to) {
    if (s[i] != '0' || i > textStart && Bytes.isWordByte(s[i - 1])) {
      return -1;
    }
    int at = i + 2;
    while (at < to && isHexDigit(s[at])) {
      at++;
    }
    return at - i - 2 >= POINTER_DIGITS && (at == to || !Bytes.isWordByte(s[at])) ? at : -1;
  }

  /** End of "d.d.d.d" (1-3 digits each) starting at i, not followed by another digit or ".digit"; -1 if none. */
  static int quadEnd(byte[] s, int i, int n) {
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
  static int portEnd(byte[] s, int i, int n) {
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

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * Whether the outcome {@code ofForm} of a masked text serves every text of that form, asked with
   * one such text, {@code original}: it must read the same from the form masked otherwise ({@link
   * #maskedOtherwise}: a detail that quotes what a mask hid, or a value read from a masked number,
   * such as a result that is success at 0, reads otherwise there). Asked once a form.
   */
  static boolean formServes(ErrorSignatures.Outcome ofForm, String original) {
    return sameOutcome(ofForm, ErrorSignatures.classify(maskedOtherwise(original)));
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
}
