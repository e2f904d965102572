package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `log - < FILE`: standard input that is a regular file is read in parts at offsets, as a named
 * file is, from where its reading would start, and gives exactly the facts of reading it as a
 * stream. The stdin stream handed over is empty where only the channel may be read, so a plan
 * that fell back to the stream would find no lines.
 */
class StdinFileTest {
  private static final byte[] EARLIER = "a line an earlier reader of the same stdin took\n".getBytes(StandardCharsets.US_ASCII);
  private static byte[] logs;

  @TempDir Path dir;

  @BeforeAll
  static void concatenate() throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    try (Stream<Path> files = Files.list(Path.of("samples", "logs"))) {
      for (Path f : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
        all.write(Files.readAllBytes(f));
      }
    }
    logs = all.toByteArray();
  }

  private static LogFacts asStream(byte[] bytes, List<String> names) throws LogInputException {
    return new NcclLogSource(new ByteArrayInputStream(bytes), 1).read(names, Path.of("."), null);
  }

  private FileChannel stdinFile(byte[] before, byte[] content) throws IOException {
    Path f = dir.resolve("stdin.log");
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(before);
    b.write(content);
    Files.write(f, b.toByteArray());
    FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
    ch.position(before.length);
    return ch;
  }

  @Test
  void partsFromStdinsPositionGiveTheStreamsFacts() throws Exception {
    LogFacts stream = asStream(logs, List.of("-"));
    try (FileChannel ch = stdinFile(EARLIER, logs)) {
      LogFacts parts = new NcclLogSource(InputStream.nullInputStream(), 3, LineReader.DEFAULT_MAX_LINE, 1)
          .read(List.of("-"), Path.of("."), ch);
      assertThat(parts.inputs().get(0).lines()).isPositive();
      assertThat(parts).isEqualTo(stream);
      // left where a stream's reading ends: at the end
      assertThat(ch.position()).isEqualTo(ch.size());
    }
  }

  @Test
  void aSecondDashReadsNothingAsFromAStream() throws Exception {
    LogFacts stream = asStream(logs, List.of("-", "-"));
    try (FileChannel ch = stdinFile(new byte[0], logs)) {
      LogFacts parts = new NcclLogSource(InputStream.nullInputStream(), 2, LineReader.DEFAULT_MAX_LINE, 1)
          .read(List.of("-", "-"), Path.of("."), ch);
      assertThat(parts.inputs().get(1).lines()).isZero();
      assertThat(parts).isEqualTo(stream);
    }
  }

  /** A gzip file or a small one cannot be cut at offsets or need not be: read as the stream it also is. */
  @Test
  void gzipAndSmallFilesAreReadAsTheStream() throws Exception {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(logs);
    }
    LogFacts plain = asStream(logs, List.of("-"));
    try (FileChannel ch = stdinFile(EARLIER, gz.toByteArray())) {
      LogFacts read = new NcclLogSource(new ByteArrayInputStream(gz.toByteArray()), 3, LineReader.DEFAULT_MAX_LINE, 1)
          .read(List.of("-"), Path.of("."), ch);
      assertThat(read).isEqualTo(plain);
    }
    try (FileChannel ch = stdinFile(EARLIER, logs)) {
      LogFacts small = new NcclLogSource(new ByteArrayInputStream(logs), 3, LineReader.DEFAULT_MAX_LINE, logs.length + 1L)
          .read(List.of("-"), Path.of("."), ch);
      assertThat(small).isEqualTo(plain);
    }
  }
}
