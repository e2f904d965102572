package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * Python's report of an exception, by the format of its {@code traceback} module: the line
 * "Traceback (most recent call last):", the frames (each line indented: the file and line, the
 * source, its carets), then the exception's line at the header's indentation, {@code
 * qualified.Name: message} or the name alone. Python prints it for an exception nothing caught (then
 * the process exits) and for one a handler printed ({@code traceback.print_exc()}, a logger's
 * {@code exc_info}): the lines alone do not tell the two apart, so the exception's line is evidence
 * of a possible failure, not of a failure. (PyTorch's distributed excepthook tags an uncaught one's
 * lines with "[rankN]: ", which {@link CrashMarkers} reads as a failure.)
 *
 * <p>One per part of a log, fed the lines no NCCL reader took, in order: NCCL's own lines printed
 * between a traceback's lines (other threads, other ranks) leave it open; another program's line
 * that is neither a frame nor the exception closes it. A traceback cut by a part's start is not seen.
 */
final class Tracebacks {
  private static final byte[] HEADER = ascii("Traceback (most recent call last):");

  private boolean open;
  private int headerIndent; // the blanks and quoting before the open traceback's header

  /**
   * Whether the line whose text is [t, e), after {@code indent} bytes of blanks or a paste's quoting,
   * is the exception's line that ends an open traceback. Every line that no NCCL reader took is to be
   * given, in order (the state moves with each).
   */
  boolean raisedAt(byte[] b, int t, int e, int indent) {
    if (t >= e || open && indent > headerIndent) {
      return false; // a frame, its source line or carets; a quoted blank line
    }
    boolean wasOpen = open;
    open = b[t] == 'T' && startsWith(b, t, e, HEADER) && blankFrom(b, t + HEADER.length, e);
    headerIndent = indent;
    return wasOpen && !open && exceptionLine(b, t, e);
  }

  /** "name(.name)*" then ": " and a message, or the line's end. */
  private static boolean exceptionLine(byte[] b, int t, int e) {
    int i = t;
    while (true) {
      int start = i;
      if (i < e && CrashMarkers.isNameByte(b[i]) && !Bytes.isDigit(b[i])) {
        i++;
        while (i < e && CrashMarkers.isNameByte(b[i])) {
          i++;
        }
      }
      if (i == start) {
        return false;
      }
      if (i < e && b[i] == '.') {
        i++;
        continue;
      }
      return i == e || i + 1 < e && b[i] == ':' && b[i + 1] == ' ' || i + 1 == e && b[i] == ':';
    }
  }

  private static boolean blankFrom(byte[] b, int i, int e) {
    while (i < e && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    return i == e;
  }
}
