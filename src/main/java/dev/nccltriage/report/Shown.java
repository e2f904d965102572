package dev.nccltriage.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Values from the input as a report shows them: whole up to a length and a count that no real log
 * or host reaches, cut past that. A hostile line's 60 KB interface name, or 3000 HCAs, would
 * otherwise fill the screen or the Markdown summary.
 */
final class Shown {
  static final int VALUE_MAX = 120;
  static final int LIST_MAX = 32;

  private Shown() {}

  /** The value, cut past {@link #VALUE_MAX} characters with an ellipsis. */
  static String value(String s) {
    return s == null || s.length() <= VALUE_MAX ? s : s.substring(0, VALUE_MAX - 1) + "…";
  }

  /** The values, each cut, joined by {@code sep}; past {@link #LIST_MAX}, how many more. */
  static String list(List<String> values, String sep) {
    List<String> shown = new ArrayList<>();
    for (int i = 0; i < Math.min(LIST_MAX, values.size()); i++) {
      shown.add(value(values.get(i)));
    }
    return String.join(sep, shown) + (values.size() > LIST_MAX ? " (+" + (values.size() - LIST_MAX) + " more)" : "");
  }
}
