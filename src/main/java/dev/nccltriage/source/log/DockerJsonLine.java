package dev.nccltriage.source.log;

/**
 * A line of Docker's json-file log ({@code /var/lib/docker/containers/ID/ID-json.log}, what a node
 * with the Docker runtime keeps of a container's output): {@code {"log":"TEXT\n","stream":"stdout",
 * "time":"..."}}, with or without spaces after the colons. Read as it is, the message would end in
 * {@code \n","stream":...} and every value at the end of a line (the network, an env value, an
 * address) would carry it. The text is decoded (JSON's escapes; an ANSI colour code arrives as an
 * escaped ESC) into a scratch buffer reused from line to line.
 */
final class DockerJsonLine {
  private static final byte[] START = Bytes.ascii("{\"log\":");
  private byte[] scratch = new byte[256];

  /** Whether the line may be one: its first bytes. */
  private static boolean mayBe(byte[] b, int s, int e) {
    return e - s > START.length && b[s] == '{' && Bytes.startsWith(b, s, e, START);
  }

  /** The buffer {@link #decode} wrote into (valid until the next call). */
  byte[] buffer() {
    return scratch;
  }

  /**
   * Decodes the "log" value of the line [s, e) into {@link #buffer}, without its final line end;
   * returns its length, or -1 when the line is not such a record (no closing quote, a bad escape, or
   * something other than another field or the end after the value).
   */
  int decode(byte[] b, int s, int e) {
    if (!mayBe(b, s, e)) {
      return -1;
    }
    if (scratch.length < e - s) {
      scratch = new byte[e - s]; // decoding never lengthens: every escape is at least as long as its bytes
    }
    int n = 0;
    int i = skipSpaces(b, s + START.length, e);
    if (i >= e || b[i] != '"') {
      return -1;
    }
    i++;
    while (i < e && b[i] != '"') {
      byte c = b[i];
      if (c != '\\') {
        scratch[n++] = c;
        i++;
        continue;
      }
      if (i + 1 >= e) {
        return -1;
      }
      byte x = b[i + 1];
      i += 2;
      switch (x) {
        case '"', '\\', '/' -> scratch[n++] = x;
        case 'n' -> scratch[n++] = '\n';
        case 'r' -> scratch[n++] = '\r';
        case 't' -> scratch[n++] = '\t';
        case 'b' -> scratch[n++] = '\b';
        case 'f' -> scratch[n++] = '\f';
        case 'u' -> {
          int cp = hex4(b, i, e);
          if (cp < 0) {
            return -1;
          }
          i += 4;
          if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= e && b[i] == '\\' && b[i + 1] == 'u') {
            int low = hex4(b, i + 2, e);
            if (low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
              i += 6;
            }
          }
          n = utf8(cp, n);
        }
        default -> {
          return -1;
        }
      }
    }
    int after = i >= e ? e : skipSpaces(b, i + 1, e);
    if (after >= e || b[after] != ',' && b[after] != '}') {
      return -1; // no closing quote, or not a JSON object's value
    }
    while (n > 0 && (scratch[n - 1] == '\n' || scratch[n - 1] == '\r')) {
      n--;
    }
    return n;
  }

  private static int skipSpaces(byte[] b, int i, int e) {
    while (i < e && b[i] == ' ') {
      i++;
    }
    return i;
  }

  private static int hex4(byte[] b, int i, int e) {
    if (i + 4 > e) {
      return -1;
    }
    int v = 0;
    for (int k = i; k < i + 4; k++) {
      int d = Character.digit(b[k], 16);
      if (d < 0) {
        return -1;
      }
      v = v << 4 | d;
    }
    return v;
  }

  /** Writes code point cp as UTF-8 at n (a lone surrogate as U+FFFD); returns the new length. */
  private int utf8(int cp, int n) {
    if (cp >= 0xD800 && cp <= 0xDFFF) {
      cp = 0xFFFD;
    }
    if (cp < 0x80) {
      scratch[n++] = (byte) cp;
    } else if (cp < 0x800) {
      scratch[n++] = (byte) (0xC0 | cp >> 6);
      scratch[n++] = (byte) (0x80 | cp & 0x3F);
    } else if (cp < 0x10000) {
      scratch[n++] = (byte) (0xE0 | cp >> 12);
      scratch[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
      scratch[n++] = (byte) (0x80 | cp & 0x3F);
    } else {
      scratch[n++] = (byte) (0xF0 | cp >> 18);
      scratch[n++] = (byte) (0x80 | cp >> 12 & 0x3F);
      scratch[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
      scratch[n++] = (byte) (0x80 | cp & 0x3F);
    }
    return n;
  }
}
