package dev.nccltriage.source.log;

/**
 * Reads NCCL's own prefix backwards from the level token: {@code host:pid:tid [dev] } and, for
 * WARN lines, {@code file:line } and {@code (function) }. Whatever precedes the host (launcher,
 * kubectl, timestamps) is ignored. Every part is optional, because users trim prefixes.
 */
final class Prefix {
  int hostStart;
  int hostEnd;
  long pid;
  int device;
  int start; // where the record begins (host, else [dev], else the level token)
  int tidEnd; // where host:pid:tid ends (-1: no host)

  /** Parses the prefix in [s, lvl); fields describe what was found (hostStart -1 if none). */
  void parse(byte[] b, int s, int lvl) {
    hostStart = -1;
    hostEnd = -1;
    tidEnd = -1;
    pid = -1;
    device = -1;
    int p = trim(b, s, lvl);
    start = p < lvl ? p : lvl;
    if (p > s && b[p - 1] == ')') {
      int q = p - 1;
      while (q > s && b[q] != '(') {
        q--;
      }
      if (b[q] == '(') {
        p = trim(b, s, q);
      }
    }
    int tokenStart = p;
    while (tokenStart > s && b[tokenStart - 1] != ' ' && b[tokenStart - 1] != '\t') {
      tokenStart--;
    }
    int beforeToken = trim(b, s, tokenStart);
    // NCCL's WARN "file.cc:123"; net plugins print "function:123" (aws-ofi-nccl), taken only
    // where the "[dev]" bracket stands before it, so that a trimmed "host:pid" is never mistaken
    if (isFileLine(b, tokenStart, p)
        || beforeToken > s && b[beforeToken - 1] == ']' && isFunctionLine(b, tokenStart, p)) {
      start = tokenStart;
      p = beforeToken;
    }
    if (p > s && b[p - 1] == ']') {
      int q = p - 2;
      while (q >= s && (Bytes.isDigit(b[q]) || b[q] == '-')) {
        q--;
      }
      if (q >= s && b[q] == '[' && q < p - 2) {
        device = b[q + 1] == '-' ? -1 : Bytes.parseInt(b, q + 1, p - 1);
        start = q;
        p = trim(b, s, q);
      }
    }
    int i = p;
    int tid = digitsBack(b, s, i);
    if (tid == i || tid <= s || b[tid - 1] != ':') {
      return;
    }
    int pidEnd = tid - 1;
    int pidStart = digitsBack(b, s, pidEnd);
    if (pidStart == pidEnd || pidStart <= s || b[pidStart - 1] != ':') {
      return;
    }
    int he = pidStart - 1;
    int hs = he;
    int min = Math.max(s, he - MAX_HOST);
    while (hs > min && !isHostDelimiter(b[hs - 1])) {
      hs--;
    }
    if (hs == he || hs > s && !isHostDelimiter(b[hs - 1])) {
      return; // no name, or one longer than any host's: not NCCL's prefix
    }
    if (he - hs == 2 && pidEnd - pidStart == 2 && i - tid == 2 && Bytes.isDigit(b[hs]) && Bytes.isDigit(b[hs + 1])) {
      return; // "10:15:30 [0] NCCL INFO": a logger's time of day before a line without NCCL's prefix
    }
    hostStart = hs;
    hostEnd = he;
    tidEnd = i;
    pid = Bytes.parseLong(b, pidStart, pidEnd);
    start = hs;
  }

  /**
   * NCCL prints the host name up to its first '.', so it is letters, digits, '-' and '_'; anything
   * else ends one (reading backwards).
   */
  /** Longer than a host name can be (DNS: 253; Linux's HOST_NAME_MAX: 64). */
  static final int MAX_HOST = 255;

  private static final boolean[] HOST_BYTE = new boolean[128];

  static {
    for (int c = 0; c < 128; c++) {
      HOST_BYTE[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_';
    }
  }

  private static boolean isHostDelimiter(byte c) {
    return c < 0 || !HOST_BYTE[c];
  }

  private static int digitsBack(byte[] b, int s, int i) {
    while (i > s && Bytes.isDigit(b[i - 1])) {
      i--;
    }
    return i;
  }

  private static int trim(byte[] b, int s, int p) {
    while (p > s && (b[p - 1] == ' ' || b[p - 1] == '\t')) {
      p--;
    }
    return p;
  }

  /** {@code function_name:123}: an identifier, one colon, digits. */
  private static boolean isFunctionLine(byte[] b, int from, int to) {
    int colon = -1;
    for (int i = from; i < to; i++) {
      byte c = b[i];
      if (c == ':') {
        if (colon >= 0) {
          return false;
        }
        colon = i;
      } else if (colon < 0 && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
        return false;
      }
    }
    return colon > from && colon < to - 1 && Bytes.skipDigits(b, colon + 1, to) == to;
  }

  /** {@code path/file.cc:123}: one colon, digits after it, a dot in the file name. */
  private static boolean isFileLine(byte[] b, int from, int to) {
    int colon = -1;
    boolean dot = false;
    for (int i = from; i < to; i++) {
      if (b[i] == ':') {
        if (colon >= 0) {
          return false;
        }
        colon = i;
      } else if (b[i] == '.' && colon < 0) {
        dot = true;
      }
    }
    return dot && colon > from && colon < to - 1 && Bytes.skipDigits(b, colon + 1, to) == to;
  }
}
