package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LdconfigCacheTest {
  private static String sample(String name) throws IOException {
    return Files.readString(Path.of("src/test/resources/probes/ldconfig-p/" + name + ".txt"));
  }

  @Test
  void readsTheEntriesOfAnRdmaCoreImage() throws IOException {
    LdconfigCache.Result r = LdconfigCache.parse(sample("ubuntu-22.04-rdma-core"));
    assertThat(r.header()).isTrue();
    assertThat(r.declared()).isEqualTo(312);
    assertThat(r.entries()).hasSize(11);
    assertThat(r.entries()).contains(new LdconfigCache.Entry("libibverbs.so.1", "libc6,x86-64",
        "/lib/x86_64-linux-gnu/libibverbs.so.1"));
    assertThat(r.entries()).contains(new LdconfigCache.Entry("libc.so.6", "libc6,x86-64, OS ABI: Linux 3.2.0",
        "/lib/x86_64-linux-gnu/libc.so.6"));
  }

  @Test
  void anImageWithoutVerbsListsNone() throws IOException {
    LdconfigCache.Result r = LdconfigCache.parse(sample("aarch64-no-verbs"));
    assertThat(r.recognised()).isTrue();
    assertThat(r.entries()).extracting(LdconfigCache.Entry::name).doesNotContain("libibverbs.so.1")
        .contains("libc.so.6");
    assertThat(r.entries().get(0).flags()).isEqualTo("libc6,AArch64");
  }

  @Test
  void readsLegacyMofedPluginsAndHwcapLines() throws IOException {
    LdconfigCache.Result r = LdconfigCache.parse(sample("rhel-mofed-legacy"));
    assertThat(r.entries()).extracting(LdconfigCache.Entry::name)
        .containsExactly("libmlx5.so.1", "libmlx5-rdmav2.so", "libibverbs.so.1", "libibverbs.so", "libfoo.so.1");
    assertThat(r.entries().get(4).path()).isEqualTo("/usr/lib64/sse2/libfoo.so.1");
  }

  @Test
  void anErrorOrOtherTextIsNotACacheListing() {
    assertThat(LdconfigCache.parse("ldconfig: Can't open cache file /etc/ld.so.cache\n: No such file or directory\n")
        .recognised()).isFalse();
    assertThat(LdconfigCache.parse("").recognised()).isFalse();
    assertThat(LdconfigCache.parse(null).recognised()).isFalse();
    assertThat(LdconfigCache.parse("\tlib.so (x => \n").entries()).isEmpty();
  }
}
