package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.host.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RDMA NICs on the node's PCI bus, which a Pod sees whatever it was given: a node with none,
 * one with a ConnectX in an exclusive netns, a bus that cannot be read (unknown, not none), and
 * files a broken or hostile sysfs may hold.
 */
class PciNicProbeTest {
  @TempDir Path dir;
  private final EvidenceBook book = new EvidenceBook();

  /** As on a real kernel: the bus lists links to the function's folder under /sys/devices. */
  private void function(String addr, String cls, String vendor, String device) throws IOException {
    String real = "sys/devices/pci0000:00/" + addr;
    if (cls != null) {
      FakeRoot.file(dir, real + "/class", cls);
    }
    if (vendor != null) {
      FakeRoot.file(dir, real + "/vendor", vendor);
    }
    if (device != null) {
      FakeRoot.file(dir, real + "/device", device);
    }
    Files.createDirectories(dir.resolve(real));
    Path link = dir.resolve("sys/bus/pci/devices/" + addr);
    Files.createDirectories(link.getParent());
    Files.createSymbolicLink(link, Path.of("../../../devices/pci0000:00/" + addr));
  }

  private List<String> probe() {
    return new PciNicProbe(new HostRoot(dir), book).probe();
  }

  private List<String> cited() {
    return book.snapshot().getOrDefault("pod.rdmaNicsOnNode", List.of()).stream().map(Evidence::text).toList();
  }

  @Test
  void aVmWithAGpuAndAVirtioNicHasNone() throws IOException {
    function("0000:00:00.0", "0x060000\n", "0x8086\n", "0x0d57\n");
    function("0000:00:03.0", "0x020000\n", "0x1af4\n", "0x1041\n");
    function("0000:00:06.0", "0x030200\n", "0x10de\n", "0x2335\n");
    assertThat(probe()).isEmpty();
    assertThat(cited()).singleElement().asString().contains("none of 3 PCI functions");
  }

  @Test
  void connectXFunctionsAndAnEfaAreListedWithTheirFiles() throws IOException {
    function("0000:18:00.0", "0x020700\n", "0x15b3\n", "0x1021\n");
    function("0000:2a:00.1", "0x020000\n", "0x15b3\n", "0x101e\n");
    function("0000:31:00.0", "0x020000\n", "0x1d0f\n", "0xefa1\n");
    function("0000:32:00.0", "0x020000\n", "0x1d0f\n", "0xec20\n");
    assertThat(probe()).containsExactly("0000:18:00.0 (InfiniBand controller)",
        "0000:2a:00.1 (NVIDIA/Mellanox network controller)", "0000:31:00.0 (AWS EFA)");
    assertThat(book.snapshot().get("pod.rdmaNicsOnNode")).first()
        .extracting(Evidence::source).isEqualTo("/sys/bus/pci/devices/0000:18:00.0/class");
  }

  @Test
  void noBusIsUnknownNotNone() {
    assertThat(probe()).isNull();
    assertThat(cited()).isEmpty();
  }

  @Test
  void aBusWhoseClassFilesCannotBeReadIsUnknown() throws IOException {
    function("0000:00:03.0", null, "0x15b3\n", null);
    function("0000:00:04.0", "garbage\n", "0x15b3\n", null);
    assertThat(probe()).isNull();
  }

  @Test
  void hostileFilesAreSkippedNotFatal() throws IOException {
    function("0000:00:01.0", "\u0000\u0000\u0000", null, null);
    function("0000:00:02.0", "0x02000000000000000000\n", "0x15b3\n", null);
    function("0000:00:03.0", "0x020000\n", "0x15b3" + "f".repeat(5000), null);
    function("0000:00:04.0", "0x020000\n", "0x15b3\n", "\u00ff\u00fe");
    FakeRoot.file(dir, "sys/bus/pci/devices/not-a-function", "x");
    assertThat(probe()).containsExactly("0000:00:04.0 (NVIDIA/Mellanox network controller)");
  }

  @Test
  @org.junit.jupiter.api.Timeout(20)
  void aFifoALoopAndALinkOutOfTheCaptureAreNeitherReadNorWaitedOn() throws Exception {
    function("0000:18:00.0", "0x020000\n", "0x15b3\n", null);
    Path fifoFunction = dir.resolve("sys/devices/pci0000:00/0000:19:00.0");
    Files.createDirectories(fifoFunction);
    Process mkfifo = new ProcessBuilder("mkfifo", fifoFunction.resolve("class").toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    Files.createSymbolicLink(dir.resolve("sys/bus/pci/devices/0000:19:00.0"), Path.of("../../../devices/pci0000:00/0000:19:00.0"));
    Files.createSymbolicLink(dir.resolve("sys/bus/pci/devices/0000:1a:00.0"), Path.of("0000:1a:00.0"));
    Path outside = Files.createTempDirectory("pci-outside");
    Files.writeString(outside.resolve("class"), "0x020700\n");
    Files.createSymbolicLink(dir.resolve("sys/bus/pci/devices/0000:1b:00.0"), outside);
    try {
      assertThat(probe()).containsExactly("0000:18:00.0 (NVIDIA/Mellanox network controller)");
    } finally {
      Files.delete(outside.resolve("class"));
      Files.delete(outside);
    }
  }

  @Test
  void aHugeBusIsReadOnlyAsFarAsAPciDomainGoes() throws IOException {
    Path bus = dir.resolve("sys/bus/pci/devices");
    Files.createDirectories(bus);
    for (int i = 0; i < 5000; i++) {
      Path f = bus.resolve(String.format("0000:%02x:%02x.%d", i / 256, i % 256 / 8, i % 8));
      Files.createDirectories(f);
      Files.writeString(f.resolve("class"), "0x060400\n");
    }
    assertThat(probe()).isEmpty();
    assertThat(cited()).singleElement().asString().contains("none of 4096 PCI functions");
  }
}
