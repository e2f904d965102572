package dev.nccltriage.source.k8s;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines {@link BlockYaml} read from its resume point on: evidence of the object being handed
 * on is among them, and on a decline the full parser reads them again.
 */
final class HeldLines {
  private final List<String> held = new ArrayList<>();
  private int first = 1;
  private long chars;

  void add(String line) {
    held.add(line);
    chars += line.length() + 1;
  }

  /** The characters held, newlines counted. */
  long chars() {
    return chars;
  }

  /** The number of the first line held. */
  int first() {
    return first;
  }

  /** Line {@code n}'s text; "" when it is not held. */
  String line(int n) {
    int i = n - first;
    return i >= 0 && i < held.size() ? held.get(i) : "";
  }

  /** Forgets the lines before line {@code n}: what was in them is handed on. */
  void dropBefore(int n) {
    int k = Math.min(Math.max(0, n - first), held.size());
    for (int i = 0; i < k; i++) {
      chars -= held.get(i).length() + 1;
    }
    held.subList(0, k).clear();
    first += k;
  }

  /** {@code head} and the lines held, the last without a newline if the input's last line had none. */
  StringBuilder text(String head, boolean lastHadNewline) {
    StringBuilder text = new StringBuilder(head);
    for (int i = 0; i < held.size(); i++) {
      text.append(held.get(i));
      if (i < held.size() - 1 || lastHadNewline) {
        text.append('\n');
      }
    }
    return text;
  }
}
