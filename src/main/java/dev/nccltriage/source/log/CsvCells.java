package dev.nccltriage.source.log;

/**
 * The lines of a CSV export's cell that spans lines (RFC 4180: a quoted field may hold line
 * breaks, and a quote inside it is doubled; logfmt and JSON escape theirs instead): where the
 * text of its first line starts, and where that of its last line ends.
 */
final class CsvCells {
  private CsvCells() {}

  /**
   * Where the line at [s, e), which ends in a quote, ends if it is the last line of such a cell.
   * Such a line holds an odd number of quotes and
   * the first that is not doubled closes the cell: its text ends there, and what follows is the
   * row's other fields. A line that starts with a quote (a whole row) or holds an even number of
   * them (a row, a logfmt record, a text that quotes a name) is left as it is: e.
   */
  static int cellEnd(byte[] b, int s, int e) {
    if (b[s] == '"' || !Bytes.oddCount(b, s, e, (byte) '"')) {
      return e;
    }
    int q = Bytes.indexOfByte(b, s, e, (byte) '"');
    while (q >= 0 && q + 1 < e && b[q + 1] == '"') {
      q = Bytes.indexOfByte(b, q + 2, e, (byte) '"');
    }
    return q > s ? q : e;
  }

  /**
   * Where the text starts on the first line of a CSV row whose last cell spans lines (the line opens
   * with a quoted field and holds an odd number of quotes): past the quote that opens that cell,
   * the last one after a comma that is not doubled; -1 for any other line.
   */
  static int cellStart(byte[] b, int s, int e) {
    if (s >= e || b[s] != '"' || !Bytes.oddCount(b, s, e, (byte) '"')) {
      return -1;
    }
    for (int q = e - 1; q > s; q--) {
      if (b[q] == '"' && b[q - 1] == ',' && (q + 1 >= e || b[q + 1] != '"')) {
        return q + 1;
      }
    }
    return -1;
  }
}
