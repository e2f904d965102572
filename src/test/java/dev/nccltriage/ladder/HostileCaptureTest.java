package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.nccltriage.cli.CliRun;
import dev.nccltriage.host.TarGz;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --root} and {@code --capture} on captures someone sent: they read nothing outside
 * the capture (issue 11 item 9), never block on a FIFO (item 6), refuse a tree that is no capture
 * (item 12) and say why an archive cannot be read in one short printable line (item 14).
 */
class HostileCaptureTest {
  private static final String HEALTHY = "healthy-8hca-gdr-net1";

  @TempDir Path tmp;

  private Path copyOfHealthy() throws IOException {
    Path dir = tmp.resolve("cap");
    Captures.copyTree(Captures.DIR.resolve(HEALTHY), dir);
    return dir;
  }

  /** One line on stderr, short, with no control characters and no replacement characters. */
  private static void assertOneCleanLine(CliRun run) {
    String err = run.stderr();
    assertThat(err.lines().toList()).as(err).hasSize(1);
    assertThat(err.length()).as(err).isLessThan(400);
    assertThat(err.strip().chars().filter(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0xfffd))
        .as("control or replacement characters in %s", err).isEmpty();
    assertThat(err).doesNotContain("null");
  }

  // --- item 9 --------------------------------------------------------------------------------

  @Test
  void aCaptureOfAbsoluteLinksDoesNotReadTheFilesTheyPointTo() throws IOException {
    Path dir = copyOfHealthy();
    Path original = tmp.resolve("data"); // the data, beside the folder given
    Captures.copyTree(Captures.DIR.resolve(HEALTHY), original);
    // every file becomes an absolute link to where the data is, outside the folder given
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList();
    }
    for (Path f : files) {
      Files.delete(f);
      Files.createSymbolicLink(f, original.resolve(dir.relativize(f).toString()));
    }
    CliRun healthy = CliRun.run("check", "--root", Captures.DIR.resolve(HEALTHY).toString(), "-o", "json");
    assertThat(healthy.json().at("/verdict/status").asText()).isEqualTo("healthy");
    CliRun run = CliRun.run("check", "--root", dir.toString(), "-o", "json");
    assertThat(run.json().at("/verdict/status").asText()).as(run.stdout()).isNotEqualTo("healthy");
    assertThat(run.exitCode()).isNotZero();
  }

  // --- item 6 --------------------------------------------------------------------------------

  @Test
  void aFifoInTheCaptureDoesNotBlockCheck() throws Exception {
    Path dir = copyOfHealthy();
    for (String f : List.of("proc/self/status", ".nccl-triage/env")) {
      Path p = dir.resolve(f);
      Files.deleteIfExists(p);
      assertThat(new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor()).isZero();
    }
    CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(30),
        () -> CliRun.run("check", "--root", dir.toString(), "-o", "json"));
    assertThat(run.exitCode()).as(run.stderr()).isIn(0, 1, 3);
    assertThat(Captures.schemaErrors(run.json())).isEmpty();
  }

  // --- item 12 -------------------------------------------------------------------------------

  @Test
  void anEmptyRootIsNotACapture() throws IOException {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    for (String cmd : List.of("check", "preflight")) {
      CliRun run = CliRun.run(cmd, "--root", empty.toString());
      assertThat(run.exitCode()).as(cmd + ": " + run.stderr()).isEqualTo(2);
      assertThat(run.stdout()).isEmpty();
      assertOneCleanLine(run);
      assertThat(run.stderr()).contains(empty.toString()).contains("not a capture").contains("proc/");
    }
  }

  @Test
  void aRootWithoutSysIsNotACapture() throws IOException {
    Path dir = copyOfHealthy();
    Captures.deleteTree(dir.resolve("sys"));
    CliRun run = CliRun.run("check", "--root", dir.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("sys/").doesNotContain("proc/");
  }

  @Test
  void aHandMadeRootWithProcAndSysButNoPropertiesIsReplayed() throws IOException {
    Path dir = copyOfHealthy();
    Files.delete(dir.resolve(".nccl-triage/capture.properties"));
    CliRun run = CliRun.run("check", "--root", dir.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.stderr()).isIn(0, 1, 3);
    assertThat(run.json().at("/verdict/status").asText()).isEqualTo("healthy");
  }

  @Test
  void anArchiveWithoutCaptureProperitesIsNotACapture() throws IOException {
    Path emptyTree = Files.createDirectories(tmp.resolve("tree"));
    Path empty = tmp.resolve("empty.tar.gz");
    TarGz.write(emptyTree, empty);
    Path dir = copyOfHealthy();
    Files.delete(dir.resolve(".nccl-triage/capture.properties"));
    Path noProps = tmp.resolve("noprops.tar.gz");
    TarGz.write(dir, noProps);
    for (Path archive : List.of(empty, noProps)) {
      for (String cmd : List.of("check", "preflight")) {
        CliRun run = CliRun.run(cmd, "--capture", archive.toString());
        assertThat(run.exitCode()).as(cmd + " " + archive + ": " + run.stderr()).isEqualTo(2);
        assertOneCleanLine(run);
        assertThat(run.stderr()).contains(archive.getFileName().toString()).contains("not a capture")
            .contains("capture.properties");
      }
    }
    CliRun bw = CliRun.run("bw", "samples/nccl-tests/01-healthy-8x400g-2.17.6.out", "--capture", empty.toString());
    assertThat(bw.exitCode()).as(bw.stderr()).isEqualTo(2);
  }

  // --- item 14 -------------------------------------------------------------------------------

  @Test
  void aZeroByteArchiveSaysItIsEmpty() throws IOException {
    Path zero = Files.createFile(tmp.resolve("zero.tar.gz"));
    CliRun run = CliRun.run("check", "--capture", zero.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertOneCleanLine(run);
    assertThat(run.stderr()).contains("zero.tar.gz").contains("empty");
  }

  @Test
  void aMissingArchiveSaysSo() {
    CliRun run = CliRun.run("check", "--capture", tmp.resolve("nothere.tar.gz").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertOneCleanLine(run);
    assertThat(run.stderr()).contains("nothere.tar.gz").contains("No such file or directory");
  }

  @Test
  void corruptArchivesGiveAShortPrintableReason() throws IOException {
    Random rnd = new Random(11);
    byte[] noise = new byte[4000];
    rnd.nextBytes(noise);
    Path badGzip = tmp.resolve("bad-gzip.tar.gz");
    byte[] magic = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    byte[] b = new byte[magic.length + noise.length];
    System.arraycopy(magic, 0, b, 0, magic.length);
    System.arraycopy(noise, 0, b, magic.length, noise.length);
    Files.write(badGzip, b);
    Path noTar = tmp.resolve("gzip-of-noise.tar.gz");
    try (GZIPOutputStream gz = new GZIPOutputStream(Files.newOutputStream(noTar))) {
      gz.write(noise);
    }
    Path text = tmp.resolve("text.tar.gz");
    Files.writeString(text, "\u001b]0;pwned\u0007 not an archive\n", StandardCharsets.UTF_8);
    for (Path p : List.of(badGzip, noTar, text)) {
      CliRun run = CliRun.run("check", "--capture", p.toString());
      assertThat(run.exitCode()).as(p.toString()).isEqualTo(2);
      assertOneCleanLine(run);
      assertThat(run.stderr()).contains(p.getFileName().toString());
    }
  }
}
