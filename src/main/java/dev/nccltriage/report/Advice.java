package dev.nccltriage.report;

import dev.nccltriage.rules.Verdict;
import java.util.List;

/** What the reports for people list under "Advice". */
final class Advice {
  private Advice() {}

  /**
   * The verdict's advice less the text its "What would decide" section already shows: an
   * inconclusive verdict's first advice is that text (JSON keeps both fields for scripts).
   */
  static List<String> beyondProbe(Verdict v) {
    return v.probe() == null ? v.advice() : v.advice().stream().filter(a -> !a.equals(v.probe())).toList();
  }
}
