package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a user names as input: any readable file is read, a device without end is refused. */
class InputFilesTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"/dev/zero", "/dev/urandom", "/dev/full"})
  void aDeviceWithoutEndIsRefused(String device) {
    Path p = Path.of(device);
    assumeTrue(Files.exists(p));
    assertThat(InputFiles.endless(p)).isEqualTo("is a device, not a log file (its reads never end)");
  }

  @Test
  void nullAFileAndAPipeAreRead() throws Exception {
    Path log = Files.writeString(dir.resolve("a.log"), "x\n");
    assertThat(InputFiles.endless(log)).isNull();
    assertThat(InputFiles.endless(dir)).isNull();
    Path devNull = Path.of("/dev/null");
    assumeTrue(Files.exists(devNull));
    assertThat(InputFiles.endless(devNull)).isNull();
    Path fifo = dir.resolve("fifo");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeTrue(mk.waitFor() == 0);
    assertThat(InputFiles.endless(fifo)).isNull();
  }

  /** procfs and sysfs files report size 0 and refuse the seek available() makes. */
  @Test
  void aProcfsFileIsReadToItsEnd() throws IOException {
    Path status = Path.of("/proc/self/status");
    assumeTrue(Files.exists(status));
    try (InputStream in = new BufferedInputStream(InputFiles.open(status), 1 << 16)) {
      assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).contains("Pid:");
    }
  }

  @Test
  void aRefusedAvailableIsZero() throws IOException {
    InputStream refusing = new InputStream() {
      private int left = 3;

      @Override
      public int read() {
        return left-- > 0 ? 'a' : -1;
      }

      @Override
      public int available() throws IOException {
        throw new IOException("Invalid argument");
      }
    };
    InputStream in = InputFiles.readable(refusing);
    assertThat(in.available()).isZero();
    assertThat(new BufferedInputStream(in).readAllBytes()).hasSize(3);
  }

  /** `log - < FILE` reads the file at offsets; a pipe or a device is read as the stream it is. */
  @Test
  void standardInputIsAFileOnlyWhenRedirectedFromOne() throws Exception {
    Path log = Files.writeString(dir.resolve("a.log"), "line one\nline two\n");
    assertThat(stdinKind(ProcessBuilder.Redirect.from(log.toFile()))).isEqualTo("file 18 0");
    assertThat(stdinKind(ProcessBuilder.Redirect.PIPE)).isEqualTo("stream");
    if (Files.exists(Path.of("/dev/null"))) {
      assertThat(stdinKind(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))).isEqualTo("stream");
    }
    // any other stream is not standard input's
    assertThat(InputFiles.regularFile(Files.newInputStream(log))).isNull();
  }

  private String stdinKind(ProcessBuilder.Redirect in) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
        StdinKindProbe.class.getName())
        .redirectInput(in).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    if (in == ProcessBuilder.Redirect.PIPE) {
      p.getOutputStream().write("line\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      p.getOutputStream().close();
    }
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    return out;
  }
}
