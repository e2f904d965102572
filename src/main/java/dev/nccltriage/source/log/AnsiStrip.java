package dev.nccltriage.source.log;

/** Removes ANSI colour codes from a line, into a scratch buffer reused from line to line. */
final class AnsiStrip {
  private byte[] scratch = new byte[256];

  static boolean hasEscape(byte[] b, int s, int e) {
    return Bytes.indexOfByte(b, s, e, (byte) 0x1b) >= 0;
  }

  /** The buffer {@link #strip} wrote into (valid until the next call). */
  byte[] buffer() {
    return scratch;
  }

  /**
   * Copies [s, e) into the scratch buffer without ANSI CSI sequences (ESC [ ... final byte). The
   * runs between escapes are found eight bytes at a time and copied whole: a coloured logger puts
   * two to six escapes on a line of 100, so a byte loop would touch every byte twice.
   */
  int strip(byte[] b, int s, int e) {
    if (scratch.length < e - s) {
      scratch = new byte[e - s];
    }
    int n = 0;
    int i = s;
    while (i < e) {
      int esc = Bytes.indexOfByte(b, i, e, (byte) 0x1b);
      int runEnd = esc < 0 ? e : esc;
      System.arraycopy(b, i, scratch, n, runEnd - i);
      n += runEnd - i;
      if (esc < 0) {
        break;
      }
      i = esc + 1;
      if (i < e && b[i] == '[') {
        i++;
        while (i < e && (b[i] < 0x40 || b[i] > 0x7e)) {
          i++;
        }
      }
      i++; // the final byte, or the one byte after a lone ESC
    }
    return n;
  }
}
