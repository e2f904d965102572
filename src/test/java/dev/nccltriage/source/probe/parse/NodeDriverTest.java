package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.NvidiaDriverVersion.Flavor;
import org.junit.jupiter.api.Test;

class NodeDriverTest {

  private static NvidiaDriverVersion.Result nv(String name) {
    return NvidiaDriverVersion.parse(Fixtures.read("proc-driver-nvidia-version/" + name));
  }

  private static PeerMem.Result peer(String name) {
    return PeerMem.parse(Fixtures.read("nvidia-peermem/" + name));
  }

  // ---- /proc/driver/nvidia/version

  @Test
  void dmesgLoadingLineProprietary() {
    NvidiaDriverVersion.Result r = nv("gpu-operator-662-dmesg-nvrm-loading-proprietary");
    assertThat(r.driverVersion()).isEqualTo("525.147.05");
    assertThat(r.flavor()).isEqualTo(Flavor.PROPRIETARY);
    assertThat(r.arch()).isEqualTo("x86_64");
    assertThat(r.gccVersion()).isNull();
  }

  @Test
  void proprietary384WithTrailingSpaceOnGcc() {
    NvidiaDriverVersion.Result r = nv("neofetch-876-proprietary-384");
    assertThat(r.driverVersion()).isEqualTo("384.98");
    assertThat(r.flavor()).isEqualTo(Flavor.PROPRIETARY);
    assertThat(r.arch()).isEqualTo("x86_64");
    assertThat(r.gccVersion()).isEqualTo("7.2.0");
    assertThat(r.gccLine()).isEqualTo("gcc version 7.2.0 (Ubuntu 7.2.0-8ubuntu3)");
  }

  @Test
  void openDistroBuildEmptyDate() {
    NvidiaDriverVersion.Result r = nv("nixgl-121-open-525-arch-trailing-spaces");
    assertThat(r.driverVersion()).isEqualTo("525.60.11");
    assertThat(r.flavor()).isEqualTo(Flavor.OPEN);
    assertThat(r.arch()).isEqualTo("x86_64");
    assertThat(r.gccVersion()).isEqualTo("12.2.0");
  }

  @Test
  void openJetsonAarch64() {
    NvidiaDriverVersion.Result r = nv("nixgl-139-open-jetson-aarch64-l4t");
    assertThat(r.driverVersion()).isEqualTo("35.3.1");
    assertThat(r.flavor()).isEqualTo(Flavor.OPEN);
    assertThat(r.arch()).isEqualTo("aarch64");
    assertThat(r.gccVersion()).isEqualTo("9.3.0");
  }

  @Test
  void open565() {
    NvidiaDriverVersion.Result r = nv("nixgl-186-open-565-ubuntu2404");
    assertThat(r.driverVersion()).isEqualTo("565.57.01");
    assertThat(r.flavor()).isEqualTo(Flavor.OPEN);
    assertThat(r.gccVersion()).isEqualTo("13.3.0");
    assertThat(r.nvrmLine()).startsWith("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64");
  }

  @Test
  void readmeFlavorCheckElidedVersions() {
    String text = Fixtures.read("proc-driver-nvidia-version/open-gpu-kernel-modules-171-readme-flavor-check");
    NvidiaDriverVersion.Result first = NvidiaDriverVersion.parse(text);
    assertThat(first.flavor()).isEqualTo(Flavor.PROPRIETARY); // the first NVRM line
    assertThat(first.driverVersion()).isNull(); // "[...]"
    assertThat(first.license()).isEqualTo("NVIDIA");
    String open = text.substring(text.indexOf("The open flavor"));
    NvidiaDriverVersion.Result second = NvidiaDriverVersion.parse(open);
    assertThat(second.flavor()).isEqualTo(Flavor.OPEN);
    assertThat(second.license()).isEqualTo("Dual MIT/GPL");
    assertThat(NvidiaDriverVersion.parse("license:        Dual MIT/GPL\n").flavor())
        .isEqualTo(Flavor.OPEN);
  }

  // ---- kernel version

  @Test
  void kernelVersions() {
    KernelVersion.Result r = KernelVersion.parse("5.15.0-91-generic\n");
    assertThat(r.major()).isEqualTo(5);
    assertThat(r.minor()).isEqualTo(15);
    assertThat(r.patch()).isZero();
    assertThat(r.raw()).isEqualTo("5.15.0-91-generic");
    assertThat(r.atLeast(5, 12)).isTrue();
    assertThat(r.atLeast(6, 0)).isFalse();
    KernelVersion.Result el7 = KernelVersion.parse("3.10.0-1127.19.1.el7.x86_64");
    assertThat(el7.major()).isEqualTo(3);
    assertThat(el7.minor()).isEqualTo(10);
    KernelVersion.Result two = KernelVersion.parse("$ uname -r\r\n6.8\r\n");
    assertThat(two.patch()).isNull();
    assertThat(two.minor()).isEqualTo(8);
    KernelVersion.Result a = KernelVersion.parse(
        "Linux gpu-node-1 6.5.0-1015-nvidia #15-Ubuntu SMP x86_64 GNU/Linux");
    assertThat(a.raw()).isEqualTo("6.5.0-1015-nvidia");
    assertThat(KernelVersion.parse("no kernel here").found()).isFalse();
  }

  @Test
  void kernelVersionFromTheInsmodPathOfASample() {
    String text = Fixtures.read("nvidia-peermem/nv-peer-memory-84-nv_peer_mem-unknown-symbol-no-mofed");
    String path = text.lines().filter(l -> l.startsWith("insmod")).findFirst().orElseThrow();
    String release = path.split("/")[3];
    KernelVersion.Result r = KernelVersion.parse(release);
    assertThat(r.major()).isEqualTo(3);
    assertThat(r.minor()).isEqualTo(10);
    assertThat(r.patch()).isZero();
  }

  // ---- lsmod / peermem

  @Test
  void lsmodPeermemLoaded() {
    PeerMem.Result r = peer("nccl-1737-lsmod-peermem-loaded");
    assertThat(r).isEqualTo(new PeerMem.Result(true, false, true, true, 8));
  }

  @Test
  void spiderpoolLsmodIndentedJoined() {
    PeerMem.Result r = peer("spiderpool-doc-lsmod-peermem-gdrdrv");
    assertThat(r.nvidiaPeermem()).isTrue();
    assertThat(r.nvidia()).isFalse(); // filtered by grep
    assertThat(r.moduleLines()).isEqualTo(2);
  }

  @Test
  void modprobeAndDmesgErrorsAreNotModuleLines() {
    assertThat(peer("gpu-operator-2868-peermem-ctr-invalid-argument-symbol-mismatch"))
        .isEqualTo(new PeerMem.Result(false, false, false, false, 0));
    assertThat(peer("nv-peer-memory-84-nv_peer_mem-unknown-symbol-no-mofed"))
        .isEqualTo(new PeerMem.Result(false, false, false, false, 0));
  }

  @Test
  void usedByListDoesNotCountAndProcModulesFormat() {
    PeerMem.Result r = PeerMem.parse(
        "ib_core 442368 9 rdma_cm,nvidia_peermem,nv_peer_mem\n"
            + "nv_peer_mem 16384 0 - Live 0xffffffffc0a00000 (OE)\r\n");
    assertThat(r).isEqualTo(new PeerMem.Result(false, true, true, false, 2));
  }
}
