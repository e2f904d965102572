package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.DEFAULT_MAX_LINE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.CsvExports;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file split into chunks parsed in parallel must give exactly the facts of one sequential pass:
 * chunks start at arbitrary byte offsets (parallelMinBytes=1), inside lines, inside CRLF pairs.
 */
class ParallelChunksTest {
  @TempDir static Path dir;
  private static Path all;
  private static Path allCrlf;

  @BeforeAll
  static void concatenate() throws IOException {
    byte[] b = Logs.allLogsConcatenated();
    all = Files.write(dir.resolve("all.log"), b);
    String crlf = new String(b, StandardCharsets.ISO_8859_1).replace("\r\n", "\n").replace("\n", "\r\n");
    allCrlf = Files.write(dir.resolve("all-crlf.log"), crlf.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** Every field of the record, compared one by one so a failure names the field. */
  static void assertSameFacts(LogFacts parallel, LogFacts serial, String what) {
    assertSameFacts(parallel, serial, what, Set.of());
  }

  static void assertSameFacts(LogFacts parallel, LogFacts serial, String what, Set<String> skip) {
    SoftAssertions soft = new SoftAssertions();
    for (RecordComponent c : LogFacts.class.getRecordComponents()) {
      if (skip.contains(c.getName())) {
        continue;
      }
      try {
        soft.assertThat(c.getAccessor().invoke(parallel)).as("%s: %s", what, c.getName())
            .isEqualTo(c.getAccessor().invoke(serial));
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
    }
    soft.assertAll();
  }

  private static LogFacts serial(Path file, int maxLine) throws Exception {
    return Logs.parseFile(file, 1, maxLine, Long.MAX_VALUE);
  }

  private static LogFacts parallel(Path file, int threads, int maxLine) throws Exception {
    return Logs.parseFile(file, threads, maxLine, 1);
  }

  @Test
  void concatenatedLogsWithThreeThreads() throws Exception {
    LogFacts s = serial(all, DEFAULT_MAX_LINE);
    LogFacts p = parallel(all, 3, DEFAULT_MAX_LINE);
    // the fields the brief names, then the whole record
    assertThat(p.transport()).isEqualTo(s.transport()).isEqualTo("mixed");
    assertThat(p.gdr()).isEqualTo(s.gdr());
    assertThat(p.netChannels()).isEqualTo(s.netChannels());
    assertThat(p.netChannels().total()).isGreaterThan(100);
    assertThat(p.hcas()).isEqualTo(s.hcas());
    assertThat(p.nodes()).isEqualTo(s.nodes());
    assertThat(p.ranks()).isEqualTo(s.ranks());
    assertThat(p.env()).isEqualTo(s.env()).isNotEmpty();
    assertThat(p.errors()).isEqualTo(s.errors()).isNotEmpty();
    for (Map.Entry<String, ?> e : s.evidence().entrySet()) {
      assertThat(p.evidenceFor(e.getKey())).as("evidence %s", e.getKey()).isEqualTo(e.getValue());
    }
    assertSameFacts(p, s, "all logs, 3 threads");
  }

  @ParameterizedTest(name = "{0} threads")
  @ValueSource(ints = {2, 4, 5, 7, 8, 16})
  void concatenatedLogsWithOtherSplits(int threads) throws Exception {
    assertSameFacts(parallel(all, threads, DEFAULT_MAX_LINE), serial(all, DEFAULT_MAX_LINE), threads + " threads");
  }

  /**
   * A log whose text is a quoted field with a field after it (CloudWatch Logs Insights' CSV, a
   * collector's logfmt): whether a line is unquoted is the line's own business, not what the lines
   * before it in the same part showed, so parts give what the whole file gives.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"csv", "logfmt", "csv cells", "csv cells, a column after"})
  void quotedFieldsWithFieldsAfterThem(String form) throws Exception {
    String text = new String(Files.readAllBytes(all), StandardCharsets.ISO_8859_1);
    StringBuilder b = new StringBuilder(form.equals("csv") ? "@timestamp,@message,@logStream\n" : "");
    if (form.startsWith("csv cells")) {
      // a part may start inside a cell, and a cell's last line closes it
      b.append(CsvExports.multiLineCells(List.of(text.split("\n", -1)), new Random(7), !form.endsWith("after")));
    } else {
      for (String line : text.split("\n", -1)) {
        if (form.equals("csv")) {
          b.append("2026-05-01 10:00:00.100,\"").append(line.replace("\"", "\"\"")).append("\",trainer-0/main\n");
        } else {
          b.append("ts=1 level=info msg=\"").append(line.replace("\\", "\\\\").replace("\"", "\\\""))
              .append("\" pod=trainer-0\n");
        }
      }
    }
    Path wrapped = Files.writeString(dir.resolve("all-" + form + ".log"), b, StandardCharsets.ISO_8859_1);
    LogFacts s = serial(wrapped, DEFAULT_MAX_LINE);
    assertThat(s.transport()).isEqualTo("mixed");
    for (int threads : new int[] {3, 7}) {
      assertSameFacts(parallel(wrapped, threads, DEFAULT_MAX_LINE), s, form + ", " + threads + " threads");
    }
  }

  /** The first line of a part is unquoted as any other: no earlier line has to show the form. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"2026-05-01 10:00:00.100,\"Using network Socket\",trainer-0/main",
      "ts=1 msg=\"Using network Socket\" pod=w-0"})
  void aBareMessageInAQuotedFieldOnAPartsFirstLine(String line) {
    LogFacts f = Logs.parse(line + "\n");
    assertThat(f.ncclLines()).isEqualTo(1);
    assertThat(f.transport()).isEqualTo("Socket");
  }

  @ParameterizedTest(name = "{0} threads")
  @ValueSource(ints = {3, 5})
  void crlfLogs(int threads) throws Exception {
    LogFacts s = serial(allCrlf, DEFAULT_MAX_LINE);
    assertSameFacts(parallel(allCrlf, threads, DEFAULT_MAX_LINE), s, "CRLF, " + threads + " threads");
    assertThat(s.netChannels()).isEqualTo(serial(all, DEFAULT_MAX_LINE).netChannels());
  }

  /** Shift every chunk boundary by prepending a few bytes: 25 seeded shifts, 3 threads. */
  @Test
  void chunkBoundariesAtShiftedOffsets() throws Exception {
    byte[] body = Files.readAllBytes(all);
    Random r = new Random(20260501L);
    for (int i = 0; i < 25; i++) {
      int shift = r.nextInt(4000);
      byte[] shifted = new byte[shift + body.length];
      java.util.Arrays.fill(shifted, 0, shift, (byte) (shift % 3 == 0 ? '\n' : '#'));
      System.arraycopy(body, 0, shifted, shift, body.length);
      Path f = Files.write(dir.resolve("shift.log"), shifted);
      assertSameFacts(parallel(f, 3, DEFAULT_MAX_LINE), serial(f, DEFAULT_MAX_LINE), "shift " + shift);
    }
  }

  /**
   * Over-long lines (beyond the reader's 1 MiB buffer, so truncated whatever the read sizes) across
   * chunk boundaries: each is counted once, and the lines after them keep their numbers.
   */
  @Test
  void overlongLinesAcrossChunkBoundaries() throws Exception {
    byte[] body = Files.readAllBytes(all);
    byte[] huge = new byte[(1 << 20) + 3 * DEFAULT_MAX_LINE];
    java.util.Arrays.fill(huge, (byte) 'q');
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int third = body.length / 3;
    b.write(body, 0, third);
    b.write(huge);
    b.write('\n');
    b.write(body, third, third);
    b.write(huge);
    b.write(huge); // no newline between: one line of twice the size
    b.write('\n');
    b.write(body, 2 * third, body.length - 2 * third);
    Path f = Files.write(dir.resolve("overlong.log"), b.toByteArray());
    LogFacts s = serial(f, DEFAULT_MAX_LINE);
    assertThat(s.inputs().get(0).truncatedLines()).isEqualTo(2);
    for (int threads : new int[] {2, 3, 5, 11}) {
      assertSameFacts(parallel(f, threads, DEFAULT_MAX_LINE), s, "overlong lines, " + threads + " threads");
    }
  }

  static Stream<Named<Path>> eachLog() {
    return Logs.allLogs().stream().map(p -> Named.of(p.getParent().getFileName() + "/" + p.getFileName(), p));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("eachLog")
  void eachLogAlone(Path log) throws Exception {
    LogFacts s = serial(log, DEFAULT_MAX_LINE);
    Set<String> skip = Set.of();
    for (int threads : new int[] {2, 3, 9}) {
      assertSameFacts(parallel(log, threads, DEFAULT_MAX_LINE), s, log + ", " + threads + " threads", skip);
    }
  }

  private static final String PER_LINE_23 = """
      dgx1:20811:20811 [0] NCCL INFO NET : Using interface ib0:192.168.30.11<0>
      dgx1:20811:20811 [0] NCCL INFO NET : Using interface eno1:10.0.0.11<0>
      dgx1:20811:20811 [0] NCCL INFO NET : Using interface docker0:172.17.0.1<0>
      dgx1:20811:20811 [0] NCCL INFO NET/IB: [0] mlx5_0:1/IB
      dgx1:20811:20811 [0] NCCL INFO NET/IB: [1] mlx5_1:1/IB
      dgx1:20811:20811 [0] NCCL INFO NET/IB: [2] mlx5_2:1/IB
      dgx1:20811:20811 [0] NCCL INFO NET/IB: [3] mlx5_3:1/IB
      dgx1:20811:20811 [0] NCCL INFO Using internal Network IB
      """;

  @Test
  void perLineHcasSplitAcrossChunks() throws Exception {
    Path f = Files.writeString(dir.resolve("per-line.log"), PER_LINE_23);
    LogFacts s = serial(f, DEFAULT_MAX_LINE);
    assertThat(s.hcas()).extracting(h -> h.index()).containsExactly(0, 1, 2, 3);
    assertSameFacts(parallel(f, 4, DEFAULT_MAX_LINE), s, "per-line HCAs, 4 threads");
  }

  @Test
  void repeatedBootstrapLineOfOneProcessSplitAcrossChunks() throws Exception {
    Path f = Files.writeString(dir.resolve("bootstrap.log"), String.join("\n",
        "[pod/trainer-worker-0/pytorch] 2026-05-01T10:00:00.123456789Z a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
        "a:1:1 [0] NCCL INFO Bootstrap : Using net1:192.168.0.1<0>",
        ""));
    LogFacts s = serial(f, DEFAULT_MAX_LINE);
    assertSameFacts(parallel(f, 2, DEFAULT_MAX_LINE), s, "two Bootstrap lines, 2 threads");
  }

  @Test
  void perLineSocketInterfacesSplitAcrossChunks() throws Exception {
    Path f = Files.writeString(dir.resolve("per-line.log"), PER_LINE_23);
    LogFacts s = serial(f, DEFAULT_MAX_LINE);
    assertThat(s.socketInterfaces()).extracting(i -> i.name()).containsExactly("ib0", "eno1", "docker0");
    assertSameFacts(parallel(f, 3, DEFAULT_MAX_LINE), s, "per-line interfaces, 3 threads");
  }

  @Test
  void tinyFiles() throws Exception {
    for (String text : List.of("", "\n", "x", "\r\n\r\n", "a:1:1 [0] NCCL INFO Using network IB",
        "a:1:1 [0] NCCL INFO Using network IB\n", "\nb:1:1 [0] NCCL INFO Using network Socket\n\n")) {
      Path f = Files.writeString(dir.resolve("tiny.log"), text);
      for (int threads : new int[] {2, 3, 8}) {
        assertSameFacts(parallel(f, threads, DEFAULT_MAX_LINE), serial(f, DEFAULT_MAX_LINE),
            "'" + text.replace("\n", "\\n") + "', " + threads + " threads");
      }
    }
  }
}
