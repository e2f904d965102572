package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.DevInfiniband.Entry;
import dev.nccltriage.source.probe.parse.DevInfiniband.Result;
import org.junit.jupiter.api.Test;

class DevInfinibandTest {

  private static Result sample(String name) {
    return DevInfiniband.parse(Fixtures.read("dev-infiniband/" + name));
  }

  @Test
  void plainLsAmongOtherCommands() {
    Result r = sample("mooncake-102-container-partial-mount-plain-ls");
    assertThat(r.uverbs()).containsExactly("uverbs0");
    assertThat(r.rdmaCm()).isTrue();
    assertThat(r.others()).isEmpty(); // erdma_0/1 belong to /sys/class/infiniband
    assertThat(r.entries()).extracting(Entry::name).containsExactly("rdma_cm", "uverbs0");
  }

  @Test
  void hostByIbdevByPath() {
    Result r = sample("shared-dev-plugin-159-host-by-ibdev-by-path");
    assertThat(r.directories()).containsExactly("by-ibdev", "by-path");
    assertThat(r.umad()).hasSize(11).contains("umad0", "umad11");
    assertThat(r.uverbs()).containsExactly(
        "uverbs0", "uverbs10", "uverbs11", "uverbs2", "uverbs3", "uverbs4", "uverbs5", "uverbs6");
    assertThat(r.rdmaCm()).isTrue();
    Entry cm = r.entries().stream().filter(e -> e.name().equals("rdma_cm")).findFirst().get();
    assertThat(cm).isEqualTo(new Entry("rdma_cm", 'c', "crw-rw-rw-", 10, 122));
    Entry uv = r.entries().stream().filter(e -> e.name().equals("uverbs10")).findFirst().get();
    assertThat(uv.major()).isEqualTo(231);
    assertThat(uv.minor()).isEqualTo(202);
  }

  @Test
  void tuiWrappedPodWithoutUverbs() {
    Result r = sample("shared-dev-plugin-169-pod-no-uverbs-tui-wrapped");
    assertThat(r.uverbs()).isEmpty();
    assertThat(r.umad()).containsExactly("umad0", "umad1");
    assertThat(r.rdmaCm()).isTrue();
    assertThat(r.entries()).hasSize(3);
  }

  @Test
  void podTwoPfsIgnoresSysClassSections() {
    Result r = sample("shared-dev-plugin-64-pod-two-pfs-healthy");
    assertThat(r.uverbs()).containsExactly("uverbs0", "uverbs1");
    assertThat(r.umad()).containsExactly("umad0", "umad1");
    assertThat(r.issm()).containsExactly("issm0", "issm1");
    assertThat(r.rdmaCm()).isTrue();
    assertThat(r.others()).isEmpty(); // mlx5_0, eth0, bonding_masters are other sections
    assertThat(r.entries()).filteredOn(e -> e.name().equals("issm0"))
        .singleElement().extracting(Entry::minor).isEqualTo(64);
  }

  @Test
  void hostLsAlhWithDotEntries() {
    Result r = sample("shared-dev-plugin-98-host-ls-alh-issm-umad-uverbs");
    assertThat(r.issm()).hasSize(10);
    assertThat(r.umad()).hasSize(10);
    assertThat(r.uverbs()).containsExactly("uverbs0");
    assertThat(r.directories()).isEmpty(); // "." and ".." dropped
  }

  @Test
  void privilegedPodLlWithSlashDirs() {
    Result r = sample("sriov-ndp-342-privileged-pod-ll");
    assertThat(r.issm()).hasSize(12);
    assertThat(r.umad()).hasSize(7).contains("umad11");
    assertThat(r.uverbs()).isEmpty(); // the excerpt stops at umad4
    assertThat(r.directories()).isEmpty(); // "./" and "../"
    assertThat(r.rdmaCm()).isTrue();
  }

  @Test
  void plainLsHeaderlessAndMissingDirectory() {
    Result r = DevInfiniband.parse("by-ibdev  rdma_cm  umad0  uverbs0\r\n");
    assertThat(r.uverbs()).containsExactly("uverbs0");
    assertThat(r.directories()).containsExactly("by-ibdev");
    Result none = DevInfiniband.parse(
        "$ ls -l /dev/infiniband\nls: cannot access '/dev/infiniband': No such file or directory\n");
    assertThat(none.entries()).isEmpty();
    assertThat(none.messages()).hasSize(1);
    assertThat(DevInfiniband.parse("Here is the listing of my pod").entries()).isEmpty();
  }
}
