package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;

/** Byte-level helpers for the log parser's hot path: no regex, no allocation. */
final class Bytes {
  private Bytes() {}

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  static int indexOf(byte[] a, int from, int to, byte[] pat) {
    int last = to - pat.length;
    byte first = pat[0];
    outer:
    for (int i = from; i <= last; i++) {
      if (a[i] != first) {
        continue;
      }
      for (int j = 1; j < pat.length; j++) {
        if (a[i + j] != pat[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  static int lastIndexOf(byte[] a, int from, int to, byte[] pat) {
    for (int i = to - pat.length; i >= from; i--) {
      if (startsWith(a, i, to, pat)) {
        return i;
      }
    }
    return -1;
  }

  static boolean startsWith(byte[] a, int pos, int to, byte[] pat) {
    if (pos < 0 || to - pos < pat.length) {
      return false;
    }
    for (int j = 0; j < pat.length; j++) {
      if (a[pos + j] != pat[j]) {
        return false;
      }
    }
    return true;
  }

  static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
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
