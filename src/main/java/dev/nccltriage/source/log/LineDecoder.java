package dev.nccltriage.source.log;

/**
 * A wrapper that holds a line's text in an encoding of its own (a JSON string, a quoted CSV or
 * logfmt field): the text is decoded into a scratch buffer, which the parser then reads in place
 * of the line, so that no value at the end of a record carries the wrapper's tail.
 */
interface LineDecoder {
  /** Decodes the text of the line [s, e) into {@link #buffer}; its length, or -1 if the line is not so wrapped. */
  int decode(byte[] b, int s, int e);

  /** The buffer {@link #decode} wrote into (valid until the next call). */
  byte[] buffer();

  /** Whether the last {@link #decode} wrote an ESC byte from an escape (an ESC as it is was copied as it is). */
  boolean decodedEscape();

  /**
   * Whether the text the last {@link #decode} wrote holds a line end ({@code \n}) inside it, not only
   * at its end: a shipper's multi-line event (a traceback kept as one record), whose lines are the
   * log's.
   */
  boolean decodedNewline();
}
