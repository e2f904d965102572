package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads through a {@link HostRoot} with a {@link CaptureWriter}, then replays the capture. */
class CaptureWriterTest {
  @TempDir
  Path tmp;
  Path src;
  Path cap;

  @BeforeEach
  void fakeHost() throws IOException {
    src = tmp.resolve("host");
    cap = tmp.resolve("capture");
    String dev = "sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/";
    write(dev + "ports/1/state", "4: ACTIVE\n");
    write(dev + "ports/1/phys_state", "5: LinkUp\n");
    write(dev + "ports/1/rate", "400 Gb/sec (4X NDR)\n");
    write(dev + "ports/1/link_layer", "InfiniBand\n");
    write(dev + "ports/1/gids/0", "fe80:0000:0000:0000:b83f:d203:0012:3456\n");
    write(dev + "node_guid", "b83f:d203:0012:3456\n");
    write(dev + "empty", "");
    Files.createDirectories(src.resolve("sys/class/infiniband"));
    Files.createSymbolicLink(src.resolve("sys/class/infiniband/mlx5_0"),
        Path.of("../../devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0"));
    Files.createSymbolicLink(src.resolve("sys/class/infiniband/mlx5_1"),
        Path.of("../../devices/pci0000:17/0000:19:00.0/infiniband/mlx5_1"));
    write("sys/devices/pci0000:17/0000:19:00.0/infiniband/mlx5_1/ports/1/state", "1: DOWN\n");
    write("dev/infiniband/uverbs0", "");
    write("dev/infiniband/uverbs1", "");
    write("dev/infiniband/rdma_cm", "");
    write("dev/infiniband/umad0", "");
    Files.createDirectories(src.resolve("dev/infiniband/by-ibdev"));
    Files.createSymbolicLink(src.resolve("dev/infiniband/by-ibdev/mlx5_0"), Path.of("../uverbs0"));
    write("sys/module/nvidia_peermem/version", "550.54.15\n");
    write("proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units     \n"
        + "Max locked memory         8388608              8388608              bytes     \n");
    write("proc/123/environ", "PATH=/usr/bin\0NCCL_IB_HCA=mlx5_0\0AWS_SECRET_ACCESS_KEY=hunter2\0NCCL_DEBUG=INFO\0");
    write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15\n");
    Files.createDirectories(src.resolve("proc/driver/nvidia/gpus/0000:18:00.0"));
    Files.createDirectories(src.resolve("sys/class/empty"));
    // the fake host answers "denied" for uverbs1 (a live host would answer from open(2))
    write(CaptureLayout.OPENS, "/dev/infiniband/uverbs0\tok\n/dev/infiniband/uverbs1\tdenied\n");
  }

  private void write(String rel, String content) throws IOException {
    Path p = src.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
  }

  /** What the ladder sees, in words; the same script on the host and on the replay must agree. */
  private static List<String> script(HostRoot r) {
    List<String> out = new ArrayList<>();
    out.add("isDir /dev/infiniband " + r.isDirectory("/dev/infiniband"));
    out.add("list /dev/infiniband " + r.list("/dev/infiniband"));
    for (String u : List.of("uverbs0", "uverbs1", "uverbs9")) {
      out.add("open " + u + " " + r.tryOpen("/dev/infiniband/" + u));
    }
    out.add("list /sys/class/infiniband " + r.list("/sys/class/infiniband"));
    // reads through the symlink first, the link itself afterwards
    for (String f : List.of("state", "phys_state", "rate", "link_layer", "gids/0", "nothere")) {
      FileRead fr = r.read("/sys/class/infiniband/mlx5_0/ports/1/" + f);
      out.add("read " + f + " " + fr.status() + " " + fr.text());
    }
    out.add("list ports " + r.list("/sys/class/infiniband/mlx5_0/ports"));
    out.add("link mlx5_0 " + r.readLink("/sys/class/infiniband/mlx5_0"));
    out.add("link mlx5_1 " + r.readLink("/sys/class/infiniband/mlx5_1"));
    out.add("read mlx5_1 " + r.read("/sys/class/infiniband/mlx5_1/ports/1/state").text());
    out.add("read guid " + r.read("/sys/class/infiniband/mlx5_0/node_guid").text());
    out.add("read empty " + r.read("/sys/class/infiniband/mlx5_0/empty"));
    out.add("link by-ibdev " + r.readLink("/dev/infiniband/by-ibdev/mlx5_0"));
    out.add("exists peermem " + r.exists("/sys/module/nvidia_peermem"));
    out.add("isDir peermem " + r.isDirectory("/sys/module/nvidia_peermem"));
    out.add("exists nv_peer_mem " + r.exists("/sys/module/nv_peer_mem"));
    out.add("exists peermem version " + r.exists("/sys/module/nvidia_peermem/version"));
    out.add("read limits " + r.read("/proc/self/limits").text());
    out.add("read nvidia " + r.read("/proc/driver/nvidia/version").text());
    out.add("list gpus " + r.list("/proc/driver/nvidia/gpus"));
    out.add("list empty " + r.list("/sys/class/empty"));
    out.add("isDir empty " + r.isDirectory("/sys/class/empty"));
    out.add("list missing " + r.list("/sys/class/nothere"));
    return out;
  }

  @Test
  void replayAnswersWhatTheHostAnswered() throws IOException {
    CaptureWriter w = new CaptureWriter(cap, src);
    List<String> live = script(new HostRoot(src, w));
    List<String> replay = script(new HostRoot(cap));

    assertThat(replay).containsExactlyElementsOf(live);
    assertThat(w.problems()).isEmpty();
    assertThat(live).contains("open uverbs1 denied", "open uverbs9 missing", "exists peermem true",
        "read state ok 4: ACTIVE\n");
    // the link is a real, relative symlink inside the capture, and files moved to its target
    Path link = cap.resolve("sys/class/infiniband/mlx5_0");
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readSymbolicLink(link).toString()).isEqualTo("../../devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0");
    assertThat(cap.resolve("sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/ports/1/state"))
        .hasContent("4: ACTIVE");
    // listed but never read: an empty placeholder, so the device replays as present
    assertThat(cap.resolve("dev/infiniband/umad0")).isEmptyFile();
    assertThat(Files.readString(cap.resolve(CaptureLayout.OPENS)))
        .isEqualTo("/dev/infiniband/uverbs0\tok\n/dev/infiniband/uverbs1\tdenied\n/dev/infiniband/uverbs9\tmissing\n");
  }

  @Test
  void concurrentProbesRecordAConsistentCapture() throws Exception {
    CaptureWriter w = new CaptureWriter(cap, src);
    HostRoot live = new HostRoot(src, w);
    List<String> expected = script(new HostRoot(src));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<List<String>>> runs = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        runs.add(pool.submit(() -> script(live)));
      }
      for (Future<List<String>> f : runs) {
        assertThat(f.get()).containsExactlyElementsOf(expected);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(w.problems()).isEmpty();
    assertThat(script(new HostRoot(cap))).containsExactlyElementsOf(expected);
  }

  @Test
  void placeholdersNeverClobberRecordedFilesAndGiveWayToThem() throws IOException {
    CaptureWriter w = new CaptureWriter(cap, src);
    HostRoot r = new HostRoot(src, w);
    r.read("/proc/driver/nvidia/version");
    r.list("/proc/driver/nvidia"); // lists "version" (recorded) and "gpus" (a placeholder file)
    assertThat(cap.resolve("proc/driver/nvidia/version")).content().startsWith("NVRM version");
    assertThat(Files.isRegularFile(cap.resolve("proc/driver/nvidia/gpus"))).isTrue();
    r.list("/proc/driver/nvidia/gpus"); // the placeholder becomes a folder
    assertThat(Files.isDirectory(cap.resolve("proc/driver/nvidia/gpus/0000:18:00.0"), LinkOption.NOFOLLOW_LINKS))
        .isFalse();
    assertThat(Files.isDirectory(cap.resolve("proc/driver/nvidia/gpus"))).isTrue();
    r.list("/dev/infiniband");
    r.read("/dev/infiniband/uverbs0"); // a placeholder gives way to a recorded (empty) read
    r.list("/dev/infiniband");
    assertThat(cap.resolve("dev/infiniband/uverbs0")).isEmptyFile();
    assertThat(w.problems()).isEmpty();
  }

  @Test
  void environIsRecordedWithItsNcclEntriesOnly() throws IOException {
    CaptureWriter w = new CaptureWriter(cap, src);
    new HostRoot(src, w).read("/proc/123/environ");
    assertThat(Files.readString(cap.resolve("proc/123/environ")))
        .isEqualTo("NCCL_IB_HCA=mlx5_0\0NCCL_DEBUG=INFO\0");
  }

  @Test
  void refusesPathsThatEscapeAndNeverRecordsTheCaptureIntoItself() throws IOException {
    Path inside = src.resolve("tmp/cap");
    CaptureWriter w = new CaptureWriter(inside, src);
    w.file("/../../escaped", "x".getBytes(StandardCharsets.UTF_8));
    w.file("/a/../../escaped", "x".getBytes(StandardCharsets.UTF_8));
    w.dir("/..", List.of("escaped"));
    w.link("/sys/x", "/../../../escaped");
    w.file("/tmp/cap/sys/loop", "x".getBytes(StandardCharsets.UTF_8));
    w.dir("/tmp/cap", List.of("sys"));
    w.file("/" + CaptureLayout.OPENS, "forged\tok\n".getBytes(StandardCharsets.UTF_8));
    assertThat(Files.exists(tmp.resolve("escaped"))).isFalse();
    assertThat(Files.exists(src.resolve("escaped"))).isFalse();
    assertThat(Files.exists(inside.resolve("tmp"))).isFalse();
    assertThat(Files.exists(inside.resolve(CaptureLayout.OPENS))).isFalse();
    assertThat(w.problems()).hasSize(5).anyMatch(p -> p.contains("escapes the root"));
    // an absolute link that climbs above / is kept as a file with its target, never as a link out
    assertThat(Files.isSymbolicLink(inside.resolve("sys/x"))).isFalse();
  }

  @Test
  void absoluteLinksBecomeRelativeInsideTheCapture() throws IOException {
    CaptureWriter w = new CaptureWriter(cap, src);
    w.link("/sys/class/net/eth0", "/sys/devices/virtual/net/eth0");
    w.file("/sys/devices/virtual/net/eth0/mtu", "1500\n".getBytes(StandardCharsets.UTF_8));
    Path link = cap.resolve("sys/class/net/eth0");
    assertThat(Files.readSymbolicLink(link).toString()).isEqualTo("../../devices/virtual/net/eth0");
    assertThat(link.resolve("mtu")).hasContent("1500");
    assertThat(link.toRealPath()).startsWith(cap.toRealPath());
  }

  @Test
  void writesEnvAndMetaThatReplayAndPropertiesRead() throws IOException {
    CaptureWriter w = new CaptureWriter(cap, src);
    w.writeEnv(Map.of("NCCL_SOCKET_IFNAME", "net1", "NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1"));
    w.writeMeta(Map.of("tool", "nccl-triage 0.1.0", "pid", "123"));
    w.writeMeta(Map.of("note", "a:b = c\\d", "time", "2024-05-01T12:34:56Z"));
    assertThat(Files.readString(cap.resolve(CaptureLayout.ENV)))
        .isEqualTo("NCCL_IB_HCA==mlx5_0:1,mlx5_1:1\nNCCL_SOCKET_IFNAME=net1\n");
    assertThat(new HostRoot(cap).read("/" + CaptureLayout.ENV).text()).contains("NCCL_SOCKET_IFNAME=net1");
    assertThat(CaptureMeta.read(cap)).containsExactlyInAnyOrderEntriesOf(Map.of("tool", "nccl-triage 0.1.0",
        "pid", "123", "note", "a:b = c\\d", "time", "2024-05-01T12:34:56Z"));
    assertThat(Files.readString(cap.resolve(CaptureLayout.META))).doesNotContain("#").contains("time=2024-05-01T12:34:56Z");
  }

  @Test
  void captureRedactBundleExtractReplay() throws IOException {
    CaptureWriter w = new CaptureWriter(cap, src);
    List<String> live = script(new HostRoot(src, w));
    w.writeEnv(Map.of("NCCL_SOCKET_IFNAME", "net1"));
    w.writeMeta(Map.of("tool", "nccl-triage"));
    new Redactor().redactTree(cap);
    Path bundle = tmp.resolve("bundle.tar.gz");
    TarGz.write(cap, bundle);
    Path back = tmp.resolve("back");
    TarGz.extract(bundle, back);

    List<String> redacted = script(new HostRoot(cap));
    assertThat(script(new HostRoot(back))).containsExactlyElementsOf(redacted);
    for (int i = 0; i < live.size(); i++) {
      String l = live.get(i);
      if (l.contains("b83f") || l.contains("fe80")) {
        assertThat(redacted.get(i)).isNotEqualTo(l).doesNotContain("b83f");
      } else {
        assertThat(redacted.get(i)).isEqualTo(l); // listings, opens, links, states: unchanged
      }
    }
    assertThat(CaptureMeta.read(back)).containsEntry("redacted", "true").containsEntry("tool", "nccl-triage");
  }
}
