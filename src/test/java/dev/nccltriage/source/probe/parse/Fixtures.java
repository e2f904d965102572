package dev.nccltriage.source.probe.parse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads the copied probe samples from {@code src/test/resources/probes/<dir>/<name>.txt}. */
final class Fixtures {
  private Fixtures() {}

  static String read(String dirAndName) {
    String path = "/probes/" + dirAndName + (dirAndName.endsWith(".txt") ? "" : ".txt");
    try (InputStream in = Fixtures.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("missing fixture " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
