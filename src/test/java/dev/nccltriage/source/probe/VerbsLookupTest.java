package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Issue 12 item 8's gaps: a conda-style rdma-core found only through the process's LD_LIBRARY_PATH,
 * and HCAs renamed away from their driver's default name, whose provider comes from the PCI vendor.
 */
class VerbsLookupTest {
  private static final CommandResult EMPTY_CACHE = new CommandResult(List.of("ldconfig", "-p"), "ok", 0,
      "1 libs found in cache `/etc/ld.so.cache'\n\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6\n",
      "", 5, 5000, false);

  @TempDir Path dir;

  private static PodFacts.Hcas hcas(String... names) {
    return new PodFacts.Hcas("ok", "sysfs", List.of(names), List.of(names), List.of());
  }

  private PodFacts.Verbs probe(PodFacts.Hcas hcas, String libraryPath) {
    return new VerbsProbe(new HostRoot(dir), new EvidenceBook()).probe(EMPTY_CACHE, hcas, libraryPath);
  }

  private void condaEnv() throws IOException {
    Path lib = Files.createDirectories(dir.resolve("opt/conda/lib/libibverbs"));
    Files.writeString(lib.getParent().resolve("libibverbs.so.1"), "");
    Files.writeString(lib.resolve("libmlx5-rdmav34.so"), "");
    Files.createDirectories(dir.resolve("usr/lib/x86_64-linux-gnu"));
  }

  @Test
  void aLibraryOnlyOnLdLibraryPathIsFound() throws IOException {
    condaEnv();
    PodFacts.Verbs v = probe(hcas("mlx5_0"), "relative/lib:/opt/conda/lib/:/nonexistent");
    assertThat(v.libibverbs()).isEqualTo("/opt/conda/lib/libibverbs.so.1");
    assertThat(v.providers()).containsExactly("mlx5");
    assertThat(v.missing()).isEmpty();
    assertThat(v.libraryPath()).isEqualTo("relative/lib:/opt/conda/lib/:/nonexistent");
  }

  @Test
  void withoutLdLibraryPathTheSameImageLacksIt() throws IOException {
    condaEnv();
    PodFacts.Verbs v = probe(hcas("mlx5_0"), null);
    assertThat(v.libibverbs()).isEqualTo("absent");
    assertThat(v.missing()).containsExactly("mlx5");
  }

  @Test
  void aRenamedHcaNeedsTheProviderOfItsPciVendor() throws IOException {
    Path dev = Files.createDirectories(dir.resolve("sys/class/infiniband/rdma0/device"));
    Files.writeString(dev.resolve("vendor"), "0x15b3\n");
    Files.writeString(dev.resolve("device"), "0x101e\n");
    Path efa = Files.createDirectories(dir.resolve("sys/class/infiniband/rdmap16s27/device"));
    Files.writeString(efa.resolve("vendor"), "0x1d0f\n");
    Files.writeString(efa.resolve("device"), "0xefa1\n");
    Files.createDirectories(dir.resolve("usr/lib/x86_64-linux-gnu"));
    PodFacts.Verbs v = probe(hcas("rdma0", "rdmap16s27", "mystery0"), null);
    assertThat(v.missing()).containsExactly("mlx5", "efa");
  }

  @Test
  void pciIdsMapToTheirProviders() {
    assertThat(VerbsProbe.providerOfPci("0x15b3", "0x1003")).isEqualTo("mlx4");
    assertThat(VerbsProbe.providerOfPci("0x15b3", "0x1021")).isEqualTo("mlx5");
    assertThat(VerbsProbe.providerOfPci("0x14e4", "0x1750")).isEqualTo("bnxt_re");
    assertThat(VerbsProbe.providerOfPci("0x1234", "0x0001")).isNull();
    assertThat(VerbsProbe.providerOfPci("", "")).isNull();
  }
}
