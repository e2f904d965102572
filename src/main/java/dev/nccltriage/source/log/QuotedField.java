package dev.nccltriage.source.log;

/**
 * A line whose text is a quoted field, the line ending in a quote: a CSV export's column
 * (Grafana's, Kibana's or CloudWatch Logs Insights' "Download CSV": {@code "2026-05-01T10:00:00Z",
 * "trainer-0","host:1:2 [0] NCCL INFO Using network IB"}, a quote inside doubled) or a logfmt value
 * ({@code time=... level=info msg="host:1:2 [0] NCCL INFO ..."}, a quote inside after a
 * backslash). Read as it is, every value at the end of the record (an address, an env value)
 * would end in the closing quote. The field is the one NCCL's level token ("NCCL INFO", "NCCL
 * WARN") is in (NCCL's prefix holds no quote, so its opening quote is the last one before the
 * token); on a line without one, the field that ends the line (a bare message, PyTorch's or a
 * launcher's line). It is copied without its quotes and escapes into a scratch buffer reused from
 * line to line.
 */
final class QuotedField implements LineDecoder {
  private static final byte QUOTE = '"';
  private static final byte BACKSLASH = '\\';
  private byte[] scratch = new byte[256];

  @Override
  public byte[] buffer() {
    return scratch;
  }

  /** Never: an escape other than a quote, a backslash, n, t or r stays as it was written. */
  @Override
  public boolean decodedEscape() {
    return false;
  }

  /**
   * Decodes the quoted field of [s, e) that holds NCCL's level token, or else the one that ends
   * the line, into {@link #buffer}; returns its length, or -1 when the line is not such a line (it
   * does not end with a quote, the quote before the field follows no field separator, CSV line
   * start or logfmt "=", or the field's closing quote is neither the line's end nor before the next
   * field).
   */
  @Override
  public int decode(byte[] b, int s, int e) {
    if (e - s < 8 || b[e - 1] != QUOTE) {
      return -1;
    }
    int at = LogParser.levelToken(b, s, e); // a record's level token, not a column's word
    if (at >= 0) {
      int open = at - 1;
      while (open >= s && b[open] != QUOTE) {
        open--;
      }
      int close = open >= s ? close(b, s, open, e) : -1;
      return close >= 0 ? copy(b, csv(b, s, open), open, close) : -1;
    }
    // no record's token: the quoted fields one after the other, to the one that ends the line
    for (int open = Bytes.indexOfByte(b, s, e, QUOTE); open >= 0; ) {
      int close = close(b, s, open, e);
      if (close < 0) {
        return -1;
      }
      if (close == e - 1) {
        return copy(b, csv(b, s, open), open, close);
      }
      open = Bytes.indexOfByte(b, close + 1, e, QUOTE);
    }
    return -1;
  }

  /**
   * The closing quote of the field that opens at {@code open}, if it is one: after a CSV field
   * separator or at the line's start (a quote inside doubled), or after logfmt's "=" (a quote
   * inside after a backslash); the closing quote ends the line or comes before the next field.
   * -1 otherwise.
   */
  private static int close(byte[] b, int s, int open, int e) {
    boolean csv = csv(b, s, open);
    if (!csv && b[open - 1] != '=') {
      return -1;
    }
    int i = open + 1;
    while (true) {
      int q = csv ? Bytes.indexOfByte(b, i, e, QUOTE) : Bytes.indexOfEither(b, i, e, QUOTE, BACKSLASH);
      if (q < 0) {
        return -1;
      }
      if (b[q] == BACKSLASH || q + 1 < e && b[q + 1] == QUOTE) {
        i = q + 2; // an escape: a backslash and its byte, or a doubled quote
        continue;
      }
      byte after = q + 1 < e ? b[q + 1] : (byte) ',';
      boolean next = csv ? after == ',' || after == ';' || after == '\t' : after == ',' || after == ' ';
      return next ? q : -1;
    }
  }

  /** Whether the quote at {@code open} opens a CSV field: at the line's start or after a separator. */
  private static boolean csv(byte[] b, int s, int open) {
    return open == s || b[open - 1] == ',' || b[open - 1] == ';' || b[open - 1] == '\t';
  }

  /** Copies the field between the quotes at open and close, unescaped; returns its length. */
  private int copy(byte[] b, boolean csv, int open, int close) {
    if (scratch.length < close - open) {
      scratch = new byte[close - open]; // unquoting never lengthens
    }
    int n = 0;
    int i = open + 1;
    while (i < close) {
      int q = csv ? Bytes.indexOfByte(b, i, close, QUOTE) : Bytes.indexOfByte(b, i, close, BACKSLASH);
      int to = q < 0 ? close : q;
      System.arraycopy(b, i, scratch, n, to - i);
      n += to - i;
      if (q < 0) {
        break;
      }
      byte x = b[q + 1]; // close() saw the escape whole: q + 1 < close
      if (csv || x == QUOTE || x == BACKSLASH) {
        scratch[n++] = x; // a doubled quote, an escaped quote or backslash
      } else if (x == 'n' || x == 't' || x == 'r') {
        scratch[n++] = x == 'n' ? (byte) '\n' : x == 't' ? (byte) '\t' : (byte) '\r';
      } else { // another escape (\x1b, \u00e9) stays as it was written
        scratch[n++] = BACKSLASH;
        scratch[n++] = x;
      }
      i = q + 2;
    }
    while (n > 0 && (scratch[n - 1] == '\n' || scratch[n - 1] == '\r')) {
      n--;
    }
    return n;
  }
}
