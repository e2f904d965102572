package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Step 6 as a user reads it: whether nvidia_peermem (or the legacy nv_peer_mem) is loaded and
 * registered, the kernel and NVIDIA module, how many GPUs and which models, and the evidence
 * cited for each, from the /proc and /sys files a container sees.
 */
class GpuDirectProbeTest {
  private static final String NVRM = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.129.03  Release Build"
      + "  (dvs-builder@U16-I3-B03-4-3)  Tue Oct 31 02:28:47 UTC 2023";
  private static final PodFacts.Hcas NO_HCAS = new PodFacts.Hcas("sysfs", "sysfs", List.of(), List.of(), List.of());

  @TempDir Path dir;
  private final EvidenceBook book = new EvidenceBook();

  private void file(String path, String text) throws IOException {
    FakeRoot.file(dir, path, text);
  }

  private void folder(String path) throws IOException {
    Files.createDirectories(dir.resolve(path));
  }

  private PodFacts.GpuDirect probe() {
    return new GpuDirectProbe(new HostRoot(dir), book).probe(CommandResult.missing(List.of("nvidia-smi")), NO_HCAS);
  }

  private List<Evidence> cited(String fact) {
    return book.snapshot().getOrDefault(fact, List.of());
  }

  private List<String> citedTexts(String fact) {
    return cited(fact).stream().map(Evidence::text).toList();
  }

  @Test
  void peermemListedInProcModulesIsLoaded() throws IOException {
    file("proc/modules", "nvidia_peermem 16384 0 - Live 0x0000000000000000\nib_core 434176 8 - Live 0x0\n");
    PodFacts.GpuDirect g = probe();

    assertThat(g.peermemLoaded()).isTrue();
    assertThat(cited("pod.peermemLoaded")).containsExactly(new Evidence("/proc/modules", 0, "nvidia_peermem loaded"));
    assertThat(g.peermemRegistered()).as("its /sys/kernel/mm/memory_peers entry is not there").isFalse();
    assertThat(citedTexts("pod.peermemRegistered")).containsExactly("missing");
    assertThat(g.nvPeerMem()).isFalse();
  }

  @Test
  void procModulesWithoutPeermemSaysNotLoaded() throws IOException {
    file("proc/modules", "ib_core 434176 8 - Live 0x0\n");
    PodFacts.GpuDirect g = probe();

    assertThat(g.peermemLoaded()).isFalse();
    assertThat(citedTexts("pod.peermemLoaded")).containsExactly("nvidia_peermem not loaded");
  }

  @Test
  void peermemsSysModuleFolderIsCitedAsWhereItWasSeen() throws IOException {
    folder("sys/module/nvidia_peermem");
    folder("sys/kernel/mm/memory_peers/nv_mem/version");
    PodFacts.GpuDirect g = probe();

    assertThat(g.peermemLoaded()).isTrue();
    assertThat(cited("pod.peermemLoaded"))
        .containsExactly(new Evidence("/sys/module/nvidia_peermem", 0, "nvidia_peermem loaded"));
    assertThat(g.peermemRegistered()).isTrue();
    assertThat(citedTexts("pod.peermemRegistered")).containsExactly("present");
  }

  @Test
  void aSysModuleFolderWithoutPeermemSaysNotLoadedWhenProcModulesIsUnreadable() throws IOException {
    folder("sys/module/ib_core");
    PodFacts.GpuDirect g = probe();

    assertThat(g.peermemLoaded()).isFalse();
    assertThat(g.nvPeerMem()).isFalse();
    assertThat(citedTexts("pod.peermemLoaded")).containsExactly("nvidia_peermem not loaded");
  }

  @Test
  void withNeitherProcModulesNorSysModuleNothingIsKnownOrCited() {
    PodFacts.GpuDirect g = probe();

    assertThat(g.peermemLoaded()).isNull();
    assertThat(g.peermemRegistered()).isNull();
    assertThat(g.nvPeerMem()).isNull();
    assertThat(book.snapshot()).doesNotContainKeys("pod.peermemLoaded", "pod.peermemRegistered");
    assertThat(g.status()).as("none of /proc/modules, the NVIDIA version nor osrelease could be read").isEqualTo("error");
  }

  @Test
  void theLegacyNvPeerMemIsSeenInProcModulesOrSysModule() throws IOException {
    file("proc/modules", "nv_peer_mem 16384 0 - Live 0x0\n");
    assertThat(probe().nvPeerMem()).isTrue();

    Files.delete(dir.resolve("proc/modules"));
    folder("sys/module/nv_peer_mem");
    assertThat(probe().nvPeerMem()).isTrue();
  }

  @Test
  void theKernelReleaseIsReportedAndCited() throws IOException {
    file("proc/sys/kernel/osrelease", "5.15.0-91-generic\n");
    PodFacts.GpuDirect g = probe();

    assertThat(g.kernel()).isEqualTo("5.15.0-91-generic");
    assertThat(citedTexts("pod.kernel")).containsExactly("5.15.0-91-generic");
    assertThat(g.status()).isEqualTo("ok");
  }

  @Test
  void anOsreleaseWithoutAVersionCitesNoKernel() throws IOException {
    file("proc/sys/kernel/osrelease", "unknown\n");
    PodFacts.GpuDirect g = probe();

    assertThat(g.kernel()).isNull();
    assertThat(book.snapshot()).doesNotContainKey("pod.kernel");
  }

  @Test
  void theNvidiaModulesVersionLineIsReportedAndCited() throws IOException {
    file("proc/driver/nvidia/version", NVRM + "\nGCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)\n");
    PodFacts.GpuDirect g = probe();

    assertThat(g.nvidiaModule()).isEqualTo("open");
    assertThat(g.driverVersion()).isEqualTo("535.129.03");
    assertThat(citedTexts("pod.nvidiaModule")).singleElement().asString().startsWith("NVRM version: NVIDIA UNIX Open");
    assertThat(g.status()).isEqualTo("ok");
  }

  @Test
  void aVersionFileWithoutAnNvrmLineCitesNoModule() throws IOException {
    file("proc/driver/nvidia/version", "GCC version:  gcc version 11.4.0\n");
    PodFacts.GpuDirect g = probe();

    assertThat(g.driverVersion()).isNull();
    assertThat(book.snapshot()).doesNotContainKey("pod.nvidiaModule");
  }

  @Test
  void onlyProcModulesReadableIsStillAnAnswer() throws IOException {
    file("proc/modules", "ib_core 434176 8 - Live 0x0\n");
    assertThat(probe().status()).isEqualTo("ok");
  }

  @Test
  void gpusAreCountedFromProcDriverNvidiaWithTheirDistinctModelsCited() throws IOException {
    file("proc/driver/nvidia/gpus/0000:18:00.0/information", "Model: \t\t NVIDIA H100 80GB HBM3\nIRQ: 1\n");
    file("proc/driver/nvidia/gpus/0000:38:00.0/information", "Model: \t\t NVIDIA H100 80GB HBM3\nIRQ: 2\n");
    folder("dev/nvidia0");
    PodFacts.GpuDirect g = probe();

    assertThat(g.gpus()).isEqualTo(2);
    assertThat(g.gpuModels()).containsExactly("NVIDIA H100 80GB HBM3");
    assertThat(cited("pod.gpuModels")).containsExactly(
        new Evidence("/proc/driver/nvidia/gpus/0000:18:00.0/information", 0, "Model: NVIDIA H100 80GB HBM3"));
    assertThat(cited("pod.gpus")).containsExactly(new Evidence("/proc/driver/nvidia/gpus", 0, "2 GPU(s)"));
  }

  @Test
  void withoutProcDriverNvidiaGpusTheNumberedDevNodesAreCounted() throws IOException {
    for (String n : List.of("nvidia0", "nvidia1", "nvidia2", "nvidiactl", "nvidia-uvm", "nvidia-caps")) {
      folder("dev/" + n);
    }
    PodFacts.GpuDirect g = probe();

    assertThat(g.gpus()).isEqualTo(3);
    assertThat(cited("pod.gpus")).containsExactly(new Evidence("/dev/nvidia*", 0, "3 GPU(s)"));
  }
}
