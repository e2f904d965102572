package dev.nccltriage.facts;

import java.util.Comparator;

/**
 * Orders names as people count them: mlx5_6 before mlx5_15, ibp9s0 before ibp12s0. Runs of ASCII
 * digits compare by value (by length once leading zeros are gone, then digit by digit, so a run of
 * any length never overflows); other characters compare as chars. Names equal by value but
 * spelled differently (mlx5_06, mlx5_6) fall back to plain string order, so the order is total and
 * agrees with equals.
 *
 * <p>PCI addresses ({@code 0000:2a:00.0}, as in {@code /proc/driver/nvidia/gpus}) are hexadecimal: read
 * as decimal runs, bus 2a would come before bus 18. They compare by domain, bus, device and function
 * instead, and come before every other name, so that a folder holding both still has one total order.
 */
public final class NaturalOrder implements Comparator<String> {
  public static final NaturalOrder INSTANCE = new NaturalOrder();

  private NaturalOrder() {}

  @Override
  public int compare(String a, String b) {
    long pa = pciAddress(a);
    long pb = pciAddress(b);
    if (pa >= 0 || pb >= 0) {
      if (pa < 0 || pb < 0) {
        return pa >= 0 ? -1 : 1;
      }
      return pa != pb ? Long.compare(pa, pb) : a.compareTo(b);
    }
    return natural(a, b);
  }

  private static int natural(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (digit(ca) && digit(cb)) {
        int ea = runEnd(a, i);
        int eb = runEnd(b, j);
        int sa = skipZeros(a, i, ea);
        int sb = skipZeros(b, j, eb);
        int byLength = Integer.compare(ea - sa, eb - sb);
        if (byLength != 0) {
          return byLength;
        }
        for (int k = 0; k < ea - sa; k++) {
          int d = Character.compare(a.charAt(sa + k), b.charAt(sb + k));
          if (d != 0) {
            return d;
          }
        }
        i = ea;
        j = eb;
      } else {
        if (ca != cb) {
          return Character.compare(ca, cb);
        }
        i++;
        j++;
      }
    }
    int rest = Integer.compare(a.length() - i, b.length() - j);
    return rest != 0 ? rest : a.compareTo(b);
  }

  /**
   * A PCI address {@code DDDD:BB:DD.F} (domain of 4 to 8 hex digits, either case) as one number that
   * orders like the address, or -1 for any other text.
   */
  static long pciAddress(String s) {
    int n = s.length();
    int domain = n - 8; // ":BB:DD.F" after it
    if (domain < 4 || domain > 8 || s.charAt(domain) != ':' || s.charAt(n - 5) != ':' || s.charAt(n - 2) != '.') {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < n; i++) {
      if (i == domain || i == n - 5 || i == n - 2) {
        continue;
      }
      int d = Character.digit(s.charAt(i), 16);
      if (d < 0 || s.charAt(i) > 'f') {
        return -1;
      }
      v = v << 4 | d;
    }
    return v;
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  private static int runEnd(String s, int from) {
    int e = from;
    while (e < s.length() && digit(s.charAt(e))) {
      e++;
    }
    return e;
  }

  private static int skipZeros(String s, int from, int end) {
    int z = from;
    while (z < end - 1 && s.charAt(z) == '0') {
      z++;
    }
    return z;
  }
}
