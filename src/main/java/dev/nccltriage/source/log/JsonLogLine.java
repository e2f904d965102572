package dev.nccltriage.source.log;

/**
 * A line of a JSON-lines log: Docker's json-file ({@code {"log":"TEXT\n","stream":"stdout",
 * "time":"..."}}, what a node with the Docker runtime keeps of a container's output), Fluent Bit's
 * and Fluentd's ({@code {"date":...,"log":"..."}}, often with a nested {@code "kubernetes"} object
 * first), an export of CloudWatch, Elastic or Filebeat ({@code "message"}), a structured logger's
 * ({@code "msg"}), journald's ({@code "MESSAGE"}), Google Cloud Logging's ({@code "textPayload"}),
 * Loki's {@code logcli} ({@code "line"}), structlog's ({@code "event"}), Splunk's export ({@code
 * "_raw"}, under {@code "result"}).
 * Read as it is, the message would end in {@code \n","stream":...} and every value at the end of a
 * line (the network, an env value, an address) would carry it. The first top-level field of those
 * names that holds a string is decoded (JSON's escapes; an ANSI colour code arrives as an escaped
 * ESC) into a scratch buffer reused from line to line. The fields before it are skipped in one
 * pass, nested ones by counting brackets (no recursion, whatever the depth). A record with none of
 * those names at its top level has its line in the string value, at any depth, that holds NCCL's
 * text, or else in the first one under such a name (see {@link #ncclValue}).
 */
final class JsonLogLine implements LineDecoder {
  private static final byte[][] TEXT_KEYS = {Bytes.ascii("log"), Bytes.ascii("message"), Bytes.ascii("msg"),
      Bytes.ascii("MESSAGE"), Bytes.ascii("textPayload"), Bytes.ascii("line"), Bytes.ascii("event"),
      Bytes.ascii("_raw")};
  private byte[] scratch = new byte[256];
  private boolean escape;
  private boolean newline;

  @Override
  public byte[] buffer() {
    return scratch;
  }

  /** An escaped ESC ({@code \u001b}: an ANSI colour) is a real one once decoded. */
  @Override
  public boolean decodedEscape() {
    return escape;
  }

  @Override
  public boolean decodedNewline() {
    return newline;
  }

  /**
   * Decodes the text field of the line [s, e) into {@link #buffer}, without its final line end;
   * returns its length, or -1 when the line is not such a record (not an object, no text field
   * before the end, no closing quote, a bad escape, or something other than another field or the
   * end after the value).
   */
  @Override
  public int decode(byte[] b, int s, int e) {
    if (e - s < 8 || b[s] != '{') {
      return -1;
    }
    int i = skipSpaces(b, s + 1, e);
    while (i < e && b[i] == '"') {
      int keyEnd = stringEnd(b, i, e);
      if (keyEnd < 0) {
        return -1;
      }
      int colon = skipSpaces(b, keyEnd + 1, e);
      if (colon >= e || b[colon] != ':') {
        return -1;
      }
      int v = skipSpaces(b, colon + 1, e);
      if (v >= e) {
        return -1;
      }
      if (b[v] == '"' && isTextKey(b, i + 1, keyEnd)) {
        return value(b, v, e, false, false);
      }
      int after = skipValue(b, v, e);
      if (after < 0) {
        return -1;
      }
      after = skipSpaces(b, after, e);
      if (after < e && b[after] == '}') {
        return ncclValue(b, s, after); // a whole object, and none of its fields has a known name
      }
      if (after >= e || b[after] != ',') {
        return -1; // junk before any text field
      }
      i = skipSpaces(b, after + 1, e);
    }
    return -1;
  }

  /**
   * A line of a pretty-printed JSON document (an array of records as {@code gcloud logging read
   * --format=json} or {@code jq} print it, a record over several lines): {@code "textPayload":
   * "TEXT",} alone on its line, indented, under one of the names above. Read as it is, the text
   * would end in {@code ",}. Its text decoded as {@link #decode} does; -1 for any other line.
   */
  int field(byte[] b, int s, int e) {
    int i = skipSpaces(b, s, e);
    if (e - i < 8 || b[i] != '"') {
      return -1;
    }
    int keyEnd = stringEnd(b, i, e);
    if (keyEnd < 0 || !isTextKey(b, i + 1, keyEnd)) {
      return -1;
    }
    int colon = skipSpaces(b, keyEnd + 1, e);
    if (colon >= e || b[colon] != ':') {
      return -1;
    }
    int v = skipSpaces(b, colon + 1, e);
    return v < e && b[v] == '"' ? value(b, v, e, false, true) : -1;
  }

  private static final byte[] NCCL = Bytes.ascii("NCCL");

  /**
   * A record with no text field of a known name at its top level: its line is nested (Google
   * Cloud's {@code jsonPayload.message}) or has a name of its own (an OpenTelemetry body, a
   * logger's field). The first string value, at any depth, that holds NCCL's level token ("NCCL
   * INFO", "NCCL WARN") is the line; else the first that holds "NCCL" (a bare message); else the
   * first one under a known name, at any depth; -1 if there is none (the record is then read as it
   * is). [s, end] is an object whose structure {@link #decode} checked. A string is a key when a
   * colon follows it, else a value.
   */
  private int ncclValue(byte[] b, int s, int end) {
    int named = -1; // the first string value under a known name
    int nccl = -1; // the first one holding "NCCL" (a record's level token ends the search)
    boolean afterKnownKey = false;
    int i = Bytes.indexOfByte(b, s + 1, end, QUOTE);
    while (i >= 0) {
      int close = stringEnd(b, i, end);
      if (close < 0) {
        return -1;
      }
      int next = skipSpaces(b, close + 1, end);
      if (next < end && b[next] == ':') {
        int v = skipSpaces(b, next + 1, end);
        afterKnownKey = v < end && b[v] == '"' && isTextKey(b, i + 1, close);
      } else {
        if (Bytes.indexOf(b, i + 1, close, NCCL) >= 0) {
          if (LevelTokens.levelToken(b, i + 1, close) >= 0) {
            return value(b, i, end + 1, true, false);
          }
          nccl = nccl < 0 ? i : nccl;
        }
        if (afterKnownKey && named < 0) {
          named = i;
        }
        afterKnownKey = false;
      }
      i = Bytes.indexOfByte(b, close + 1, end, QUOTE);
    }
    int chosen = nccl >= 0 ? nccl : named;
    return chosen >= 0 ? value(b, chosen, end + 1, true, false) : -1;
  }

  /** Whether b[from, to) names a record's text: a JSON field, or a logfmt key ({@link QuotedField}). */
  static boolean isTextKey(byte[] b, int from, int to) {
    for (byte[] k : TEXT_KEYS) {
      if (to - from == k.length && Bytes.startsWith(b, from, to, k)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where the text starts in a line at s that opens a record with its text field ({@code {"log":"},
   * {@code {"message": "}) but did not decode (cut short in a paste; or inside a CSV cell, its
   * quotes doubled: {@code {""log"":""}): just past the value's opening quote; else -1.
   */
  static int firstValueAt(byte[] b, int s, int e) {
    if (s + 1 >= e || b[s] != '{') {
      return -1;
    }
    int key = skipSpaces(b, s + 1, e);
    if (key >= e || b[key] != '"') {
      return -1;
    }
    int q = key + 1 < e && b[key + 1] == '"' ? 2 : 1; // the quote's width
    int keyEnd = Bytes.indexOfByte(b, key + q, Math.min(e, key + q + 16), QUOTE);
    if (keyEnd < 0 || keyEnd + q > e || q == 2 && b[keyEnd + 1] != '"' || !isTextKey(b, key + q, keyEnd)) {
      return -1;
    }
    int colon = skipSpaces(b, keyEnd + q, e);
    int value = colon < e && b[colon] == ':' ? skipSpaces(b, colon + 1, e) : e;
    return value + q <= e && b[value] == '"' && (q == 1 || b[value + 1] == '"') ? value + q : -1;
  }

  /** The index of the quote that closes the string opening at i, or -1. */
  private static int stringEnd(byte[] b, int i, int e) {
    for (int j = Bytes.indexOfEither(b, i + 1, e, QUOTE, BACKSLASH); j >= 0;
        j = Bytes.indexOfEither(b, j + 2, e, QUOTE, BACKSLASH)) {
      if (b[j] == '"') {
        return j;
      }
      // a backslash: the byte after it is escaped
    }
    return -1;
  }

  private static final byte QUOTE = '"';
  private static final byte BACKSLASH = '\\';

  /** Just past the value starting at i (a string, an object or array, a number or literal), or -1. */
  private static int skipValue(byte[] b, int i, int e) {
    byte c = b[i];
    if (c == '"') {
      int end = stringEnd(b, i, e);
      return end < 0 ? -1 : end + 1;
    }
    if (c == '{' || c == '[') {
      int depth = 0;
      for (int j = i; j < e; j++) {
        byte x = b[j];
        if (x == '"') {
          j = stringEnd(b, j, e);
          if (j < 0) {
            return -1;
          }
        } else if (x == '{' || x == '[') {
          depth++;
        } else if ((x == '}' || x == ']') && --depth == 0) {
          return j + 1;
        }
      }
      return -1;
    }
    int j = i;
    while (j < e && b[j] != ',' && b[j] != '}' && b[j] != ' ') {
      j++;
    }
    return j == i ? -1 : j;
  }

  /**
   * Decodes the string value opening at i; see {@link #decode}. {@code inArray}: it may be an
   * array's element (a bracket may close after it). {@code alone}: a field alone on its line
   * ({@link #field}): a comma or nothing follows it.
   */
  private int value(byte[] b, int i, int e, boolean inArray, boolean alone) {
    if (scratch.length < e - i) {
      scratch = new byte[e - i]; // decoding never lengthens: every escape is at least as long as its bytes
    }
    int n = 0;
    escape = false;
    int newlineAt = -1;
    i++;
    while (i < e && b[i] != '"') {
      if (b[i] != '\\') {
        // a run of plain bytes up to the next quote or backslash, copied at once
        int to = Bytes.indexOfEither(b, i, e, QUOTE, BACKSLASH);
        to = to < 0 ? e : to;
        System.arraycopy(b, i, scratch, n, to - i);
        n += to - i;
        i = to;
        continue;
      }
      if (i + 1 >= e) {
        return -1;
      }
      byte x = b[i + 1];
      i += 2;
      switch (x) {
        case '"', '\\', '/' -> scratch[n++] = x;
        case 'n' -> {
          newlineAt = newlineAt < 0 ? n : newlineAt;
          scratch[n++] = '\n';
        }
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
          escape |= cp == 0x1b;
          n = utf8(cp, n);
        }
        default -> {
          return -1;
        }
      }
    }
    if (i >= e) {
      return -1; // no closing quote
    }
    int after = skipSpaces(b, i + 1, e);
    if (alone ? after < e && (b[after] != ',' || skipSpaces(b, after + 1, e) < e)
        : after >= e || b[after] != ',' && b[after] != '}' && !(inArray && b[after] == ']')) {
      return -1; // not a JSON object's (or array's) value
    }
    while (n > 0 && (scratch[n - 1] == '\n' || scratch[n - 1] == '\r')) {
      n--;
    }
    newline = newlineAt >= 0 && newlineAt < n;
    return n;
  }

  private static int skipSpaces(byte[] b, int i, int e) {
    while (i < e && (b[i] == ' ' || b[i] == '\t')) {
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
