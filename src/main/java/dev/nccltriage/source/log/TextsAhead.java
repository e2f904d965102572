package dev.nccltriage.source.log;

import java.util.Arrays;

/**
 * Whether one of a fixed set of texts occurs in a line at or after a position, asked for many
 * positions of one line. Each exception name in a line asks whether NCCL's error text follows it:
 * searched from there to the line's end each time, a hostile line made of such names was quadratic
 * (a 64 KiB line of "Error: " took 0.4 s). Each text's next occurrence is kept instead, so the
 * questions of a line, asked at rising positions, search each of its bytes once per text.
 *
 * <p>Kept for the line [.., e) of a buffer until {@link #forget}: a reader refills its buffer, so a
 * new line may end at the same index of the same array; the parser forgets at each line.
 */
final class TextsAhead {
  private final byte[][] texts;
  // texts[k]'s first occurrence at or after searchedFrom[k] (-1: none from there to the line's end)
  private final int[] next;
  private final int[] searchedFrom;
  private byte[] of;
  private int end;
  // what the answers so far tell of the whole set: one of the texts starts at foundAt (-1: none
  // known), none starts at or after noneFrom
  private int foundAt;
  private int noneFrom;

  TextsAhead(byte[][] texts) {
    this.texts = texts;
    this.next = new int[texts.length];
    this.searchedFrom = new int[texts.length];
  }

  /** Drops what was found: the next question is about another line. */
  void forget() {
    of = null;
  }

  /** Whether one of the texts is in [at, e) of b, e the end of the line asked about since {@link #forget}. */
  boolean anyFrom(byte[] b, int at, int e) {
    if (of != b || end != e) {
      of = b;
      end = e;
      Arrays.fill(searchedFrom, Integer.MAX_VALUE);
      foundAt = -1;
      noneFrom = Integer.MAX_VALUE;
    }
    if (at <= foundAt) {
      return true;
    }
    if (at >= noneFrom) {
      return false;
    }
    for (int k = 0; k < texts.length; k++) {
      int n = next[k];
      if (searchedFrom[k] == Integer.MAX_VALUE || (n >= 0 ? n < at : at < searchedFrom[k])) {
        // not asked yet, or found before this position, or searched only from after it
        n = Bytes.indexOf(b, at, e, texts[k]);
        searchedFrom[k] = at;
        next[k] = n;
      }
      if (n >= at) {
        foundAt = Math.max(foundAt, n);
        return true;
      }
    }
    noneFrom = at;
    return false;
  }
}
