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
 * Step 1 as a user reads it: what /dev/infiniband holds, which HCA each uverbs serves, whether
 * each opens, and the evidence lines cited for the three.
 */
class DeviceProbeTest {
  @TempDir Path dir;
  private final EvidenceBook book = new EvidenceBook();

  private void file(String path, String text) throws IOException {
    FakeRoot.file(dir, path, text);
  }

  private PodFacts.Devices probe() {
    return new DeviceProbe(new HostRoot(dir), book).probe();
  }

  private List<Evidence> cited(String fact) {
    return book.snapshot().getOrDefault(fact, List.of());
  }

  @Test
  void eachUverbsIsNamedWithItsHcaAndWhetherItOpens() throws IOException {
    file("dev/infiniband/uverbs0", "");
    file("dev/infiniband/uverbs1", "");
    file("dev/infiniband/rdma_cm", "");
    file("sys/class/infiniband_verbs/uverbs0/ibdev", "mlx5_0\n");
    file("sys/class/infiniband_verbs/uverbs1/ibdev", "mlx5_1\n");
    file(CaptureLayout.OPENS, "/dev/infiniband/uverbs0\tok\n/dev/infiniband/uverbs1\tdenied\n");
    PodFacts.Devices d = probe();

    assertThat(d.uverbsHca()).containsExactly(Map.entry("uverbs0", "mlx5_0"), Map.entry("uverbs1", "mlx5_1"));
    assertThat(d.opens()).containsExactly(Map.entry("uverbs0", "ok"), Map.entry("uverbs1", "denied"));
    assertThat(d.rdmaCm()).isTrue();
    assertThat(cited("pod.uverbs")).containsExactly(new Evidence("/dev/infiniband", 0, "rdma_cm uverbs0 uverbs1"));
    assertThat(cited("pod.uverbsNames"))
        .containsExactly(new Evidence("/sys/class/infiniband_verbs/*/ibdev", 0, "uverbs0=mlx5_0 uverbs1=mlx5_1"));
    assertThat(cited("pod.uverbsOpenable"))
        .containsExactly(new Evidence("open(/dev/infiniband/uverbs*, O_RDWR)", 0, "uverbs0:ok uverbs1:denied"));
  }

  @Test
  void anEmptyDevInfinibandIsCitedAsEmptyAndNothingElse() throws IOException {
    Files.createDirectories(dir.resolve("dev/infiniband"));
    PodFacts.Devices d = probe();

    assertThat(d.present()).isTrue();
    assertThat(d.uverbs()).isEmpty();
    assertThat(cited("pod.uverbs")).containsExactly(new Evidence("/dev/infiniband", 0, "(empty)"));
    assertThat(book.snapshot()).doesNotContainKeys("pod.uverbsNames", "pod.uverbsOpenable");
  }

  @Test
  void aUverbsWhoseHcaCannotBeReadIsStillTriedButNotNamed() throws IOException {
    file("dev/infiniband/uverbs0", "");
    PodFacts.Devices d = probe();

    assertThat(d.uverbsHca()).isEmpty();
    assertThat(book.snapshot()).doesNotContainKey("pod.uverbsNames");
    assertThat(cited("pod.uverbsOpenable")).extracting(Evidence::text).containsExactly("uverbs0:ok");
  }

  /**
   * A capture this tool made tried every device it listed in opens.tsv: a device it does not list
   * (added by hand, or the file cut short), or a value it never writes, was not tried.
   */
  @Test
  void aDeviceTheCapturesOpensDoNotSayIsUnknown() throws IOException {
    file("dev/infiniband/uverbs0", "");
    file("dev/infiniband/uverbs1", "");
    file("dev/infiniband/uverbs2", "");
    file(CaptureLayout.OPENS, "/dev/infiniband/uverbs0\tdenied\n/dev/infiniband/uverbs1\tmaybe\u001b[31m\n");
    PodFacts.Devices d = probe();

    assertThat(d.opens()).containsExactly(Map.entry("uverbs0", "denied"),
        Map.entry("uverbs1", "unknown: .nccl-triage/opens.tsv says 'maybe\\x1b[31m'"),
        Map.entry("uverbs2", "unknown: not in the capture's .nccl-triage/opens.tsv"));
  }

  /**
   * An opens.tsv that cannot be read says nothing of any device; without one (a capture made by
   * hand) a device file there opens.
   */
  @Test
  void anUnreadableOpensFileSaysNothingAndNoneAtAllMeansMadeByHand() throws IOException {
    file("dev/infiniband/uverbs0", "");
    assertThat(probe().opens()).containsExactly(Map.entry("uverbs0", "ok"));
    Files.createDirectories(dir.resolve(CaptureLayout.OPENS));
    assertThat(probe().opens())
        .containsExactly(Map.entry("uverbs0", "unknown: not in the capture's .nccl-triage/opens.tsv"));
  }

  /** A folder of thousands of device files (a damaged capture): the first are tried, the rest counted as untried. */
  @Test
  void thousandsOfDevicesAreCountedButOnlyTheFirstAreTried() throws IOException {
    int n = DeviceProbe.MAX_TRIED + 3;
    for (int i = 0; i < n; i++) {
      file("dev/infiniband/uverbs" + i, "");
    }
    PodFacts.Devices d = probe();

    assertThat(d.uverbs()).hasSize(n);
    assertThat(d.opens().values().stream().filter("ok"::equals).count()).isEqualTo(DeviceProbe.MAX_TRIED);
    assertThat(d.opens().get("uverbs" + (n - 1))).startsWith(PodFacts.Devices.UNTRIED + "not tried");
  }
}
