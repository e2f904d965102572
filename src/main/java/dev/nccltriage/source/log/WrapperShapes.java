package dev.nccltriage.source.log;

import java.util.HashSet;
import java.util.Set;

/**
 * The shapes of the wrappers no table knows that a log's NCCL lines had between the known wrappers
 * and NCCL's host (stern's {@code POD CONTAINER }, docker compose's {@code SERVICE  | }, grep -H's
 * file name, pdsh's host; {@link UnknownWrappers}), as a set: a run of digits or of blanks stands
 * for a run of any length (a Pod's ordinal, a padded column). Every unit notes each wrapper of its
 * own lines (its prefix cache starts empty), so the set of a whole input does not depend on how it
 * was cut. Past {@link #MAX} shapes the set answers no to every question (which shapes came first
 * would depend on the cut).
 */
final class WrapperShapes {
  static final int MAX = 64;
  private final Set<String> shapes = new HashSet<>();
  private boolean overflow;

  /** Notes the wrapper b[from, to). */
  void add(byte[] b, int from, int to) {
    add(normal(b, from, to));
  }

  private void add(String shape) {
    if (overflow || shapes.contains(shape)) {
      return;
    }
    if (shapes.size() == MAX) {
      overflow = true;
      shapes.clear();
    } else {
      shapes.add(shape);
    }
  }

  void addAll(WrapperShapes o) {
    if (o.overflow) {
      overflow = true;
      shapes.clear();
    }
    o.shapes.forEach(this::add);
  }

  /** Whether a wrapper of that shape ({@link #normal}) stood before NCCL's lines. */
  boolean has(String shape) {
    return !overflow && shapes.contains(shape);
  }

  /** A hash of b[from, to)'s shape ({@link #normal}), made without a String. */
  static int hash(byte[] b, int from, int to) {
    int h = 1;
    char run = 0;
    for (int i = from; i < to; i++) {
      byte c = b[i];
      char r = runOf(c);
      if (r == 0 || r != run) {
        h = 31 * h + (r == 0 ? c : r);
      }
      run = r;
    }
    return h;
  }

  /** Whether b[from, to) is of that shape ({@link #normal}), read without making a String. */
  static boolean isShape(String shape, byte[] b, int from, int to) {
    int j = 0;
    char run = 0;
    for (int i = from; i < to; i++) {
      byte c = b[i];
      char r = runOf(c);
      if (r == 0 || r != run) {
        if (j == shape.length() || shape.charAt(j++) != (r == 0 ? (char) (c & 0xFF) : r)) {
          return false;
        }
      }
      run = r;
    }
    return j == shape.length();
  }

  /** The run a byte belongs to: '0' a digit, ' ' a blank, 0 neither (it stands for itself). */
  private static char runOf(byte c) {
    return Bytes.isDigit(c) ? '0' : c == ' ' || c == '\t' ? ' ' : 0;
  }

  /** b[from, to) with each run of digits as one '0' and each run of blanks as one space. */
  static String normal(byte[] b, int from, int to) {
    StringBuilder s = new StringBuilder(to - from);
    char run = 0; // the run the last byte was in: '0' digits, ' ' blanks
    for (int i = from; i < to; i++) {
      byte c = b[i];
      char r = runOf(c);
      if (r == 0) {
        s.append((char) (c & 0xFF));
      } else if (r != run) {
        s.append(r);
      }
      run = r;
    }
    return s.toString();
  }
}
