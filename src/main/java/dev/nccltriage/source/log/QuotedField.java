package dev.nccltriage.source.log;

/**
 * A line whose text is a quoted field: a CSV export's column (Grafana's, Kibana's or CloudWatch
 * Logs Insights' "Download CSV": {@code "2026-05-01T10:00:00Z","trainer-0","host:1:2 [0] NCCL INFO
 * Using network IB"}, a quote inside doubled) or a logfmt value ({@code time=... level=info
 * msg="host:1:2 [0] NCCL INFO ..." pod=trainer-0}, a quote inside after a backslash), last on the
 * line or followed by more fields. Read as it is, every value at the end of the record (an address,
 * an env value, the network's name) would carry the closing quote and the fields after it. The
 * field is the one NCCL's level token ("NCCL INFO", "NCCL WARN") is in (NCCL's prefix holds no
 * quote, so its opening quote is the last one before the token); on a line without one, the field
 * that ends the line, if the line ends with a quote (a bare message, PyTorch's or a launcher's
 * line). It is copied without its quotes and escapes into a scratch buffer reused from line to line.
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

  @Override
  public boolean decodedNewline() {
    return newline;
  }

  private boolean newline;

  /**
   * Decodes the quoted field of [s, e) that holds NCCL's level token, or else the one that ends
   * the line, into {@link #buffer}; returns its length, or -1 when the line is not such a line (no
   * quote opens the token's field, that quote follows no field separator, CSV line start or logfmt
   * "=", or the field's closing quote is neither the line's end nor before the next field; without
   * a token, the line does not end with a quote).
   */
  @Override
  public int decode(byte[] b, int s, int e) {
    if (e - s < 8) {
      return -1;
    }
    int at = LevelTokens.levelToken(b, s, e); // a record's level token, not a column's word
    if (at < 0) {
      at = LevelTokens.oldLevelToken(b, s, e); // before 2.3: "host:pid:tid [dev] INFO "
    }
    if (at >= 0) {
      int open = lastQuote(b, s, at);
      int close = open >= s ? close(b, s, open, e) : -1;
      return close >= 0 ? copy(b, csv(b, s, open), open, close) : -1;
    }
    // no record: the line's text, if the whole line is a logfmt record or a CSV row (a line of
    // another program that ends in key="value" keeps its own text: it may say the job failed)
    long field = isKey(b[s]) && logfmtKeyEnd(b, s, e) > s ? logfmtText(b, s, e) : csvText(b, s, e);
    if (field < 0) {
      return -1;
    }
    int open = (int) (field >>> 32);
    return copy(b, csv(b, s, open), open, (int) field);
  }

  /** The last quote in [s, at), or s - 1. */
  private static int lastQuote(byte[] b, int s, int at) {
    if (Bytes.indexOfByte(b, s, at, QUOTE) < 0) {
      return s - 1; // most lines: no quote at all, told eight bytes at a time
    }
    int q = at - 1;
    while (q >= s && b[q] != QUOTE) {
      q--;
    }
    return q;
  }

  /** Whether the quote at q can open a field: at the line's start (s), after a CSV separator or logfmt's '='. */
  private static boolean opensField(byte[] b, int s, int q) {
    return csv(b, s, q) || b[q - 1] == '=';
  }

  /**
   * Whether [s, e) may be a CSV row or a logfmt record with a quoted field (a test before {@link
   * #decode}, which may still say no): a row that starts quoted; a row whose first column (a
   * timestamp: a digit first) is followed by a quoted one; a line that starts with a logfmt key and
   * holds a quote that can open a field. Most lines of other programs, a timestamped logger's
   * among them ("2026-05-01 10:00:00,123 INFO ..."), fail within their first bytes.
   */
  static boolean mayBeRow(byte[] b, int s, int e) {
    byte c = b[s];
    if (c == QUOTE) {
      return true;
    }
    if (Bytes.isDigit(c)) {
      int sep = Bytes.indexOfEither(b, s, e, (byte) ',', (byte) ';');
      int tab = Bytes.indexOfByte(b, s, sep < 0 ? e : sep, (byte) '\t');
      sep = tab >= 0 ? tab : sep;
      return sep >= 0 && sep + 1 < e && b[sep + 1] == QUOTE;
    }
    return isKey(c) && logfmtKeyEnd(b, s, e) > s && hasFieldQuote(b, s, e);
  }

  /** Whether [s, e) holds a quote that can open a field. */
  private static boolean hasFieldQuote(byte[] b, int s, int e) {
    for (int q = Bytes.indexOfByte(b, s, e, QUOTE); q >= 0; q = Bytes.indexOfByte(b, q + 1, e, QUOTE)) {
      if (opensField(b, s, q)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the record whose level token starts at {@code at} sits in a quoted field: NCCL's
   * prefix holds no quote, so the last quote before the token opens that field, if any does.
   */
  static boolean holdsRecordAt(byte[] b, int s, int at) {
    int q = lastQuote(b, s, at);
    return q >= s && opensField(b, s, q);
  }

  /**
   * A logfmt record's text field, as (open quote << 32 | close quote), or -1: every field is
   * key=value, one or more spaces apart, a value quoted or without spaces and quotes. The text is
   * the quoted value of a key that names a JSON record's text (msg, message, log, line, event, ...),
   * else a quoted value that ends the line.
   */
  private static long logfmtText(byte[] b, int s, int e) {
    long text = -1;
    long last = -1;
    int i = s;
    while (i < e) {
      int eq = logfmtKeyEnd(b, i, e);
      if (eq < 0) {
        return -1;
      }
      int v = eq + 1;
      int end;
      if (v < e && b[v] == QUOTE) {
        int close = close(b, s, v, e);
        if (close < 0) {
          return -1;
        }
        last = (long) v << 32 | close;
        if (text < 0 && JsonLogLine.isTextKey(b, i, eq)) {
          text = last;
        }
        end = close + 1;
      } else {
        end = v;
        while (end < e && b[end] != ' ' && b[end] != QUOTE) {
          end++;
        }
        if (end < e && b[end] == QUOTE) {
          return -1;
        }
        last = -1;
      }
      i = end;
      while (i < e && b[i] == ' ') {
        i++;
      }
      if (i == end && i < e) {
        return -1; // a closing quote with no space after it
      }
    }
    return text >= 0 ? text : last;
  }

  /** Where the logfmt key at i ends (its '='), or -1 if none starts there. */
  private static int logfmtKeyEnd(byte[] b, int i, int e) {
    int k = i;
    while (k < e && isKey(b[k])) {
      k++;
    }
    return k > i && k < e && b[k] == '=' ? k : -1;
  }

  private static boolean isKey(byte c) {
    return c >= 0 && KEY[c];
  }

  /** A logfmt key's bytes: letters, digits, '_', '.', '-', '@' (a table: a line's first word is tested by byte). */
  private static final boolean[] KEY = new boolean[128];

  static {
    for (int c = 0; c < 128; c++) {
      KEY[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
          || c == '@';
    }
  }

  /**
   * A CSV row's text field, as (open quote << 32 | close quote), or -1: fields one separator
   * apart, each quoted or without quotes. A writer quotes the fields that need it (the text, with
   * its spaces and commas), and an export may quote every field, in the order its user picked
   * (time, host, message; or time, message, host). The text is the last quoted field that reads
   * as words (a space in it, no digit first: not a time, a host or a number), else the quoted
   * field that ends the row, else the row's one quoted field.
   */
  private static long csvText(byte[] b, int s, int e) {
    long only = -1;
    long words = -1;
    int quoted = 0;
    int i = s;
    while (true) {
      if (i < e && b[i] == QUOTE) {
        int close = close(b, s, i, e);
        if (close < 0) {
          return -1;
        }
        only = (long) i << 32 | close;
        quoted++;
        if (close > i + 1 && !Bytes.isDigit(b[i + 1]) && Bytes.indexOfByte(b, i + 1, close, (byte) ' ') >= 0) {
          words = only;
        }
        if (close == e - 1) {
          return words >= 0 ? words : only;
        }
        i = close + 2; // past the separator close() saw
      } else {
        int end = i;
        while (end < e && b[end] != ',' && b[end] != ';' && b[end] != '\t' && b[end] != QUOTE) {
          end++;
        }
        if (end < e && b[end] == QUOTE) {
          return -1;
        }
        if (end == e) {
          return quoted == 1 ? only : words;
        }
        i = end + 1;
      }
    }
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
    int newlineAt = -1;
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
        newlineAt = x == 'n' && newlineAt < 0 ? n : newlineAt;
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
    newline = newlineAt >= 0 && newlineAt < n;
    return n;
  }
}
