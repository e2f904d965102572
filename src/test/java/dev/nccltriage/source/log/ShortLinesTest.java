package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.InputStats;
import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The reader hands a line of fewer than eight bytes to {@link LogParser#shortLine} and a run of
 * blank lines to {@link LogParser#blankLines}, which skip the searches that cannot find anything
 * in so few bytes. Each input is parsed three times, once so, once through a sink that gives every
 * line to {@link LogParser#line}, and once offering each short line to {@link LogParser#lineAt}
 * first (the reader does not offer it), and the facts must be equal, down to evidence and
 * line numbers.
 */
class ShortLinesTest {
  /** Every line to line(): LineSink's defaults for short and blank lines. */
  private static class WholeLines implements LineSink {
    final LogParser p;

    WholeLines(LogParser p) {
      this.p = p;
    }

    @Override
    public void line(byte[] b, int s, int e, long lineNo, boolean truncated, boolean esc) {
      p.line(b, s, e, lineNo, truncated, esc);
    }

    @Override
    public int lineAt(byte[] b, int s, int limit, long lineNo) {
      return p.lineAt(b, s, limit, lineNo);
    }
  }

  /**
   * The short path as it was before the reader tested for short lines first: every short line is
   * offered to lineAt first, which must decline it.
   */
  private static final class OfferedFirst extends WholeLines {
    OfferedFirst(LogParser p) {
      super(p);
    }

    @Override
    public void shortLine(byte[] b, int s, int e, long lineNo, long head) {
      assertThat(p.lineAt(b, s, e + 1, lineNo)).as("lineAt of a short line").isEqualTo(-1);
      p.shortLine(b, s, e, lineNo, head);
    }

    @Override
    public void blankLines(byte[] b, int s, int count, long lineNo) {
      p.blankLines(b, s, count, lineNo);
    }
  }

  private static LogFacts parse(byte[] bytes, boolean shortPath, int readSize) throws IOException {
    return parse(bytes, shortPath ? 1 : 0, readSize);
  }

  /** {@code path}: 0 every line to line(), 1 the reader's short path, 2 that path with lineAt offered each short line. */
  private static LogFacts parse(byte[] bytes, int path, int readSize) throws IOException {
    LogAccumulator acc = new LogAccumulator();
    LogParser parser = new LogParser(acc, "x.log");
    InputStream all = new ByteArrayInputStream(bytes);
    InputStream in = new InputStream() { // short reads: runs and short lines straddle the refills
      @Override
      public int read() throws IOException {
        return all.read();
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return all.read(b, off, Math.min(len, readSize));
      }
    };
    LineSink sink = path == 0 ? new WholeLines(parser) : path == 1 ? parser : new OfferedFirst(parser);
    new LineReader(LineReader.DEFAULT_MAX_LINE).read(in, Long.MAX_VALUE, sink);
    List<InputStats> stats = List.of(new InputStats("x.log", acc.lines, acc.ncclLines, acc.unplaced, acc.truncated));
    return new FactsBuilder(acc, stats).build();
  }

  private static void assertSameFacts(byte[] bytes) throws IOException {
    for (int readSize : new int[] {1 << 20, 4093, 13}) {
      LogFacts fast = parse(bytes, true, readSize);
      assertThat(fast).as("read %d bytes at a time", readSize).isEqualTo(parse(bytes, false, readSize));
      assertThat(fast).as("read %d bytes at a time, lineAt offered", readSize).isEqualTo(parse(bytes, 2, readSize));
    }
  }

  /** Words other programs print alone, and an exception's name after a traceback, in every wrapping. */
  private static final String[] SHORT = {
    "Killed", "Aborted", " Killed", "Killed\r", "SIGBUS", "SIGSEGV", "E", "Boom", "Boom: x", "KeyErr",
    "> E", " 0: E", "0: E", "\tE", "  E", "{}", "{\"\":1}", "#", "# x", "[E]", "[E] x", "x\r", "\r",
    "NCCL", "NCCL I", "] INFO", "Ring 0", "comm 0x", "NET/IB", "Channe", "Using", "\u00e9t\u00e9", "*",
    "\"x\"", "\"", "a,b,c", "k=v", "1", "100", "-1", "0x1f", "    a", "  x.y", "\t\tz",
  };

  private static final String TRACEBACK = "Traceback (most recent call last):\n"
      + "  File \"train.py\", line 3, in <module>\n    main()\n";

  /** Each word in a log of its own: the facts keep the first few pieces of evidence of a kind. */
  @Test
  void shortWordsBetweenNcclLinesAndTracebacks() throws IOException {
    String ib = "node-01:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n";
    for (String word : SHORT) {
      for (String quoting : new String[] {"", "> ", " 0: "}) {
        String log = ib + word + "\n" + quoting + TRACEBACK.replace("\n", "\n" + quoting).strip() + "\n" + word
            + "\n" + quoting + "E: x\n\n\n" + ib;
        assertSameFacts(log.getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /**
   * Each short word again and again in one log, where a traceback may be open, may have just ended
   * or may be waiting for its exception: the second time on, a quiet word is known ({@link
   * QuietLines}) and not read again, and what it does must not change.
   */
  @Test
  void repeatedWordsWhereverATracebackStands() throws IOException {
    StringBuilder log = new StringBuilder("node-01:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB\n");
    for (int round = 0; round < 3; round++) {
      for (String word : SHORT) {
        log.append(word).append('\n').append(TRACEBACK).append(word).append('\n').append(word).append('\n')
            .append(TRACEBACK).append("    ").append(word).append('\n').append(word).append("\n\n");
      }
    }
    assertSameFacts(log.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Short lines of digits and the bytes around them in ASCII, known quiet by their bytes alone
   * ({@link QuietLines#inert}) or not, at random, between tracebacks and NCCL lines.
   */
  @Test
  void randomNumbersAndTheirNeighbourBytes() throws IOException {
    Random rnd = new Random(11);
    String alphabet = "0123456789+,-./*: )]\t>|`'\"#%=x\u00ff";
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 6000; i++) {
      int n = 1 + rnd.nextInt(7);
      StringBuilder w = new StringBuilder();
      for (int j = 0; j < n; j++) {
        w.append(alphabet.charAt(rnd.nextInt(rnd.nextBoolean() ? 15 : alphabet.length())));
      }
      log.append(w).append('\n');
      switch (rnd.nextInt(40)) {
        case 0 -> log.append(TRACEBACK);
        case 1 -> log.append("node-01:100:100 [0] NCCL WARN Call to connect returned Connection refused\n");
        case 2 -> log.append("KeyError: 'x'\n");
        default -> { }
      }
    }
    byte[] bytes = log.toString().getBytes(StandardCharsets.ISO_8859_1);
    assertSameFacts(bytes);
  }

  /** Every real log's lines, each followed by pieces of itself short enough to be short lines. */
  @Test
  void piecesOfEveryRealLog() throws IOException {
    List<Path> logs = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of("samples", "logs"))) {
      s.filter(p -> p.toString().endsWith(".log")).sorted().forEach(logs::add);
    }
    Path corpus = Path.of("..", "shared", "corpus");
    if (Files.isDirectory(corpus)) {
      try (Stream<Path> s = Files.walk(corpus, 2)) {
        s.filter(p -> p.getFileName().toString().startsWith("log")).sorted().forEach(logs::add);
      }
    }
    assertThat(logs).hasSizeGreaterThan(20);
    Random rnd = new Random(7);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Path p : logs) {
      for (String line : Files.readString(p, StandardCharsets.ISO_8859_1).split("\n", -1)) {
        all.writeBytes(line.getBytes(StandardCharsets.ISO_8859_1));
        all.write('\n');
        int n = line.length();
        if (n > 0 && rnd.nextInt(3) == 0) {
          int from = rnd.nextInt(n);
          String piece = line.substring(from, Math.min(n, from + 1 + rnd.nextInt(7)));
          all.writeBytes(piece.getBytes(StandardCharsets.ISO_8859_1));
          all.write('\n');
          all.writeBytes("\n".repeat(rnd.nextInt(3)).getBytes(StandardCharsets.ISO_8859_1));
        }
      }
    }
    assertSameFacts(all.toByteArray());
  }

  @Test
  void runsOfBlankLinesCountEveryLine() throws IOException {
    StringBuilder log = new StringBuilder();
    for (int run = 0; run < 40; run++) {
      log.append("node-01:100:100 [0] NCCL WARN Call to connect returned Connection refused\n");
      log.append("\n".repeat(run)).append("x\n").append("\r\n".repeat(run % 3));
    }
    byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);
    assertSameFacts(bytes);
    LogFacts facts = parse(bytes, true, 1 << 20);
    long lines = log.chars().filter(c -> c == '\n').count();
    assertThat(facts.inputs().get(0).lines()).isEqualTo(lines);
  }
}
