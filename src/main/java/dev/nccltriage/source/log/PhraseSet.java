package dev.nccltriage.source.log;

/**
 * Which of up to 64 fixed phrases occur in a line, in one pass. Searched one by one, two dozen
 * phrases were two dozen passes over each failure line of a failing job ({@link FrameworkFailures}:
 * a framework's watchdog lines, 300 bytes each, read at 140 MB/s). Here each phrase is anchored on
 * its first byte of a class rare in text (a capital letter, '(', 'x', 'f', 'b', 'k'); the line is
 * read eight bytes at a time for those bytes, and a phrase is compared only where its anchor byte
 * stands at its offset.
 */
final class PhraseSet {
  private final byte[][] phrases;
  private final int[] anchorAt; // each phrase's anchor byte's offset in it
  private final int[][] byAnchor = new int[128][]; // the phrases anchored on each byte value
  // bit (c << 8 | d): a phrase anchored on byte c has d after it, or ends there (every bit of c
  // set): a capital in another word is passed by on the byte after it
  private final long[] follows = new long[128 * 256 / 64];

  /** A phrase without a byte of the anchor class (all lower case, none of "xfbk(") is refused. */
  PhraseSet(byte[]... phrases) {
    if (phrases.length > Long.SIZE) {
      throw new IllegalArgumentException("at most 64 phrases: " + phrases.length);
    }
    this.phrases = phrases.clone();
    this.anchorAt = new int[phrases.length];
    for (int k = 0; k < phrases.length; k++) {
      int at = 0;
      while (at < phrases[k].length && !isAnchor(phrases[k][at])) {
        at++;
      }
      if (at == phrases[k].length) {
        throw new IllegalArgumentException("no anchor byte in " + Bytes.latin1(phrases[k], 0, phrases[k].length));
      }
      anchorAt[k] = at;
      byte c = phrases[k][at];
      if (at + 1 < phrases[k].length) {
        int bit = c << 8 | phrases[k][at + 1] & 0xFF;
        follows[bit >>> 6] |= 1L << bit;
      } else {
        java.util.Arrays.fill(follows, c << 2, (c + 1) << 2, -1L);
      }
      int[] old = byAnchor[c];
      int[] grown = old == null ? new int[1] : java.util.Arrays.copyOf(old, old.length + 1);
      grown[grown.length - 1] = k;
      byAnchor[c] = grown;
    }
  }

  static boolean isAnchor(byte c) {
    return c >= 'A' && c <= 'Z' || c == '(' || c == 'x' || c == 'f' || c == 'b' || c == 'k';
  }

  private static final long LOWS = 0x7F7F7F7F7F7F7F7FL;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long FROM_A = Bytes.broadcast((byte) (0x80 - 'A'));
  private static final long PAST_Z = Bytes.broadcast((byte) (0x80 - 'Z' - 1));
  private static final long B_PAREN = Bytes.broadcast((byte) '(');
  private static final long B_X = Bytes.broadcast((byte) 'x');
  private static final long B_F = Bytes.broadcast((byte) 'f');
  private static final long B_B = Bytes.broadcast((byte) 'b');
  private static final long B_K = Bytes.broadcast((byte) 'k');

  /** Bit k set: the k-th phrase occurs in [s, e). */
  long present(byte[] b, int s, int e) {
    long found = 0;
    int i = s;
    for (; i + 8 <= e; i += 8) {
      long w = Bytes.word(b, i);
      long low = w & LOWS;
      long marks = (low + FROM_A) & ~(low + PAST_Z) & ~w & HIGHS // capitals, exactly
          | Bytes.zeroBytes(w ^ B_PAREN) | Bytes.zeroBytes(w ^ B_X) | Bytes.zeroBytes(w ^ B_F)
          | Bytes.zeroBytes(w ^ B_B) | Bytes.zeroBytes(w ^ B_K);
      while (marks != 0) {
        found |= at(b, s, i + Bytes.firstMarkedByte(marks), e);
        marks &= marks - 1;
      }
    }
    for (; i < e; i++) {
      found |= at(b, s, i, e);
    }
    return found;
  }

  /** The phrases that start where the anchor byte at p stands at their anchor's offset. */
  private long at(byte[] b, int s, int p, int e) {
    byte c = b[p];
    int[] anchored = c >= 0 ? byAnchor[c] : null;
    if (anchored == null) {
      return 0; // a mark a borrow made above a real one, or a byte no phrase is anchored on
    }
    int bit = c << 8 | (p + 1 < e ? b[p + 1] & 0xFF : 0);
    if ((follows[bit >>> 6] & 1L << bit) == 0) {
      return 0; // (at the line's end, a phrase can only end there: its bits are all set)
    }
    long found = 0;
    for (int k : anchored) {
      int start = p - anchorAt[k];
      if (start >= s && Bytes.startsWith(b, start, e, phrases[k])) {
        found |= 1L << k;
      }
    }
    return found;
  }
}
