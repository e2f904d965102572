package dev.nccltriage.facts;

import java.util.Comparator;

/**
 * Orders names as people count them: mlx5_6 before mlx5_15, ibp9s0 before ibp12s0. Runs of ASCII
 * digits compare by value (by length once leading zeros are gone, then digit by digit, so a run of
 * any length never overflows); other characters compare as chars. Names equal by value but
 * spelled differently (mlx5_06, mlx5_6) fall back to plain string order, so the order is total and
 * agrees with equals.
 */
public final class NaturalOrder implements Comparator<String> {
  public static final NaturalOrder INSTANCE = new NaturalOrder();

  private NaturalOrder() {}

  @Override
  public int compare(String a, String b) {
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
