package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;

/**
 * Which of the literals that guard {@link ErrorSignatures}' expressions a text holds, found in one
 * pass. A failing job prints WARN texts that are each new (a pointer, a size, a rank differ), and
 * each is classified: one {@code contains} per guard read the whole text ten times over.
 */
final class GuardWords {
  static final int CALL_TO_IBV = 1;
  static final int UNABLE_TO = 1 << 1;
  static final int NO_IP_INTERFACE = 1 << 2;
  static final int GOT_COMPLETION = 1 << 3;
  static final int ASYNC = 1 << 4;
  static final int GID = 1 << 5; // "gid" in any case
  static final int INTERFACE_FOUND = 1 << 6;
  static final int ARROW = 1 << 7;
  static final int ONNECT = 1 << 8;
  static final int REMOTE_EXITED = 1 << 9;
  /** "fail", "unable", "not found", "invalid" or "no valid" in any case: what a GID failure needs besides "gid". */
  static final int FAILURE = 1 << 10;

  private static final String[] WORDS = {
    "Call to ibv_", "Unable to", "No IP interface found", "Got completion ", "async ", "gid", "interface found",
    " -> ", "onnect", "remote process exited", "fail" // (FAILURE: in STARTING by hand, in any case)
  };
  private static final byte[][] BYTES = new byte[WORDS.length][];
  /**
   * The words that may start at a pair of ASCII bytes, a bit per word ("gid" in any case), indexed
   * by the two bytes' seven bits each: one lookup a byte, where a table of first bytes alone sent
   * every space, 'a', 'i', 'o' and 'r' of a text to a comparison.
   */
  private static final int[] STARTING = new int[1 << 14];

  static {
    for (int w = 0; w < WORDS.length; w++) {
      BYTES[w] = Bytes.ascii(WORDS[w]);
      STARTING[BYTES[w][0] << 7 | BYTES[w][1]] |= 1 << w;
    }
    for (char g : new char[] {'g', 'G'}) {
      STARTING[g << 7 | 'i'] |= GID;
      STARTING[g << 7 | 'I'] |= GID;
    }
    for (String f : new String[] {"fa", "un", "in", "no"}) {
      for (int c : new int[] {f.charAt(0), f.charAt(0) & ~0x20}) {
        STARTING[c << 7 | f.charAt(1)] |= FAILURE;
        STARTING[c << 7 | (f.charAt(1) & ~0x20)] |= FAILURE;
      }
    }
  }

  /** The word of a bit, by a de Bruijn product (Integer.numberOfTrailingZeros is no C1 intrinsic on Java 17). */
  private static final int[] WORD_OF_BIT = new int[32];

  static {
    for (int w = 0; w < 32; w++) {
      WORD_OF_BIT[((1 << w) * 0x077CB531) >>> 27] = w;
    }
  }

  private GuardWords() {}

  /** The bits of the words {@code msg} contains (as {@link String#contains}, "gid" in any case). */
  static int of(String msg) {
    // Latin-1 bytes, one per char (a copy, not a decode); a char above 0xFF becomes '?', which no
    // word holds, as no word holds such a char
    byte[] s = msg.getBytes(StandardCharsets.ISO_8859_1);
    return of(s, 0, s.length);
  }

  /**
   * The same for a text's UTF-8 (or Latin-1) bytes b[from, to): the words are ASCII, and no byte
   * of a multi-byte character is.
   */
  static int of(byte[] s, int from, int to) {
    int found = 0;
    int c = from < to ? s[from] & 0x7F : 0;
    for (int i = from; i + 1 < to; i++) {
      // a byte of a multi-byte character (its low seven bits) may pick a word: the comparison
      // below, with the bytes themselves, rejects it
      int d = s[i + 1] & 0x7F;
      int may = STARTING[c << 7 | d];
      c = d;
      if (may != 0 && (may &= ~found) != 0) {
        found |= found(s, i, to, may);
      }
    }
    return found;
  }

  /** Which of the words {@code may} start at s[i]. */
  private static int found(byte[] s, int i, int to, int may) {
    int found = 0;
    while (may != 0) {
      int bit = may & -may;
      may &= may - 1;
      int w = WORD_OF_BIT[(bit * 0x077CB531) >>> 27];
      if (w == 5 ? isGid(s, i, to) : w == 10 ? isFailure(s, i, to) : Bytes.startsWith(s, i, to, BYTES[w])) {
        found |= bit;
      }
    }
    return found;
  }

  /**
   * Whether s[from, to) holds "fail", "unable", "not found", "invalid" or "no valid" in any ASCII
   * case (as the (?i) of ErrorSignatures' GID expressions, without UNICODE_CASE, reads them): the
   * words a GID failure needs besides "gid". Asked only of texts that hold "gid".
   */
  /** Whether one of the {@link #FAILURE} words, in any ASCII case, starts at s[i]. */
  private static boolean isFailure(byte[] s, int i, int to) {
    return switch (s[i] | 0x20) {
      case 'f' -> anyCase(s, i, to, FAIL);
      case 'u' -> anyCase(s, i, to, UNABLE);
      case 'i' -> anyCase(s, i, to, INVALID);
      case 'n' -> anyCase(s, i, to, NOT_FOUND) || anyCase(s, i, to, NO_VALID);
      default -> false;
    };
  }

  private static final byte[] FAIL = Bytes.ascii("fail");
  private static final byte[] UNABLE = Bytes.ascii("unable");
  private static final byte[] INVALID = Bytes.ascii("invalid");
  private static final byte[] NOT_FOUND = Bytes.ascii("not found");
  private static final byte[] NO_VALID = Bytes.ascii("no valid");

  /** Whether s[i, to) starts with the lower-case word w, each ASCII letter in either case. */
  private static boolean anyCase(byte[] s, int i, int to, byte[] w) {
    if (to - i < w.length) {
      return false;
    }
    for (int j = 0; j < w.length; j++) {
      byte c = s[i + j];
      if (c != w[j] && !(w[j] >= 'a' && w[j] <= 'z' && c == (w[j] & ~0x20))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isGid(byte[] s, int i, int to) {
    return i + 3 <= to && (s[i] | 0x20) == 'g' && (s[i + 1] | 0x20) == 'i' && (s[i + 2] | 0x20) == 'd';
  }
}
