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

  private static final String[] WORDS = {
    "Call to ibv_", "Unable to", "No IP interface found", "Got completion ", "async ", "gid", "interface found",
    " -> ", "onnect", "remote process exited"
  };
  private static final byte[][] BYTES = new byte[WORDS.length][];
  /** The words that may start at a byte: a bit per word (gid under both cases). */
  private static final int[] STARTING = new int[256];

  static {
    for (int w = 0; w < WORDS.length; w++) {
      BYTES[w] = Bytes.ascii(WORDS[w]);
      STARTING[BYTES[w][0] & 0xFF] |= 1 << w;
    }
    STARTING['G'] |= GID;
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
    for (int i = from; i < to; i++) {
      int may = STARTING[s[i] & 0xFF] & ~found;
      while (may != 0) {
        int w = Integer.numberOfTrailingZeros(may);
        may &= may - 1;
        // the second byte first: most letters start a word somewhere, few go on as one
        if (w == 5 ? isGid(s, i, to) : i + 1 < to && s[i + 1] == BYTES[w][1] && Bytes.startsWith(s, i, to, BYTES[w])) {
          found |= 1 << w;
        }
      }
    }
    return found;
  }

  private static boolean isGid(byte[] s, int i, int to) {
    return i + 3 <= to && (s[i] | 0x20) == 'g' && (s[i + 1] | 0x20) == 'i' && (s[i + 2] | 0x20) == 'd';
  }
}
