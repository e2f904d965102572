package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A log saved as UTF-16 (Windows PowerShell 5's {@code kubectl logs POD > job.log} writes UTF-16LE
 * with a byte-order mark) gives the facts of the same log in UTF-8, from a file, stdin, gzip or in
 * parallel parts; it used to read as "no NCCL lines".
 */
class Utf16LogTest {
  private static final List<String> LOGS = List.of("samples/logs/01-healthy-ib-gdr-2.21.5.log",
      "samples/logs/02-socket-no-device-k8s-2.19.3.log", "samples/logs/11-one-node-fell-back-mixed-2.21.5.log");

  @TempDir Path dir;

  private static byte[] encode(String text, String how) {
    return switch (how) {
      case "LE+BOM" -> concat(new byte[] {(byte) 0xff, (byte) 0xfe}, text.getBytes(StandardCharsets.UTF_16LE));
      case "BE+BOM" -> text.getBytes(StandardCharsets.UTF_16); // Java writes big-endian with a mark
      case "LE" -> text.getBytes(StandardCharsets.UTF_16LE);
      case "BE" -> text.getBytes(StandardCharsets.UTF_16BE);
      default -> throw new IllegalArgumentException(how);
    };
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static String read(String path) throws IOException {
    return Files.readString(Path.of(path), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @ValueSource(strings = {"LE+BOM", "BE+BOM", "LE", "BE"})
  void aUtf16LogOnStdinGivesTheFactsOfItsUtf8Text(String how) throws IOException {
    for (String log : LOGS) {
      String text = read(log);
      LogFacts utf8 = Logs.parse(text.getBytes(StandardCharsets.UTF_8));
      assertThat(utf8.transport()).as(log).isNotNull();
      assertThat(Logs.parse(encode(text, how))).as("%s as %s", log, how).isEqualTo(utf8);
    }
  }

  @Test
  void aGzippedUtf16FileAndAUtf16FileReadInPartsGiveTheSameFacts() throws Exception {
    String text = read(LOGS.get(2));
    StringBuilder big = new StringBuilder();
    while (big.length() < 600_000) {
      big.append(text);
    }
    Path plain = Files.writeString(dir.resolve("job.log"), big, StandardCharsets.UTF_8);
    Path utf16 = Files.write(dir.resolve("job-utf16.log"), encode(big.toString(), "LE+BOM"));
    Path gz = dir.resolve("job-utf16.log.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(encode(big.toString(), "LE+BOM"));
    }
    LogFacts expected = Logs.parseFile(plain, 2, Logs.DEFAULT_MAX_LINE, 64 * 1024);
    assertThat(expected.inputs().get(0).lines()).isGreaterThan(1000);
    // not cut into byte ranges (a part would start mid-character): one stream, the same lines
    assertThat(Logs.parseFile(utf16, 2, Logs.DEFAULT_MAX_LINE, 64 * 1024).inputs().get(0).lines())
        .isEqualTo(expected.inputs().get(0).lines());
    assertThat(Logs.parseFile(utf16, 2, Logs.DEFAULT_MAX_LINE, 64 * 1024).transport()).isEqualTo(expected.transport());
    assertThat(Logs.parseFile(gz, 2, Logs.DEFAULT_MAX_LINE, 64 * 1024).netChannels())
        .isEqualTo(expected.netChannels());
  }

  @Test
  void otherTextIsReadAsItIs() {
    byte[] ascii = "host:1:1 [0] NCCL INFO Using network IB\n".getBytes(StandardCharsets.US_ASCII);
    assertThat(Logs.parse(ascii).transport()).isEqualTo("IB");
    // a mark followed by garbage, an odd byte count, lone surrogates: read, never thrown
    ByteArrayOutputStream junk = new ByteArrayOutputStream();
    junk.write(0xff);
    junk.write(0xfe);
    for (int i = 0; i < 70_001; i++) {
      junk.write((i * 7919) & 0xff);
    }
    assertThat(Logs.parse(junk.toByteArray())).isNotNull();
    // a damaged UTF-8 log whose first bytes happen to be the mark's: its lines are read as bytes
    byte[] damaged = concat(new byte[] {(byte) 0xff, (byte) 0xfe, ' ', (byte) 0xc3, '(', '\n'}, ascii);
    assertThat(Logs.parse(damaged).transport()).isEqualTo("IB");
    // UTF-32LE's mark starts like UTF-16LE's: not taken for it
    byte[] utf32 = concat(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 0}, "host:1:1 [0] NCCL INFO Using network IB\n"
        .getBytes(Charset.forName("UTF-32LE")));
    assertThat(Logs.parse(utf32).transport()).isNull();
  }
}
