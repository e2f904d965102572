package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A capture folder is someone else's tree: reading it must neither leave it through a symlink
 * (issue 11 item 9), nor block on a FIFO (item 6), nor read a huge or endless file whole (item 4).
 */
class RootConfinementTest {
  private static final Duration HANG = Duration.ofSeconds(20);
  private static final List<String> ARGV = List.of("ibv_devinfo", "-v");

  @TempDir Path tmp;
  Path root;
  Path outside;

  @BeforeEach
  void tree() throws IOException {
    root = tmp.resolve("capture");
    outside = tmp.resolve("outside");
    write(outside.resolve("secret"), "host secret\n");
    Files.createDirectories(outside.resolve("dir/sub"));
    String dev = "sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/";
    write(root.resolve(dev + "ports/1/state"), "4: ACTIVE\n");
    Files.createDirectories(root.resolve("sys/class/infiniband"));
    Files.createSymbolicLink(root.resolve("sys/class/infiniband/mlx5_0"),
        Path.of("../../devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0"));
    Files.createDirectories(root.resolve("proc/self"));
    Files.createDirectories(root.resolve(CaptureLayout.COMMANDS).resolve(CommandRunner.key(ARGV)));
  }

  private static void write(Path p, String text) throws IOException {
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private Path commandDir() {
    return root.resolve(CaptureLayout.COMMANDS).resolve(CommandRunner.key(ARGV));
  }

  private static void mkfifo(Path p) throws Exception {
    Files.createDirectories(p.getParent());
    Files.deleteIfExists(p);
    Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
    assertThat(mk.waitFor()).as("mkfifo").isZero();
  }

  // --- item 9: symlinks that leave the root ----------------------------------------------------

  @Test
  void anAbsoluteLinkIsNotFollowedOutOfTheRoot() throws IOException {
    Files.createSymbolicLink(root.resolve("proc/self/status"), outside.resolve("secret"));
    HostRoot r = new HostRoot(root);
    FileRead f = r.read("/proc/self/status");
    assertThat(f.status()).isEqualTo("error");
    assertThat(f.text()).isNull();
    assertThat(f.detail()).contains("proc/self/status").contains("outside");
    assertThat(r.exists("/proc/self/status")).isFalse();
    assertThat(r.tryOpen("/proc/self/status")).startsWith("error: ").contains("outside");
    // reading the link's own text is fine: captures learn PCI paths that way
    assertThat(r.readLink("/proc/self/status")).contains(outside.resolve("secret").toString());
  }

  @Test
  void aRelativeLinkThatClimbsOutIsNotFollowed() throws IOException {
    Path rel = root.resolve("sys/class/net");
    Files.createDirectories(rel.getParent());
    Files.createSymbolicLink(rel, Path.of("../../../outside/dir"));
    Files.createSymbolicLink(root.resolve("proc/self/limits"), Path.of("../../sys/class/net/../../../outside/secret"));
    HostRoot r = new HostRoot(root);
    assertThat(r.isDirectory("/sys/class/net")).isFalse();
    assertThat(r.exists("/sys/class/net/sub")).isFalse();
    assertThat(r.list("/sys/class/net")).isEmpty();
    assertThat(r.readLink("/sys/class/net/sub")).isEmpty();
    assertThat(r.read("/proc/self/limits").status()).isEqualTo("error");
    assertThat(r.read("/sys/class/net/../../../outside/secret").status()).isEqualTo("error");
  }

  @Test
  void linksThatStayInsideKeepWorking() throws IOException {
    Files.createSymbolicLink(root.resolve("proc/self/status"), Path.of("../../sys/class/infiniband/mlx5_0/ports/1/state"));
    HostRoot r = new HostRoot(root);
    assertThat(r.read("/sys/class/infiniband/mlx5_0/ports/1/state").text()).isEqualTo("4: ACTIVE\n");
    assertThat(r.read("/proc/self/status").text()).isEqualTo("4: ACTIVE\n");
    assertThat(r.list("/sys/class/infiniband/mlx5_0/ports")).containsExactly("1");
    assertThat(r.isDirectory("/sys/class/infiniband/mlx5_0")).isTrue();
    assertThat(r.readLink("/sys/class/infiniband/mlx5_0"))
        .contains("../../devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0");
  }

  @Test
  void theRootItselfMayBeReachedThroughALink() throws IOException {
    Path alias = tmp.resolve("alias");
    Files.createSymbolicLink(alias, root);
    assertThat(new HostRoot(alias).read("/sys/class/infiniband/mlx5_0/ports/1/state").text()).isEqualTo("4: ACTIVE\n");
  }

  @Test
  void replayedOutputIsNotReadThroughALinkOutOfTheCapture() throws IOException {
    write(commandDir().resolve("exit"), "0\n");
    Files.createSymbolicLink(commandDir().resolve("stdout"), outside.resolve("secret"));
    CommandResult r = new ReplayRunner(root).run(ARGV);
    assertThat(r.stdout()).doesNotContain("host secret");
    assertThat(r.status()).isEqualTo("error");
  }

  // --- item 6: FIFOs -------------------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/proc/self/status", "/sys/class/infiniband/mlx5_0/ports/1/state", "/" + CaptureLayout.ENV})
  void aFifoIsUnreadableNotAHang(String path) throws Exception {
    HostRoot plain = new HostRoot(root);
    Path physical = root.resolve(path.substring(1));
    if (path.contains("mlx5_0")) {
      physical = root.resolve("sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/ports/1/state");
    }
    mkfifo(physical);
    FileRead f = assertTimeoutPreemptively(HANG, () -> plain.read(path));
    assertThat(f.status()).isEqualTo("error");
    assertThat(f.detail()).contains("FIFO");
  }

  @Test
  void aFifoForRecordedOutputOrOpensIsNotAHang() throws Exception {
    mkfifo(root.resolve(CaptureLayout.OPENS));
    mkfifo(commandDir().resolve("stdout"));
    write(commandDir().resolve("exit"), "0\n");
    HostRoot r = assertTimeoutPreemptively(HANG, () -> new HostRoot(root));
    assertThat(r.tryOpen("/dev/infiniband/uverbs0")).isEqualTo("missing");
    CommandResult c = assertTimeoutPreemptively(HANG, () -> new ReplayRunner(root).run(ARGV));
    assertThat(c.status()).isEqualTo("error");
    assertThat(c.stderr()).contains("FIFO");
  }

  @Test
  void liveReadsOfProcAndSysStillWork() {
    HostRoot live = new HostRoot(Path.of("/"));
    assertThat(live.live()).isTrue();
    assertThat(live.read("/proc/self/status").text()).contains("Name:");
    assertThat(live.read("/proc/self/limits").ok()).isTrue();
    assertThat(live.tryOpen("/dev/null")).isEqualTo("ok"); // a character device, opened on purpose
    assertThat(live.read("/dev/null").status()).isEqualTo("error");
  }

  // --- item 4: replayed output is capped as live output is ----------------------------------

  @Test
  void aHugeRecordedStdoutIsCappedAndMarkedTruncated() throws IOException {
    write(commandDir().resolve("exit"), "0\n");
    try (RandomAccessFile f = new RandomAccessFile(commandDir().resolve("stdout").toFile(), "rw")) {
      f.setLength(1L << 30); // sparse: 1 GiB of zeros that take no disk
    }
    write(commandDir().resolve("stderr"), "fine\n");
    CommandResult r = new ReplayRunner(root).run(ARGV);
    assertThat(r.status()).isEqualTo("ok");
    assertThat(r.stdout()).hasSize(1 << 20);
    assertThat(r.truncated()).isTrue();
    assertThat(r.stderr()).isEqualTo("fine\n");
  }

  @Test
  void recordedOutputLinkedToAnEndlessDeviceIsNotRead() throws Exception {
    write(commandDir().resolve("exit"), "0\n");
    Files.createSymbolicLink(commandDir().resolve("stdout"), Path.of("/dev/urandom"));
    CommandResult r = assertTimeoutPreemptively(HANG, () -> new ReplayRunner(root).run(ARGV));
    assertThat(r.status()).isEqualTo("error");
    assertThat(r.stdout()).isEmpty();
  }

  @Test
  void aSmallRecordedOutputIsWholeAndNotTruncated() throws IOException {
    write(commandDir().resolve("exit"), "3\n");
    write(commandDir().resolve("stdout"), "hca_id:\tmlx5_0\n");
    CommandResult r = new ReplayRunner(root).run(ARGV);
    assertThat(r.status()).isEqualTo("failed");
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.stdout()).isEqualTo("hca_id:\tmlx5_0\n");
    assertThat(r.truncated()).isFalse();
  }

  @Test
  void anExitCodeOutOfRangeIsUnknownNotACrash() throws IOException {
    write(commandDir().resolve("exit"), "4294967296\n");
    assertThat(new ReplayRunner(root).run(ARGV).exitCode()).isEqualTo(-1);
  }
}
