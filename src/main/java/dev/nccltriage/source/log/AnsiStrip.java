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

  /** Copies [s, e) into the scratch buffer without ANSI CSI sequences (ESC [ ... final byte). */
  int strip(byte[] b, int s, int e) {
    if (scratch.length < e - s) {
      scratch = new byte[e - s];
    }
    int n = 0;
    for (int i = s; i < e; i++) {
      if (b[i] == 0x1b) {
        if (i + 1 < e && b[i + 1] == '[') {
          i += 2;
          while (i < e && (b[i] < 0x40 || b[i] > 0x7e)) {
            i++;
          }
        } else {
          i++;
        }
        continue;
      }
      scratch[n++] = b[i];
    }
    return n;
  }
}
