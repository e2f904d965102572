package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A stream (stdin, a pipe, a gzip file) is cut into chunks of whole lines and parsed on several
 * threads; the facts must be exactly those of one thread reading it line by line, whatever the
 * chunk size, the read sizes, over-long lines across chunks, CRLF, gzip or a missing last newline.
 */
class StreamChunksTest {
  private static byte[] all;

  @BeforeAll
  static void concatenate() throws IOException {
    all = Logs.allLogsConcatenated();
  }

  /** Hands out at most a few bytes per read, as a pipe may. */
  private static InputStream trickle(byte[] bytes, long seed) {
    Random r = new Random(seed);
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + r.nextInt(5000)));
      }
    };
  }

  private static LogFacts stdin(InputStream in, int threads, int maxLine) throws LogInputException {
    // parallelMinBytes 1: chunks as small as the line limit allows (maxLine + 2 bytes)
    return new NcclLogSource(in, threads, maxLine, 1).read(List.of("-"), Path.of("."));
  }

  private static void assertSameAsOneThread(byte[] bytes, int maxLine, String what) throws Exception {
    LogFacts one = stdin(new ByteArrayInputStream(bytes), 1, maxLine);
    for (int threads : new int[] {2, 3, 5}) {
      ParallelChunksTest.assertSameFacts(stdin(trickle(bytes, threads), threads, maxLine), one,
          what + ", maxLine " + maxLine + ", " + threads + " threads");
    }
  }

  @Test
  void everySampleConcatenatedWithSmallAndLargeChunks() throws Exception {
    for (int maxLine : new int[] {120, 700, 4096, 65536}) {
      assertSameAsOneThread(all, maxLine, "all samples");
    }
    assertThat(stdin(new ByteArrayInputStream(all), 3, 700).netChannels().total()).isGreaterThan(100);
  }

  @Test
  void crlfAndNoLastNewline() throws Exception {
    String crlf = new String(all, StandardCharsets.ISO_8859_1).replace("\n", "\r\n");
    assertSameAsOneThread(crlf.getBytes(StandardCharsets.ISO_8859_1), 300, "CRLF");
    byte[] cut = java.util.Arrays.copyOf(all, all.length - 7); // ends inside a line
    assertSameAsOneThread(cut, 300, "no last newline");
  }

  @Test
  void overLongLinesLongerThanAChunkAnywhere() throws Exception {
    Random r = new Random(11);
    for (int round = 0; round < 6; round++) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      int at = 0;
      for (int k = 0; k < 4; k++) {
        int next = at + r.nextInt((all.length - at) / 2 + 1);
        b.write(all, at, next - at);
        byte[] longLine = new byte[1 + r.nextInt(5000)];
        java.util.Arrays.fill(longLine, (byte) ('a' + k));
        b.write(longLine); // glued to whatever line it lands in
        if (r.nextBoolean()) {
          b.write('\n');
        }
        at = next;
      }
      b.write(all, at, all.length - at);
      if (round % 2 == 0) {
        b.write(new byte[3000]); // an over-long last line with no newline
      }
      assertSameAsOneThread(b.toByteArray(), 150, "long lines, round " + round);
    }
  }

  @Test
  void gzipOnStdinAndAnEmptyStream() throws Exception {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream o = new GZIPOutputStream(gz)) {
      o.write(all);
    }
    ParallelChunksTest.assertSameFacts(stdin(new ByteArrayInputStream(gz.toByteArray()), 3, 500),
        stdin(new ByteArrayInputStream(all), 1, 500), "gzip on stdin");
    LogFacts empty = stdin(new ByteArrayInputStream(new byte[0]), 3, 500);
    assertThat(empty.inputs()).hasSize(1);
    assertThat(empty.inputs().get(0).lines()).isZero();
    ParallelChunksTest.assertSameFacts(empty, stdin(new ByteArrayInputStream(new byte[0]), 1, 500), "empty");
  }
}
