package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.DEFAULT_MAX_LINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Inputs a log source meets in the field and in the hands of users: none of them may crash it. */
class HostileInputTest {
  private static final String HEALTHY = "samples/logs/01-healthy-ib-gdr-2.21.5.log";

  @TempDir static Path dir;

  /** One 60 MB line without a newline, written once for the tests that need it. */
  private static Path longLine;

  @BeforeAll
  static void writeLongLine() throws IOException {
    longLine = dir.resolve("long-line.log");
    byte[] block = new byte[1 << 20];
    Arrays.fill(block, (byte) 'x');
    byte[] start = "node01:1:1 [0] NCCL INFO Using network IB ".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(start, 0, block, 0, start.length);
    try (OutputStream out = Files.newOutputStream(longLine)) {
      out.write(block);
      block = new byte[1 << 20];
      Arrays.fill(block, (byte) 'y');
      for (int i = 1; i < 60; i++) {
        out.write(block);
      }
    }
  }

  private static LogFacts read(String name) throws LogInputException {
    return new NcclLogSource(InputStream.nullInputStream(), 1).read(List.of(name), dir);
  }

  private static LogFacts readStdin(byte[] bytes) throws LogInputException {
    return new NcclLogSource(new ByteArrayInputStream(bytes), 1).read(List.of("-"), dir);
  }

  private static Path write(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(b)) {
      z.write(bytes);
    }
    return b.toByteArray();
  }

  private static byte[] randomBytes(long seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  // ------------------------------------------------------------------------------------------

  @Test
  void randomBytesParseCleanly() throws Exception {
    for (long seed = 1; seed <= 5; seed++) {
      byte[] bytes = randomBytes(seed, 512 * 1024);
      LogFacts f = readStdin(bytes);
      long newlines = 0;
      for (byte x : bytes) {
        newlines += x == '\n' ? 1 : 0;
      }
      assertThat(f.inputs().get(0).lines()).as("seed %d", seed).isBetween(newlines, newlines + 1);
      assertThat(f.netChannels().total()).isZero();
    }
  }

  @Test
  void sixtyMegabyteLineWithoutNewlineIsOneTruncatedLine() throws Exception {
    LogFacts f = read(longLine.getFileName().toString());
    assertThat(f.inputs()).singleElement().satisfies(i -> {
      assertThat(i.lines()).isEqualTo(1);
      assertThat(i.truncatedLines()).isEqualTo(1);
    });
    // what was kept of it is bounded by the line limit, and evidence text by its own cap
    assertThat(f.transport()).isNotNull().hasSizeLessThanOrEqualTo(DEFAULT_MAX_LINE);
    assertThat(f.evidenceFor("network")).allSatisfy(e -> assertThat(e.text().length()).isLessThanOrEqualTo(301));
  }

  @Test
  void sixtyMegabyteLineThroughStdinAndGzip() throws Exception {
    Path gz = dir.resolve("long-line.log.gz");
    try (InputStream in = Files.newInputStream(longLine);
        OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      in.transferTo(out);
    }
    LogFacts f = read(gz.getFileName().toString());
    assertThat(f.inputs().get(0).lines()).isEqualTo(1);
    assertThat(f.inputs().get(0).truncatedLines()).isEqualTo(1);
  }

  @Test
  void linesAfterAnOverlongLineKeepTheirNumbers() throws Exception {
    LogFacts f = readStdin(overlongLineLog());
    assertThat(f.inputs().get(0).lines()).isEqualTo(3);
    assertThat(f.inputs().get(0).truncatedLines()).isLessThanOrEqualTo(1);
    assertThat(f.transport()).isEqualTo("IB");
    assertThat(f.bootstrap().name()).isEqualTo("eth0");
    assertThat(f.evidenceFor("network")).singleElement().satisfies(e -> assertThat(e.line()).isEqualTo(3));
  }

  @Test
  void lineLongerThanMaxLineIsCountedTruncatedWhateverTheReadSize() throws Exception {
    byte[] bytes = overlongLineLog();
    assertThat(readStdin(bytes).inputs().get(0).truncatedLines()).isEqualTo(1);
    LogFacts piped = new NcclLogSource(pipe(bytes, 64 * 1024), 1).read(List.of("-"), dir);
    assertThat(piped.inputs().get(0).truncatedLines()).isEqualTo(1);
  }

  private static byte[] overlongLineLog() throws IOException {
    byte[] huge = new byte[3 * DEFAULT_MAX_LINE];
    Arrays.fill(huge, (byte) 'z');
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write("a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n".getBytes(StandardCharsets.US_ASCII));
    b.write(huge);
    b.write('\n');
    b.write("a:1:1 [0] NCCL INFO Using network IB\n".getBytes(StandardCharsets.US_ASCII));
    return b.toByteArray();
  }

  /** A stream like a pipe: at most {@code chunk} bytes per read and nothing reported as available. */
  static InputStream pipe(byte[] bytes, int chunk) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, chunk));
      }

      @Override
      public synchronized int available() {
        return 0;
      }
    };
  }

  @Test
  void emptyFile() throws Exception {
    write("empty.log", new byte[0]);
    LogFacts f = read("empty.log");
    assertThat(f.inputs().get(0).lines()).isZero();
    assertThat(f.ncclLines()).isZero();
    assertThat(f.transport()).isNull();
    assertThat(f.nodeDetails()).isEmpty();
  }

  @Test
  void onlyNewlines() throws Exception {
    byte[] b = new byte[10_000];
    Arrays.fill(b, (byte) '\n');
    write("newlines.log", b);
    LogFacts f = read("newlines.log");
    assertThat(f.inputs().get(0).lines()).isEqualTo(10_000);
    assertThat(f.ncclLines()).isZero();
    assertThat(f.inputs().get(0).truncatedLines()).isZero();
    byte[] crlf = "\r\n".repeat(5000).getBytes(StandardCharsets.US_ASCII);
    assertThat(readStdin(crlf).inputs().get(0).lines()).isEqualTo(5000);
  }

  @Test
  void directoryIsRejectedWithItsName() throws IOException {
    Files.createDirectories(dir.resolve("logs.d"));
    assertThatThrownBy(() -> read("logs.d"))
        .isInstanceOf(LogInputException.class)
        .hasMessageContaining("logs.d")
        .hasMessageNotContaining("\n");
  }

  @Test
  void missingFileIsRejectedWithItsName() {
    assertThatThrownBy(() -> read("no-such-file.log"))
        .isInstanceOf(LogInputException.class)
        .hasMessageContaining("no-such-file.log")
        .hasMessageNotContaining("\n");
  }

  @Test
  void missingSecondInputIsRejectedWithItsName() throws IOException {
    write("first.log", "a:1:1 [0] NCCL INFO Using network IB\n".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> new NcclLogSource(InputStream.nullInputStream(), 1)
        .read(List.of("first.log", "second.log"), dir))
        .isInstanceOf(LogInputException.class)
        .hasMessageContaining("second.log");
  }

  @Test
  void truncatedLastLine() throws Exception {
    String text = Files.readString(Path.of(HEALTHY));
    LogFacts whole = readStdin(text.getBytes(StandardCharsets.UTF_8));
    String cut = text.substring(0, text.lastIndexOf("NCCL INFO") + 7);
    LogFacts f = readStdin(cut.getBytes(StandardCharsets.UTF_8));
    assertThat(f.inputs().get(0).lines()).isEqualTo(whole.inputs().get(0).lines());
    assertThat(f.transport()).isEqualTo(whole.transport());
    assertThat(f.hcaPorts()).isEqualTo(whole.hcaPorts());
  }

  @ParameterizedTest(name = "gzip cut to {0}%")
  @ValueSource(ints = {1, 10, 50, 90, 99})
  void truncatedGzipIsAnInputErrorOrAResult(int percent) throws Exception {
    byte[] gz = gzip(Files.readAllBytes(Path.of(HEALTHY)));
    byte[] cut = Arrays.copyOf(gz, Math.max(3, gz.length * percent / 100));
    write("cut.log.gz", cut);
    Throwable t = catchThrowable(() -> read("cut.log.gz"));
    if (t != null) {
      assertThat(t).isInstanceOf(LogInputException.class);
      assertThat(t.getMessage()).contains("cut.log.gz").doesNotContain("\n");
    }
    Throwable s = catchThrowable(() -> readStdin(cut));
    if (s != null) {
      assertThat(s).isInstanceOf(LogInputException.class);
      assertThat(s.getMessage()).startsWith("-");
    }
  }

  @Test
  void truncatedGzipNamesTheProblem() throws Exception {
    byte[] gz = gzip(Files.readAllBytes(Path.of(HEALTHY)));
    write("half.log.gz", Arrays.copyOf(gz, gz.length / 2));
    assertThatThrownBy(() -> read("half.log.gz"))
        .isInstanceOf(LogInputException.class)
        .hasMessageContaining("half.log.gz");
  }

  @Test
  void corruptGzipBody() throws Exception {
    byte[] gz = gzip(Files.readAllBytes(Path.of(HEALTHY)));
    for (int i = 20; i < gz.length - 8; i += 7) {
      gz[i] ^= 0x5a;
    }
    write("corrupt.log.gz", gz);
    Throwable t = catchThrowable(() -> read("corrupt.log.gz"));
    assertThat(t).isInstanceOf(LogInputException.class);
    assertThat(t.getMessage()).contains("corrupt.log.gz").doesNotContain("\n");
  }

  @Test
  void onlyTheGzipMagic() throws Exception {
    write("magic.log.gz", new byte[] {0x1f, (byte) 0x8b});
    Throwable t = catchThrowable(() -> read("magic.log.gz"));
    if (t != null) {
      assertThat(t).isInstanceOf(LogInputException.class).hasMessageContaining("magic.log.gz");
    }
  }

  @Test
  void gzipOfBinaryData() throws Exception {
    byte[] bin = randomBytes(42, 2 << 20);
    write("binary.log.gz", gzip(bin));
    LogFacts f = read("binary.log.gz");
    assertThat(f.inputs().get(0).lines()).isPositive();
    assertThat(f.netChannels().total()).isZero();
  }

  @Test
  void gzipReadsLikeThePlainFile() throws Exception {
    byte[] plain = Files.readAllBytes(Path.of(HEALTHY));
    write("h.log", plain);
    write("h.log.gz", gzip(plain));
    LogFacts a = read("h.log");
    LogFacts b = read("h.log.gz");
    assertThat(b.transport()).isEqualTo(a.transport()).isEqualTo("IB");
    assertThat(b.netChannels()).isEqualTo(a.netChannels());
    assertThat(b.hcas()).isEqualTo(a.hcas());
    assertThat(readStdin(gzip(plain)).netChannels()).isEqualTo(a.netChannels());
  }

  /** A pipe hands over whatever it has: the facts must not depend on the size of each read. */
  @Test
  void tricklingStdinGivesTheSameFacts() throws Exception {
    byte[] plain = Files.readAllBytes(Path.of(HEALTHY));
    LogFacts whole = readStdin(plain);
    for (int chunk : new int[] {1, 7, 4096}) {
      LogFacts slow = new NcclLogSource(pipe(plain, chunk), 1).read(List.of("-"), dir);
      assertThat(slow).as("reads of %d bytes", chunk).isEqualTo(whole);
    }
  }

  @Test
  void lineOfExactlyMaxLineIsNotTruncatedWhateverTheReadSize() throws Exception {
    int maxLine = 64;
    byte[] line = ("a:1:1 [0] NCCL INFO Using network IB" + " ".repeat(64)).substring(0, maxLine)
        .getBytes(StandardCharsets.US_ASCII);
    byte[] bytes = Arrays.copyOf(line, maxLine + 1);
    bytes[maxLine] = '\n';
    LogFacts whole = new NcclLogSource(new ByteArrayInputStream(bytes), 1, maxLine, Long.MAX_VALUE)
        .read(List.of("-"), dir);
    LogFacts slow = new NcclLogSource(pipe(bytes, 1), 1, maxLine, Long.MAX_VALUE).read(List.of("-"), dir);
    assertThat(whole.inputs().get(0).truncatedLines()).isZero();
    assertThat(slow.inputs().get(0).truncatedLines()).isZero();
  }

  @Test
  void nulBytesAndControlCharacters() throws Exception {
    byte[] b = "a:1:1 [0] NCCL INFO Using\0network IB\na:1:1 [0]\0NCCL INFO Using network IB\n\u0007\u0008\u001b\u001b[\u001b[9999999999m\n"
        .getBytes(StandardCharsets.ISO_8859_1);
    LogFacts f = readStdin(b);
    assertThat(f.inputs().get(0).lines()).isEqualTo(3);
  }

  @Test
  void escapeAtTheEndOfALine() throws Exception {
    LogFacts f = readStdin("a:1:1 [0] NCCL INFO Using network IB\u001b\nb:1:1 [0] NCCL INFO Using network IB\u001b[\n"
        .getBytes(StandardCharsets.US_ASCII));
    assertThat(f.inputs().get(0).lines()).isEqualTo(2);
    assertThat(f.transport()).isEqualTo("IB");
  }

  @Test
  void manyProcessesAndHostsStayBounded() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      sb.append("host").append(i % 700).append(':').append(i).append(":1 [").append(i % 8)
          .append("] NCCL INFO Channel 00/0 : ").append(i).append("[0] -> ").append(i + 8)
          .append("[0] [send] via NET/IB/0/GDRDMA\n");
    }
    LogFacts f = readStdin(sb.toString().getBytes(StandardCharsets.US_ASCII));
    assertThat(f.processes()).isEqualTo(5000);
    assertThat(f.nodes()).isEqualTo(700);
    assertThat(f.netChannels().total()).isEqualTo(5000);
    assertThat(f.evidenceFor("channels").size()).isLessThanOrEqualTo(3);
  }

  // --- end to end ------------------------------------------------------------------------------

  @Test
  void endToEndOverHostileFiles() throws Exception {
    write("random.bin", randomBytes(7, 256 * 1024));
    write("empty2.log", new byte[0]);
    write("nl.log", "\n\n\n\n".getBytes(StandardCharsets.US_ASCII));
    byte[] gz = gzip(Files.readAllBytes(Path.of(HEALTHY)));
    write("trunc.log.gz", Arrays.copyOf(gz, gz.length / 3));
    write("bin.log.gz", gzip(randomBytes(9, 64 * 1024)));
    Files.createDirectories(dir.resolve("a-dir"));
    for (String name : List.of("random.bin", "empty2.log", "nl.log", "trunc.log.gz", "bin.log.gz", "a-dir",
        "missing.log", longLine.getFileName().toString())) {
      for (String fmt : List.of("text", "json", "markdown")) {
        Logs.CliResult r = Logs.cli(dir, new byte[0], "log", "-o", fmt, name);
        Logs.assertCleanExit(r, name + " as " + fmt);
      }
    }
    Logs.CliResult missing = Logs.cli(dir, new byte[0], "log", "missing.log");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("missing.log");
    Logs.CliResult directory = Logs.cli(dir, new byte[0], "log", "a-dir");
    assertThat(directory.code()).isEqualTo(2);
    assertThat(directory.err()).contains("a-dir");
    Logs.CliResult empty = Logs.cli(dir, new byte[0], "log", "empty2.log");
    assertThat(empty.code()).isEqualTo(3);
  }

  @Test
  void endToEndOverHostileStdin() {
    for (byte[] in : List.of(new byte[0], randomBytes(3, 100_000), "\u001b[".getBytes(StandardCharsets.US_ASCII),
        new byte[] {0x1f, (byte) 0x8b, 8, 0, 0})) {
      Logs.assertCleanExit(Logs.cli(dir, in, "log", "-o", "json", "-"), "stdin of " + in.length + " bytes");
      Logs.assertCleanExit(Logs.cli(dir, in, "log"), "stdin of " + in.length + " bytes, no file argument");
    }
  }

  @Test
  void aHostNameLongerThanAnyHostsIsNotOne() throws Exception {
    String host = "h".repeat(30_000);
    LogFacts f = readStdin((host + ":1:2 [0] NCCL INFO Using network IB\n"
        + "node-1:1:2 [0] NCCL INFO Using network IB\n").getBytes(StandardCharsets.US_ASCII));
    assertThat(f.transport()).isEqualTo("IB");
    assertThat(Logs.hosts(f)).containsExactly("node-1");
    String longest = "h".repeat(255);
    assertThat(Logs.hosts(readStdin((longest + ":1:2 [0] NCCL INFO Using network IB\n").getBytes(StandardCharsets.US_ASCII))))
        .containsExactly(longest);
  }
}
