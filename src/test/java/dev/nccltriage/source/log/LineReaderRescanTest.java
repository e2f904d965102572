package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A long line that arrives over many small reads (a pipe hands out 4-64 KiB) is looked at once:
 * the reader goes on searching for its newline where the last read ended, and offers the line to
 * the sink's fast lane once, not again from its start after every read. Counted, not timed.
 */
class LineReaderRescanTest {
  private static InputStream readsOf(byte[] bytes, int most) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, most));
      }
    };
  }

  @Test
  void longLineInSmallReadsIsOfferedOnce() throws Exception {
    byte[] line = new byte[60_000];
    java.util.Arrays.fill(line, (byte) 'x');
    line[line.length - 1] = '\n';
    byte[] twice = new byte[2 * line.length];
    System.arraycopy(line, 0, twice, 0, line.length);
    System.arraycopy(line, 0, twice, line.length, line.length);
    int[] offers = {0};
    List<Integer> lengths = new ArrayList<>();
    LineSink sink = new LineSink() {
      @Override
      public void line(byte[] b, int s, int e, long lineNo, boolean truncated, boolean esc) {
        lengths.add(e - s);
      }

      @Override
      public int lineAt(byte[] b, int s, int limit, long lineNo) {
        offers[0]++;
        return -1;
      }
    };
    long n = new LineReader(64 * 1024).read(readsOf(twice, 1000), Long.MAX_VALUE, sink);
    assertThat(n).isEqualTo(2);
    assertThat(lengths).containsExactly(59_999, 59_999);
    // before: offered after each of the ~60 reads that brought more of the line
    assertThat(offers[0]).isEqualTo(2);
  }
}
