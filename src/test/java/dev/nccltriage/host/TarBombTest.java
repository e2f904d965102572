package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nccltriage.cli.CliRun;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 10: a small archive must not unpack into gigabytes (zeros compress 1000:1), nor
 * into millions of entries; and a header's numbers, however large or garbled, are a clear
 * IOException, never a NumberFormatException.
 */
class TarBombTest {
  private static final long MIB = 1 << 20;

  @TempDir Path tmp;

  /** A gzip of tar entries: each {name, type, size}; a file's data is {@code size} zeros, streamed. */
  private static byte[] archive(Object[]... entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream gz = new GZIPOutputStream(bytes, 1 << 16)) {
      byte[] zeros = new byte[1 << 16];
      for (Object[] e : entries) {
        String name = (String) e[0];
        char type = (Character) e[1];
        long size = ((Number) e[2]).longValue();
        String link = e.length > 3 ? (String) e[3] : "";
        gz.write(TarGz.header(name, type, type == '0' ? size : 0, type == '5' ? 0755 : 0644, link));
        if (type == '0') {
          for (long left = size; left > 0; left -= zeros.length) {
            gz.write(zeros, 0, (int) Math.min(zeros.length, left));
          }
          int pad = (int) ((TarGz.BLOCK - size % TarGz.BLOCK) % TarGz.BLOCK);
          gz.write(new byte[pad]);
        }
      }
      gz.write(new byte[2 * TarGz.BLOCK]);
    }
    return bytes.toByteArray();
  }

  private static long du(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  @Test
  void oneHugeEntryIsRefusedBeforeItIsWritten() throws IOException {
    byte[] bomb = archive(new Object[] {"proc/zeros", '0', 300 * MIB});
    assertThat(bomb.length).as("the bomb is small").isLessThan(2 * (int) MIB);
    Path out = tmp.resolve("out");
    assertThatThrownBy(() -> TarGz.extract(new ByteArrayInputStream(bomb), out))
        .isInstanceOf(IOException.class).hasMessageContaining("256 MiB");
    assertThat(du(out)).isLessThanOrEqualTo(256 * MIB);
  }

  @Test
  void manyEntriesAddingUpPastTheCapAreRefused() throws IOException {
    Object[][] parts = new Object[5][];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = new Object[] {"sys/part" + i, '0', 60 * MIB};
    }
    Path out = tmp.resolve("out");
    assertThatThrownBy(() -> TarGz.extract(new ByteArrayInputStream(archive(parts)), out))
        .isInstanceOf(IOException.class).hasMessageContaining("256 MiB");
    assertThat(du(out)).isLessThanOrEqualTo(256 * MIB);
  }

  @Test
  void hardLinksCountAsTheCopiesTheyBecome() throws IOException {
    byte[] bomb = archive(new Object[] {"a", '0', 100 * MIB}, new Object[] {"b", '1', 0, "a"},
        new Object[] {"c", '1', 0, "a"}, new Object[] {"d", '1', 0, "a"});
    Path out = tmp.resolve("out");
    assertThatThrownBy(() -> TarGz.extract(new ByteArrayInputStream(bomb), out))
        .isInstanceOf(IOException.class).hasMessageContaining("256 MiB");
    assertThat(du(out)).isLessThanOrEqualTo(256 * MIB);
  }

  @Test
  void moreThanAHundredThousandEntriesAreRefused() throws IOException {
    Object[][] dirs = new Object[100_001][];
    for (int i = 0; i < dirs.length; i++) {
      dirs[i] = new Object[] {"d/", '5', 0}; // the same folder again: cheap to extract, and still an entry
    }
    assertThatThrownBy(() -> TarGz.extract(new ByteArrayInputStream(archive(dirs)), tmp.resolve("out")))
        .isInstanceOf(IOException.class).hasMessageContaining("100000 entries");
  }

  @Test
  void anArchiveUnderTheCapsExtracts() throws IOException {
    TarGz.extract(new ByteArrayInputStream(archive(new Object[] {"a", '0', 10 * MIB},
        new Object[] {"b", '1', 0, "a"})), tmp.resolve("out"));
    assertThat(tmp.resolve("out/b")).hasSize(10 * MIB);
  }

  // --- numbers in headers ----------------------------------------------------------------------

  private static byte[] gzip(byte[] tar) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(tar);
      gz.write(new byte[2 * TarGz.BLOCK]);
    }
    return bytes.toByteArray();
  }

  private static byte[] paxThen(String record) throws IOException {
    byte[] data = record.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream tar = new ByteArrayOutputStream();
    tar.write(TarGz.header("PaxHeaders/x", 'x', data.length, 0644, ""));
    tar.write(data);
    tar.write(new byte[(TarGz.BLOCK - data.length % TarGz.BLOCK) % TarGz.BLOCK]);
    tar.write(TarGz.header("x", '0', 0, 0644, ""));
    return gzip(tar.toByteArray());
  }

  @Test
  void hugeOrGarbledNumbersAreAClearError() throws IOException {
    for (String rec : List.of("30 size=99999999999999999999999\n", "16 size=-100000\n", "18 size=0x1234567\n",
        "99999999999999999999 path=x\n", "-5 path=x\n")) {
      assertThatThrownBy(() -> TarGz.extract(new ByteArrayInputStream(paxThen(rec)), tmp.resolve("out")))
          .as(rec).isInstanceOf(IOException.class).hasMessageContaining("pax");
    }
    // a base-256 size with every bit set
    byte[] h = TarGz.header("x", '0', 0, 0644, "");
    for (int i = 124; i < 136; i++) {
      h[i] = (byte) 0xff;
    }
    fixChecksum(h);
    assertThatThrownBy(() -> TarGz.extract(new ByteArrayInputStream(gzip(h)), tmp.resolve("out2")))
        .isInstanceOf(IOException.class).hasMessageNotContaining("NumberFormat");
  }

  private static void fixChecksum(byte[] h) {
    for (int i = 148; i < 156; i++) {
      h[i] = ' ';
    }
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    byte[] cs = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(cs, 0, h, 148, 8);
  }

  // --- the command: exit 2, one line, nothing left in the temporary folder --------------------

  @Test
  void checkOnATarBombExits2AndLeavesNothingBehind() throws Exception {
    Path bomb = tmp.resolve("bomb.tar.gz");
    Files.write(bomb, archive(new Object[] {".nccl-triage/capture.properties", '0', 10},
        new Object[] {"proc/a", '0', 200 * MIB}, new Object[] {"sys/b", '0', 100 * MIB}));
    Path tmpdir = Files.createDirectories(tmp.resolve("javatmp"));
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmpdir, "-cp", System.getProperty("java.class.path"), "dev.nccltriage.cli.Main",
        "check", "--capture", bomb.toString());
    Path err = tmp.resolve("err.txt");
    Process p = new ProcessBuilder(cmd).directory(CliRun.REPO.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("ends").isTrue();
    String stderr = Files.readString(err);
    assertThat(p.exitValue()).as(stderr).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1);
    assertThat(stderr).contains("bomb.tar.gz").contains("256 MiB");
    try (Stream<Path> left = Files.list(tmpdir)) {
      assertThat(left.map(Path::getFileName).map(Path::toString).filter(n -> n.startsWith("nccl-triage")))
          .as("temporary folders left").isEmpty();
    }
  }
}
