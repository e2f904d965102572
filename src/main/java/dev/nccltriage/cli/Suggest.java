package dev.nccltriage.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** The names nearest to a misspelt one: optimal string alignment distance, swaps counting one. */
final class Suggest {
  private Suggest() {}

  /** Names within 1 edit (2 for names of five letters or more) of {@code typed}, nearest first. */
  static List<String> nearest(String typed, Collection<String> names) {
    String t = typed.toLowerCase(Locale.ROOT);
    if (t.length() > 40) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (int limit = 0; limit <= 2 && out.isEmpty(); limit++) {
      for (String n : names) {
        if (distance(t, n) == limit && (limit < 2 || n.length() >= 5)) {
          out.add(n);
        }
      }
    }
    return out;
  }

  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
