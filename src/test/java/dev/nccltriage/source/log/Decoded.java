package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;

/** What a {@link LineDecoder} makes of one line, for tests: its text, or null if it is not so wrapped. */
final class Decoded {
  private Decoded() {}

  static String text(LineDecoder decoder, String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    int n = decoder.decode(b, 0, b.length);
    return n < 0 ? null : new String(decoder.buffer(), 0, n, StandardCharsets.UTF_8);
  }
}
