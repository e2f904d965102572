package dev.nccltriage.source.log;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reader hands over the lines a plain split at newlines gives, numbered alike, whatever the
 * read sizes, the part's limit, a skipped first line, over-long lines, blank lines and ESC bytes,
 * and whichever lane (the sink's {@code lineAt} or {@code line}) takes each, or whether the sink
 * vouches for a line's first bytes when it declines it. Random inputs against
 * a model of the contract, written the slow and obvious way.
 */
class LineReaderSplitTest {
  /** A line as handed over: its bytes, number, whether cut, and (line lane only) whether ESC may be in it. */
  private record Got(String text, long lineNo, boolean truncated, Boolean escape) {}

  private static List<Got> model(byte[] data, long limit, boolean skipFirst, int maxLine) {
    List<Got> out = new ArrayList<>();
    long lineNo = skipFirst ? -1 : 0;
    int pos = 0;
    while (pos < data.length && pos < limit) {
      int nl = pos;
      while (nl < data.length && data[nl] != '\n') {
        nl++;
      }
      boolean cut = nl - pos > maxLine;
      int end = cut ? pos + maxLine : nl;
      boolean escape = cut || nl == data.length;
      for (int i = pos; i < end && !escape; i++) {
        escape = data[i] == 0x1b;
      }
      if (++lineNo > 0) {
        out.add(new Got(new String(data, pos, end - pos, ISO_8859_1), lineNo, cut, escape));
      }
      pos = nl + 1;
    }
    return out;
  }

  private static InputStream randomReads(byte[] data, Random r, int most) {
    return new ByteArrayInputStream(data) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + r.nextInt(most)));
      }
    };
  }

  private static byte[] randomLog(Random r, int maxLine) {
    StringBuilder sb = new StringBuilder();
    int lines = r.nextInt(60);
    for (int i = 0; i < lines; i++) {
      int n = r.nextInt(4) == 0 ? 0 : r.nextInt(r.nextInt(5) == 0 ? 3 * maxLine : maxLine + 2);
      for (int j = 0; j < n; j++) {
        int k = r.nextInt(40);
        sb.append(k == 0 ? '\u001b' : k == 1 ? '\r' : k < 8 ? 'a' : (char) ('b' + k % 20));
      }
      if (i < lines - 1 || r.nextBoolean()) {
        sb.append('\n');
      }
    }
    return sb.toString().getBytes(ISO_8859_1);
  }

  @Test
  void handsOverWhatASplitAtNewlinesGives() throws Exception {
    Random r = new Random(14);
    for (int round = 0; round < 3000; round++) {
      int maxLine = 4 + r.nextInt(40);
      byte[] data = randomLog(r, maxLine);
      long limit = r.nextInt(3) == 0 ? Long.MAX_VALUE : r.nextInt(data.length + 2);
      boolean skipFirst = r.nextInt(4) == 0;
      List<Got> got = new ArrayList<>();
      List<Long> offered = new ArrayList<>();
      LineSink sink = recorder(got, offered);
      long n = new LineReader(maxLine).read(randomReads(data, r, 1 + r.nextInt(3 * maxLine)), limit, sink, skipFirst);
      check("round " + round + ", limit " + limit + ", skipFirst " + skipFirst + ", maxLine " + maxLine,
          model(data, limit, skipFirst, maxLine), got, offered, n);
    }
  }

  /**
   * A chunk read where it lies (a stream's chunk, filled by another thread) gives what the same
   * bytes give as a stream: the bytes after its length (a reused buffer's last chunk, newlines among
   * them) are none of its lines, and a reader that read a stream before reads a chunk alike.
   */
  @Test
  void readsAChunkWhereItLiesAsTheStreamOfItsBytes() throws Exception {
    Random r = new Random(15);
    for (int round = 0; round < 3000; round++) {
      int maxLine = 4 + r.nextInt(40);
      LineReader reader = new LineReader(maxLine);
      if (r.nextBoolean()) {
        reader.read(new ByteArrayInputStream(randomLog(r, maxLine)), Long.MAX_VALUE, new LineSink() {
          @Override
          public void line(byte[] b, int s, int e, long lineNo, boolean truncated, boolean escape) {}
        });
      }
      byte[] data = randomLog(r, maxLine);
      byte[] chunk = new byte[data.length + r.nextInt(3 * maxLine)];
      for (int i = data.length; i < chunk.length; i++) {
        chunk[i] = (byte) (r.nextInt(3) == 0 ? '\n' : 'a' + r.nextInt(3));
      }
      System.arraycopy(data, 0, chunk, 0, data.length);
      List<Got> got = new ArrayList<>();
      List<Long> offered = new ArrayList<>();
      long n = reader.read(chunk, data.length, recorder(got, offered));
      check("round " + round + ", maxLine " + maxLine, model(data, Long.MAX_VALUE, false, maxLine), got, offered, n);
    }
  }

  private static void check(String input, List<Got> want, List<Got> got, List<Long> offered, long n) {
    // the fast lane does not say whether ESC was there: compare that only where line() said it
    List<Got> comparable = new ArrayList<>();
    for (int i = 0; i < want.size() && i < got.size(); i++) {
      Got w = want.get(i);
      comparable.add(got.get(i).escape() == null ? new Got(w.text(), w.lineNo(), w.truncated(), null) : w);
    }
    assertThat(got).as(input).hasSameSizeAs(want).containsExactlyElementsOf(comparable);
    assertThat(n).as(input).isEqualTo(want.isEmpty() ? 0 : want.get(want.size() - 1).lineNo());
    assertThat(offered).as(input + ": each line offered to the fast lane at most once").doesNotHaveDuplicates();
  }

  private static LineSink recorder(List<Got> got, List<Long> offered) {
    return new LineSink() {
      @Override
      public void line(byte[] b, int s, int e, long lineNo, boolean truncated, boolean escape) {
        got.add(new Got(new String(b, s, e - s, ISO_8859_1), lineNo, truncated, escape));
      }

      @Override
      public int lineAt(byte[] b, int s, int limit, long lineNo) {
        offered.add(lineNo);
        if (b[s] == 'b') {
          // declines, vouching for a run of bytes with neither a newline nor an ESC: the reader
          // searches on from there (and must still find the newline and any ESC after it)
          int clean = s;
          while (clean < limit && clean - s < lineNo % 9 && b[clean] != '\n' && b[clean] != 0x1b) {
            clean++;
          }
          return -2 - clean;
        }
        if (b[s] != 'a') {
          return -1;
        }
        for (int i = s; i < limit; i++) {
          if (b[i] == '\n') {
            got.add(new Got(new String(b, s, i - s, ISO_8859_1), lineNo, false, null));
            return i;
          }
        }
        return -1;
      }
    };
  }
}
