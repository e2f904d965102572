package dev.nccltriage.source.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Byte-level helpers for the log parser's hot path: no regex, no allocation. */
final class Bytes {
  private Bytes() {}

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  static long broadcast(byte b) {
    return (b & 0xFFL) * ONES;
  }

  /**
   * High bit set in each byte of {@code x} that is zero. Borrows can only mark bytes above a real
   * zero, so the lowest marked byte is always exact.
   */
  static long zeroBytes(long x) {
    return (x - ONES) & ~x & HIGHS;
  }

  /**
   * {@link #zeroBytes} without its mask of the high bits, for a pair's second byte: and-ed with the
   * first byte's masked test, it gives the same marks with one operation less a word.
   */
  static long zeroBytesUnmasked(long x) {
    return (x - ONES) & ~x;
  }

  /**
   * Index (0-7) of the lowest byte whose high bit is set in a mask built like {@link #zeroBytes}.
   * Long.numberOfTrailingZeros is not an intrinsic of C1 on Java 17 (the launcher runs C1 only),
   * and this multiply is: isolate the lowest bit (at 8k+7), move it to 8k, and let the multiply
   * carry the constant byte holding k into the top byte.
   */
  static int firstMarkedByte(long mask) {
    return (int) ((((mask & -mask) >>> 7) * 0x0001020304050607L) >>> 56);
  }

  private static final long LOWS7 = 0x7F7F7F7F7F7F7F7FL;

  /**
   * Whether [from, to) holds an odd number of {@code c}, eight bytes at a time: each word's exact
   * marks (no borrow between bytes, unlike {@link #zeroBytes}) are xor-ed together, and the
   * parity of all marks is that of the folded word's high bit.
   */
  static boolean oddCount(byte[] a, int from, int to, byte c) {
    long pat = broadcast(c);
    long parity = 0;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = word(a, i) ^ pat;
      parity ^= ~(((x & LOWS7) + LOWS7) | x | LOWS7);
    }
    parity ^= parity >>> 32;
    parity ^= parity >>> 16;
    parity ^= parity >>> 8;
    boolean odd = (parity & 0x80) != 0;
    for (; i < to; i++) {
      odd ^= a[i] == c;
    }
    return odd;
  }

  static long word(byte[] a, int i) {
    return (long) LONG.get(a, i);
  }

  /** Whether [from, to) holds a newline or an ESC byte (the bytes a line reader looks for). */
  static boolean hasNewlineOrEscape(byte[] a, int from, int to) {
    return containsEither(a, from, to, (byte) '\n', (byte) 0x1b);
  }

  /** First index of {@code b} in [from, to), eight bytes at a time; -1 if absent. */
  static int indexOfByte(byte[] a, int from, int to, byte b) {
    long pat = broadcast(b);
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long z = zeroBytes(word(a, i) ^ pat);
      if (z != 0) {
        return i + firstMarkedByte(z);
      }
    }
    for (; i < to; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** First index of {@code x} or {@code y} in [from, to), eight bytes at a time; -1 if neither is there. */
  static int indexOfEither(byte[] a, int from, int to, byte x, byte y) {
    long px = broadcast(x);
    long py = broadcast(y);
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long w = word(a, i);
      long z = zeroBytes(w ^ px) | zeroBytes(w ^ py); // each one's lowest mark is exact: so is theirs
      if (z != 0) {
        return i + firstMarkedByte(z);
      }
    }
    for (; i < to; i++) {
      if (a[i] == x || a[i] == y) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The end of the run of bytes above the space at s (none of them blank or a control byte; bytes
   * of 0x80 and above belong to the run), before max at most: eight bytes at a time.
   */
  static int wordEnd(byte[] a, int s, int max) {
    int i = s;
    for (; i + 8 <= max; i += 8) {
      long w = word(a, i);
      // bytes below 0x21 whose high bit is clear; a borrow marks only bytes above a real one
      long z = (w - BANGS) & ~w & HIGHS;
      if (z != 0) {
        return i + firstMarkedByte(z);
      }
    }
    while (i < max && (a[i] > ' ' || a[i] < 0)) {
      i++;
    }
    return i;
  }

  private static final long BANGS = 0x2121212121212121L;

  /**
   * As {@link #wordEnd}, but a byte of 0x80 and above ends the run too: the run of ASCII bytes
   * above the space ({@code b[i] > ' '} for a signed byte), eight bytes at a time.
   */
  static int asciiWordEnd(byte[] a, int s, int max) {
    int i = s;
    for (; i + 8 <= max; i += 8) {
      long w = word(a, i);
      // a byte below 0x21 borrows and one of 0x80 and above has its high bit: the lowest mark is exact
      long z = ((w - BANGS) | w) & HIGHS;
      if (z != 0) {
        return i + firstMarkedByte(z);
      }
    }
    while (i < max && a[i] > ' ') {
      i++;
    }
    return i;
  }

  /** Whether {@code x} or {@code y} is in [from, to): one pass, eight bytes at a time. */
  static boolean containsEither(byte[] a, int from, int to, byte x, byte y) {
    return indexOfEither(a, from, to, x, y) >= 0;
  }

  /**
   * First index of {@code pat} in [from, to), or -1. Candidates are the positions of its first two
   * bytes, found eight at a time (the word at i and the one a byte later): a message's common
   * letters ('N' of "NET/", 'c' of every other word) stop the search only where the second byte
   * matches too.
   */
  static int indexOf(byte[] a, int from, int to, byte[] pat) {
    int n = pat.length;
    if (n < 2) {
      return indexOfByte(a, from, Math.max(from, to - n + 1), pat[0]);
    }
    int last = to - n;
    long first = broadcast(pat[0]);
    long second = broadcast(pat[1]);
    int i = from;
    for (; i + 9 <= to && i <= last; i += 8) {
      long marks = zeroBytes(word(a, i) ^ first) & zeroBytesUnmasked(word(a, i + 1) ^ second);
      while (marks != 0) {
        int at = i + firstMarkedByte(marks);
        if (at > last) {
          return -1; // marks come in order: none after this one fits either
        }
        if (matchesAt(a, at, pat)) { // (a borrow may mark a position that is no such pair)
          return at;
        }
        marks &= marks - 1;
      }
    }
    for (; i <= last; i++) {
      if (a[i] == pat[0] && matchesAt(a, i, pat)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether one of {@code pats} is in [from, to). */
  static boolean holdsAny(byte[] a, int from, int to, byte[][] pats) {
    for (byte[] p : pats) {
      if (indexOf(a, from, to, p) >= 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesAt(byte[] a, int at, byte[] pat) {
    for (int j = 0; j < pat.length; j++) {
      if (a[at + j] != pat[j]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Index of " " + {@code word} in [from, to), or -1. Searched from the word's first byte: spaces
   * are the most common byte in a message, so a search that starts from one stops at every word.
   */
  static int indexOfSpaced(byte[] a, int from, int to, byte[] word) {
    int at = indexOf(a, from + 1, to, word);
    while (at >= 0 && a[at - 1] != ' ') {
      at = indexOf(a, at + 1, to, word);
    }
    return at < 0 ? -1 : at - 1;
  }

  /** Whether a[from, from+n) equals b[0, n), compared eight bytes at a time. */
  static boolean equal(byte[] a, int from, byte[] b, int n) {
    return equal(a, from, b, 0, n);
  }

  /** Whether a[from, from+n) equals b[bFrom, bFrom+n), compared eight bytes at a time. */
  static boolean equal(byte[] a, int from, byte[] b, int bFrom, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      if (word(a, from + i) != word(b, bFrom + i)) {
        return false;
      }
    }
    if (i < n && n >= 8) { // the tail as one word that overlaps the last compared one
      return word(a, from + n - 8) == word(b, bFrom + n - 8);
    }
    for (; i < n; i++) {
      if (a[from + i] != b[bFrom + i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a[pos, to) starts with {@code pat}. A pattern of eight bytes or more is compared a
   * word at a time (the last word overlapping the one before): C1 compiles a byte loop to two
   * bounds-checked loads a byte, and many calls are on a line that does start with the pattern.
   */
  static boolean startsWith(byte[] a, int pos, int to, byte[] pat) {
    int n = pat.length;
    if (pos < 0 || to - pos < n) {
      return false;
    }
    if (n >= 8) {
      return equal(a, pos, pat, 0, n);
    }
    for (int j = 0; j < n; j++) {
      if (a[pos + j] != pat[j]) {
        return false;
      }
    }
    return true;
  }

  static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  /** An ASCII letter, digit or underscore: a byte inside a word or a name. */
  static boolean isWordByte(byte b) {
    return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_';
  }

  /** Whether a word may start at {@code at} of a text that starts at {@code from}: no word byte before it. */
  static boolean wordStartsAt(byte[] a, int from, int at) {
    return at == from || !isWordByte(a[at - 1]);
  }

  /** Parses decimal digits at pos; returns -1 if none. Stops at the first non-digit. */
  static long parseLong(byte[] a, int pos, int to) {
    long v = 0;
    int i = pos;
    while (i < to && isDigit(a[i]) && i - pos < 18) {
      v = v * 10 + (a[i] - '0');
      i++;
    }
    return i == pos ? -1 : v;
  }

  /** The digits at pos as an int; -1 when there are none or the number does not fit an int. */
  static int parseInt(byte[] a, int pos, int to) {
    long v = parseLong(a, pos, to);
    return v > Integer.MAX_VALUE ? -1 : (int) v;
  }

  /** A decimal that fits an int, else null (an out-of-range number is an unknown value, not an error). */
  static Integer intOrNull(String digits) {
    if (digits == null || digits.isEmpty() || digits.length() > 10) {
      return null;
    }
    long v = Long.parseLong(digits);
    return v > Integer.MAX_VALUE ? null : (int) v;
  }

  /** The start of the run of digits that ends at {@code end} (exclusive), not before {@code from}. */
  static int skipDigitsBack(byte[] a, int from, int end) {
    int i = end;
    while (i > from && isDigit(a[i - 1])) {
      i--;
    }
    return i;
  }

  static int skipDigits(byte[] a, int pos, int to) {
    while (pos < to && isDigit(a[pos])) {
      pos++;
    }
    return pos;
  }

  static String latin1(byte[] a, int from, int to) {
    return new String(a, from, to - from, StandardCharsets.ISO_8859_1);
  }

  /** Decodes as UTF-8, replacing invalid sequences, for text shown to people. */
  static String text(byte[] a, int from, int to) {
    return new String(a, from, to - from, StandardCharsets.UTF_8);
  }

  static int trimEnd(byte[] a, int from, int to) {
    while (to > from && (a[to - 1] == ' ' || a[to - 1] == '\t' || a[to - 1] == '\r')) {
      to--;
    }
    return to;
  }
}
