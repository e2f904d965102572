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
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LogParser#lineAt} takes channel lines before their end is known; it must count exactly
 * what the line-by-line path counts. Each input is parsed twice, once with the lane and once
 * through a sink that only forwards whole lines, and the facts must be equal, down to evidence.
 */
class ChannelLaneTest {
  /** Whole lines only: the default lineAt declines every line. */
  private static LineSink withoutLane(LogParser p) {
    return (b, s, e, lineNo, truncated, esc) -> p.line(b, s, e, lineNo, truncated, esc);
  }

  private static LogFacts parse(byte[] bytes, boolean lane, int maxLine, int readSize) throws IOException {
    LogAccumulator acc = new LogAccumulator();
    LogParser parser = new LogParser(acc, "x.log");
    InputStream in = new ByteArrayInputStream(bytes);
    if (readSize > 0) {
      InputStream all = in;
      in = new InputStream() { // short reads: lines straddle the reader's buffer refills
        @Override
        public int read() throws IOException {
          return all.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          return all.read(b, off, Math.min(len, readSize));
        }
      };
    }
    new LineReader(maxLine).read(in, Long.MAX_VALUE, lane ? parser : withoutLane(parser));
    List<InputStats> stats = List.of(new InputStats("x.log", acc.lines, acc.ncclLines, acc.unplaced, acc.truncated));
    return new FactsBuilder(acc, stats).build();
  }

  private static void assertLaneChangesNothing(byte[] bytes, int maxLine, int readSize) throws IOException {
    LogFacts with = parse(bytes, true, maxLine, readSize);
    LogFacts without = parse(bytes, false, maxLine, readSize);
    assertThat(with).isEqualTo(without);
  }

  @Test
  void everySampleLog() throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    try (Stream<Path> s = Files.list(Path.of("samples", "logs"))) {
      for (Path p : s.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
        all.write(Files.readAllBytes(p));
        all.write('\n');
      }
    }
    assertThat(all.size()).isGreaterThan(10_000);
    assertLaneChangesNothing(all.toByteArray(), LineReader.DEFAULT_MAX_LINE, 0);
    assertLaneChangesNothing(all.toByteArray(), LineReader.DEFAULT_MAX_LINE, 997);
  }

  /** Channel lines in every shape the lane must take or leave, from interleaved threads. */
  private static final String[] MESSAGES = {
    "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
    "Channel 01/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA",
    "Channel 01/0 : 0[0] -> 8[0] [send] via NET/IB/3/GDRDMA",
    "Channel 02/0 : 0[0] -> 8[0] [send] via NET/Socket/0",
    "Channel 02/1 : 0[0] -> 8[0] [send] via NET/IBext_v8/2(1)/GDRDMA",
    "Channel 02/1 : 0[0] -> 8[0] [send] via NET/IBext_v8/2(1/GDRDMA",
    "Channel 03/0 : 0[0] -> 8[0] [send] via NET/AWS Libfabric/1/GDRDMA",
    "Channel 03/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA/and/a/long/tail",
    "Channel 04/0 : 3[3] -> 4[4] via P2P/direct pointer/read",
    "Channel 04/0 : 3[3] -> 4[4] via SHM/direct/direct",
    "Channel 05/0 : 3[3 -> 4[4] via P2P/IPC",
    "Channel 05/02 :    0   1   2   3",
    "Ring 00 : 0[0] -> 1[1] via P2P/IPC",
    "Ring 00 : 7 -> 8 [send] via NET/IB/0/GDRDMA",
    "Channel 06/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\r",
    "Channel 06/0 : 0[0] -> 8[0] [send] via \u001b[1mNET/IB/0\u001b[0m",
    "Channel 07/0 : 0[0] -> 1[1] via P2P/CUMEM/read  ",
    // what a wrapper leaves after the text (Envelope.trimSuffix): the last line of a CSV cell that
    // spans lines, with the row's later columns; markdown; a code span
    "Channel 10/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\"",
    "Channel 10/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\",\"w-0\"",
    "Channel 10/0 : 0[0] -> 1[1] via P2P/IPC\",\"w-0\"",
    "Channel 11/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA**",
    "Channel 11/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA`",
    "Channel 11/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA|",
    "Channel 11/0 : 0[0] -> 1[1] via P2P/IPC**",
    "Channel 07/0 : 0[0] -> 1[1] via P2P/\u00e9t\u00e9",
    "Channel 08/0 : 0[0] -> 8[0] [send] via NET/IB/0node-09:9:9 [1] NCCL INFO Channel 08/0 : 9[1] -> 1[1] via NET/IB/1/GDRDMA",
    "Channel 08/0 : 0[0] -> 1[1] via P2P/IPCnode-09:9:9 [1] NCCL INFO Using network IB",
    "Channel 09/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA node-09:9:9 [1] NCCL WARN NET/IB : Got completion with error 12",
    "Connected all rings, use ring PXN 0 GDR 1",
    "Using network IB",
    "Using network \u001b[1mIB\u001b[0m",
    "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.0.0.1<0>",
    "transport/net.cc:1302 -> 6",
    "comm 0x55d0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
    "Channel",
    "",
  };
  private static final String[] PREFIXES = {
    "node-01:100:100 [0] NCCL INFO ", "node-01:101:101 [1] NCCL INFO ", "node-02:200:200 [0] NCCL INFO ",
    "node-02:200:277 [0] NCCL INFO ", "a-very-long-host-name-shared-by-eight-ranks:300:300 [2] NCCL INFO ",
    "a-very-long-host-name-shared-by-eight-ranks:301:301 [3] NCCL INFO ", "[1,0]<stdout>:node-03:5:5 [0] NCCL INFO ",
    "n:1:1 [0] NCCL INFO ", "node-01:100:100 [0] NCCL WARN ", "",
    // an ESC in a wrapper before a known thread's prefix: the reader must still see it
    "[pod/trainer-0\u001b[31m/main] node-02:200:200 [0] NCCL INFO ", "[pod/trainer-0/main] node-02:200:200 [0] NCCL INFO ",
  };

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void mixedChannelShapes(long seed) throws IOException {
    Random r = new Random(seed);
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      String prefix = PREFIXES[r.nextInt(PREFIXES.length)];
      int run = 1 + r.nextInt(8); // a thread prints a few lines in a row, as interleaved logs do
      for (int j = 0; j < run; j++) {
        String line = prefix + MESSAGES[r.nextInt(MESSAGES.length)];
        if (r.nextInt(40) == 0) { // a JSON record, whose "\n" puts a newline in the decoded line
          line = "{\"log\":\"" + (r.nextBoolean() ? "x\\n" : "") + line.replace("\u001b", "\\u001b") + "\"}";
        }
        if (r.nextInt(40) == 0) { // a CSV export's column
          line = "\"2026-05-01T10:00:00Z\",\"" + line.replace("\"", "\"\"") + "\"";
        }
        if (r.nextInt(40) == 0) { // what such a record's decoded line holds, as two lines
          log.append("x\n");
        }
        log.append(line).append(r.nextInt(50) == 0 ? "\r\n" : "\n");
      }
    }
    byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);
    assertLaneChangesNothing(bytes, LineReader.DEFAULT_MAX_LINE, 0);
    assertLaneChangesNothing(bytes, 64, 0); // lines cut at 64 bytes
    assertLaneChangesNothing(bytes, LineReader.DEFAULT_MAX_LINE, 1 + r.nextInt(200));
  }

  @Test
  void theLaneTakesTheCommonLines() throws IOException {
    assertThat(linesLeftToTheLineByLinePath("")).isEqualTo(1); // the first one fills the cache
  }

  /**
   * A thread's lines are found again after what wraps them: NCCL's own timestamp (2.26+, a new
   * time on each line), Slurm's task label, and a launcher's tag before a tag the envelope does not
   * know (matched as part of the thread's prefix). {@code %02d}: the line's seconds.
   */
  @ParameterizedTest
  @ValueSource(strings = {"[2026-05-01 10:00:%02d] ", "[2026-05-01 10:00:%02d.123456] ", "3: ", "  3: ",
      "3: [2026-05-01 10:00:%02d] ", "[1,0]<stdout>:[155] ", "2026-05-01T10:00:%02dZ [155] "})
  void theLaneTakesTheLinesOfAWrappedThread(String wrapper) throws IOException {
    assertThat(linesLeftToTheLineByLinePath(wrapper)).isEqualTo(1);
  }

  /**
   * A wrapper no table knows that changes from line to line (grep -n's line number, cat -n's
   * column, a time with milliseconds): the lines are found past it, at the cost of a line on the
   * line-by-line path to notice that it changes and one for each new length of it (here up to
   * three digits). {@code %d}: the line's number.
   */
  @ParameterizedTest
  @ValueSource(strings = {"%d:", "logs/rank0.log:%d:", "%6d\t", "[10:00:%02d.%<03d] ", "1714550400.%06d "})
  void theLaneTakesTheLinesOfAThreadPastAWrapperThatChanges(String wrapper) throws IOException {
    assertThat(linesLeftToTheLineByLinePath(wrapper, 200)).isBetween(1, 4);
  }

  /**
   * Two jobs' logs one after the other (or a part of a file that begins with the longer one): the
   * second's prefixes are shorter than the key the first one's set, and are cached all the same.
   */
  @Test
  void theLaneTakesTheLinesOfAJobOfShorterPrefixesAfterALongerOne() throws IOException {
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      log.append("pytorchjob-llama-70b-pretrain-worker-12:113:548 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n");
    }
    for (int i = 0; i < 100; i++) {
      log.append("node-01:100:100 [0] NCCL INFO Channel 01/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA\n");
      log.append("node-01:100:100 [0] NCCL INFO Using network IB\n");
    }
    // each thread's first line
    assertThat(linesLeft(log.toString(), line -> line.contains("Channel"), 250)).isEqualTo(2);
  }

  private static int linesLeftToTheLineByLinePath(String wrapper) throws IOException {
    return linesLeftToTheLineByLinePath(wrapper, 60);
  }

  private static int linesLeftToTheLineByLinePath(String wrapper, int period) throws IOException {
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      log.append(String.format(wrapper, 2 * i % period))
          .append("node-01:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n");
      log.append(String.format(wrapper, (2 * i + 1) % period))
          .append("node-01:100:100 [0] NCCL INFO Channel 01/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA\n");
    }
    return linesLeft(log.toString(), line -> true, 200);
  }

  /**
   * How many of a log's lines {@code counted} accepts among those the lane left to the line-by-line
   * path; every line of the log ({@code lines}) must be counted as an NCCL line either way.
   */
  private static int linesLeft(String log, Predicate<String> counted, int lines) throws IOException {
    LogAccumulator acc = new LogAccumulator();
    LogParser parser = new LogParser(acc, "x.log");
    int[] left = {0};
    LineSink counting = new LineSink() {
      @Override
      public void line(byte[] b, int s, int e, long lineNo, boolean truncated, boolean esc) {
        if (counted.test(new String(b, s, e - s, StandardCharsets.UTF_8))) {
          left[0]++;
        }
        parser.line(b, s, e, lineNo, truncated, esc);
      }

      @Override
      public int lineAt(byte[] b, int s, int limit, long lineNo) {
        return parser.lineAt(b, s, limit, lineNo);
      }
    };
    new LineReader(LineReader.DEFAULT_MAX_LINE).read(
        new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), Long.MAX_VALUE, counting);
    assertThat(acc.lines).isEqualTo(lines);
    assertThat(acc.ncclLines).isEqualTo(lines);
    return left[0];
  }
}
