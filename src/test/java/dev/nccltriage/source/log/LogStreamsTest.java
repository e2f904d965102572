package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stream's text after its first bytes are sniffed (gzip, UTF-16): every byte, in order, whatever
 * the sizes of the stream's reads (a pipe's short reads) and of the reader's.
 */
class LogStreamsTest {
  /** A pipe: each read gives at most a few KB of what was asked; counts the available() asked. */
  private static final class ShortReads extends InputStream {
    private final ByteArrayInputStream in;
    private final Random sizes = new Random(7);
    int availableAsked;

    ShortReads(byte[] b) {
      in = new ByteArrayInputStream(b);
    }

    @Override
    public int read() {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) {
      return in.read(b, off, Math.min(len, 1 + sizes.nextInt(5000)));
    }

    @Override
    public int available() {
      availableAsked++;
      return in.available();
    }
  }

  private static byte[] text(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; sb.length() < n; i++) {
      sb.append("node-").append(i % 7).append(":1:2 [0] NCCL INFO line ").append(i).append('\n');
    }
    return sb.substring(0, n).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] readAll(InputStream in, int chunk) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] b = new byte[chunk];
    for (int n; (n = in.read(b, 0, b.length)) >= 0; ) {
      out.write(b, 0, n);
    }
    return out.toByteArray();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 31, 32, 65535, 65536, 65537, 300_000})
  void everyByteInOrder(int size) throws Exception {
    byte[] plain = text(size);
    for (int chunk : new int[] {1, 4096, 1 << 20}) {
      ShortReads pipe = new ShortReads(plain);
      InputStream in = LogStreams.decompressed("-", pipe);
      assertThat(readAll(in, chunk)).as("plain, %d bytes, reads of %d", size, chunk).isEqualTo(plain);
      // a pipe's available() is two system calls: asked while the head is sniffed, not per read after
      assertThat(pipe.availableAsked).as("available() asked").isLessThanOrEqualTo(2);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 70_000})
  void gzipAndUtf16AreDecoded(int size) throws Exception {
    byte[] plain = text(size);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(plain);
    }
    assertThat(readAll(LogStreams.decompressed("-", new ByteArrayInputStream(gz.toByteArray())), 8192)).isEqualTo(plain);
    byte[] utf16 = ("\uFEFF" + new String(plain, StandardCharsets.US_ASCII)).getBytes(StandardCharsets.UTF_16LE);
    assertThat(readAll(LogStreams.decompressed("-", new ByteArrayInputStream(utf16)), 8192)).isEqualTo(plain);
  }
}
