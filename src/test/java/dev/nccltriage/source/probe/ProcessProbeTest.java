package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CaptureLayout;
import dev.nccltriage.host.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Step 5 and the environment as a user reads them: the memlock limit and CAP_IPC_LOCK of the
 * process that registers memory, its NCCL_* variables and LD_LIBRARY_PATH, and where each was read.
 */
class ProcessProbeTest {
  private static final String LIMITS_HEADER = "Limit                     Soft Limit           Hard Limit           Units     \n"
      + "Max open files            1048576              1048576              files     \n";
  /** CapEff of a privileged container: every capability, CAP_IPC_LOCK (bit 14) among them. */
  private static final String ALL_CAPS = "Name:\tpython\nCapEff:\t000001ffffffffff\n";
  /** CapEff of Docker's default set: no CAP_IPC_LOCK. */
  private static final String DEFAULT_CAPS = "Name:\tpython\nCapEff:\t00000000a80425fb\n";

  @TempDir Path dir;
  private final EvidenceBook book = new EvidenceBook();

  private void file(String path, String text) throws IOException {
    FakeRoot.file(dir, path, text);
  }

  private PodFacts.Memlock memlock() {
    return new ProcessProbe(new HostRoot(dir), book, null).memlock();
  }

  private List<Evidence> cited(String fact) {
    return book.snapshot().getOrDefault(fact, List.of());
  }

  private List<String> citedTexts(String fact) {
    return cited(fact).stream().map(Evidence::text).toList();
  }

  private static String memlockRow(String soft) {
    return "Max locked memory         " + soft + "             " + soft + "             bytes     \n";
  }

  @Test
  void anUnlimitedMemlockAndCapIpcLockAreReportedAndCited() throws IOException {
    file("proc/self/limits", LIMITS_HEADER + memlockRow("unlimited"));
    file("proc/self/status", ALL_CAPS);
    PodFacts.Memlock m = memlock();

    assertThat(m).isEqualTo(new PodFacts.Memlock("ok", "/proc/self", -1L, true));
    assertThat(cited("pod.memlockBytes"))
        .containsExactly(new Evidence("/proc/self/limits", 0, "Max locked memory soft unlimited"));
    assertThat(cited("pod.ipcLock"))
        .containsExactly(new Evidence("/proc/self/status", 0, "CapEff 000001ffffffffff: CAP_IPC_LOCK (bit 14) set"));
  }

  @Test
  void aSmallMemlockAndNoCapIpcLockAreReportedAndCited() throws IOException {
    file("proc/self/limits", LIMITS_HEADER + memlockRow("8388608"));
    file("proc/self/status", DEFAULT_CAPS);
    PodFacts.Memlock m = memlock();

    assertThat(m).isEqualTo(new PodFacts.Memlock("ok", "/proc/self", 8388608L, false));
    assertThat(citedTexts("pod.memlockBytes")).containsExactly("Max locked memory soft 8388608 bytes");
    assertThat(citedTexts("pod.ipcLock")).containsExactly("CapEff 00000000a80425fb: CAP_IPC_LOCK (bit 14) not set");
  }

  @Test
  void aMemlockTooLargeToReadIsCitedAsUnknown() throws IOException {
    file("proc/self/limits", LIMITS_HEADER + memlockRow("99999999999999999999"));
    PodFacts.Memlock m = memlock();

    assertThat(m.softBytes()).isNull();
    assertThat(citedTexts("pod.memlockBytes")).containsExactly("Max locked memory soft ?");
  }

  @Test
  void filesWithoutTheMemlockRowOrCapEffCiteNothing() throws IOException {
    file("proc/self/limits", LIMITS_HEADER);
    file("proc/self/status", "Name:\tpython\n");
    PodFacts.Memlock m = memlock();

    assertThat(m).isEqualTo(new PodFacts.Memlock("ok", "/proc/self", null, null));
    assertThat(book.snapshot()).doesNotContainKeys("pod.memlockBytes", "pod.ipcLock");
  }

  @Test
  void eitherFileAloneIsEnoughToAnswer() throws IOException {
    file("proc/self/limits", LIMITS_HEADER + memlockRow("unlimited"));
    assertThat(memlock()).isEqualTo(new PodFacts.Memlock("ok", "/proc/self", -1L, null));

    Files.delete(dir.resolve("proc/self/limits"));
    file("proc/self/status", ALL_CAPS);
    assertThat(memlock()).isEqualTo(new PodFacts.Memlock("ok", "/proc/self", null, true));
  }

  @Test
  void withNeitherFileTheStatusSaysWhetherTheyWereMissingOrUnreadable() throws IOException {
    assertThat(memlock()).isEqualTo(new PodFacts.Memlock("missing", "/proc/self", null, null));

    // a folder where /proc/self/limits should be cannot be read as one
    Files.createDirectories(dir.resolve("proc/self/limits"));
    assertThat(memlock()).isEqualTo(new PodFacts.Memlock("error", "/proc/self", null, null));
  }

  @Test
  void aCapturesRecordedEnvironmentIsReadEvenWithAPid() throws IOException {
    file(CaptureLayout.ENV, "NCCL_SOCKET_IFNAME=net1\nHOME=/root\nLD_LIBRARY_PATH=/opt/conda/lib\n");
    Map<String, String> env = new ProcessProbe(new HostRoot(dir), book, 4242L).env(Map.of(), 4242L);

    assertThat(env).containsExactly(Map.entry("LD_LIBRARY_PATH", "/opt/conda/lib"), Map.entry("NCCL_SOCKET_IFNAME", "net1"));
    assertThat(cited("env.NCCL_SOCKET_IFNAME"))
        .containsExactly(new Evidence("environment", 0, "NCCL_SOCKET_IFNAME=net1"));
    assertThat(cited("pod.libibverbs")).containsExactly(new Evidence("environment", 0, "LD_LIBRARY_PATH=/opt/conda/lib"));
  }

  @Test
  void onTheHostWithoutAPidItsOwnEnvironmentIsUsed() {
    Map<String, String> env = new ProcessProbe(new HostRoot(Path.of("/")), book, null)
        .env(Map.of("NCCL_DEBUG", "INFO", "PATH", "/usr/bin"), null);

    assertThat(env).containsExactly(Map.entry("NCCL_DEBUG", "INFO"));
    assertThat(cited("env.NCCL_DEBUG")).containsExactly(new Evidence("environment", 0, "NCCL_DEBUG=INFO"));
  }

  @Test
  void onTheHostWithAPidThatProcesssEnvironIsRead() throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder("sleep", "60");
    pb.environment().put("NCCL_IB_HCA", "mlx5_0,mlx5_1");
    Process training = pb.start();
    try {
      long pid = training.pid();
      Map<String, String> env = new ProcessProbe(new HostRoot(Path.of("/")), book, pid)
          .env(Map.of("NCCL_DEBUG", "INFO"), pid);

      assertThat(env).containsEntry("NCCL_IB_HCA", "mlx5_0,mlx5_1").doesNotContainKey("NCCL_DEBUG");
      assertThat(cited("env.NCCL_IB_HCA"))
          .containsExactly(new Evidence("/proc/" + pid + "/environ", 0, "NCCL_IB_HCA=mlx5_0,mlx5_1"));
    } finally {
      training.destroy();
      training.waitFor();
    }
  }
}
