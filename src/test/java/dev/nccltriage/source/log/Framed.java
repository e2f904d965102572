package dev.nccltriage.source.log;

/**
 * A line's bytes inside a larger buffer, as the reader hands lines over: a scan given [s, e) must
 * read nothing outside it, so the tests put bytes around it that would change its answer.
 */
final class Framed {
  private Framed() {}

  /** {@code text} at offset {@code before}, {@code after} more bytes behind it, all others {@code fill}. */
  static byte[] within(byte[] text, int before, int after, byte fill) {
    byte[] b = new byte[before + text.length + after];
    java.util.Arrays.fill(b, fill);
    System.arraycopy(text, 0, b, before, text.length);
    return b;
  }
}
