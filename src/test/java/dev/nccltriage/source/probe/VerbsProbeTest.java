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
 * Step 2's user-space half as a user reads it: libibverbs.so.1 and the providers the image has,
 * what the HCAs need and lack, whether that could be known at all, and the evidence cited (where
 * each was found, and where it was looked for when not).
 */
class VerbsProbeTest {
  private static final List<String> LDCONFIG = List.of("ldconfig", "-p");
  private static final String CACHED = "3 libs found in cache `/etc/ld.so.cache'\n"
      + "\tlibmlx5.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libmlx5.so.1\n"
      + "\tlibibverbs.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libibverbs.so.1\n"
      + "\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6\n";
  private static final String LIBC_ONLY = "1 libs found in cache `/etc/ld.so.cache'\n"
      + "\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6\n";

  @TempDir Path dir;
  private final EvidenceBook book = new EvidenceBook();

  private static CommandResult cache(String stdout, boolean truncated) {
    return new CommandResult(LDCONFIG, "ok", 0, stdout, "", 5, 5000, truncated);
  }

  private static PodFacts.Hcas hcas(String... names) {
    return new PodFacts.Hcas("ok", "sysfs", List.of(names), List.of(names), List.of());
  }

  private PodFacts.Verbs probe(CommandResult ldconfig, PodFacts.Hcas hcas, String libraryPath) {
    return new VerbsProbe(new HostRoot(dir), book).probe(ldconfig, hcas, libraryPath);
  }

  private Path folder(String path) throws IOException {
    return Files.createDirectories(dir.resolve(path.substring(1)));
  }

  private List<Evidence> cited(String fact) {
    return book.snapshot().getOrDefault(fact, List.of());
  }

  @Test
  void whatTheLoaderCacheListsIsFoundAndCited() {
    PodFacts.Verbs v = probe(cache(CACHED, false), hcas("mlx5_0"), null);

    assertThat(v).isEqualTo(new PodFacts.Verbs("ok", "/lib/x86_64-linux-gnu/libibverbs.so.1", List.of("mlx5"),
        List.of(), null));
    assertThat(cited("pod.libibverbs"))
        .containsExactly(new Evidence("ldconfig -p", 0, "libibverbs.so.1 => /lib/x86_64-linux-gnu/libibverbs.so.1"));
    assertThat(cited("pod.verbsProviders"))
        .containsExactly(new Evidence("ldconfig -p: /lib/x86_64-linux-gnu/libmlx5.so.1", 0, "mlx5 provider"));
  }

  @Test
  void aCacheWithoutLibibverbsSaysWhereItWasLookedFor() {
    PodFacts.Verbs v = probe(cache(LIBC_ONLY, false), hcas("mlx5_0"), null);

    assertThat(v.libibverbs()).isEqualTo("absent");
    assertThat(v.missing()).containsExactly("mlx5");
    assertThat(cited("pod.libibverbs"))
        .containsExactly(new Evidence("ldconfig -p", 0, "libibverbs.so.1 not found; searched the loader cache"));
  }

  @Test
  void withoutALoaderCacheTheLibraryFoldersAreSearchedAndCited() throws IOException {
    Path lib = folder("/usr/lib/x86_64-linux-gnu");
    Files.writeString(lib.resolve("libibverbs.so.1"), "");
    Files.writeString(lib.resolve("libefa.so.1"), "");
    PodFacts.Verbs v = probe(CommandResult.missing(LDCONFIG), hcas("mlx5_0"), null);

    assertThat(v.libibverbs()).isEqualTo("/usr/lib/x86_64-linux-gnu/libibverbs.so.1");
    assertThat(v.providers()).containsExactly("efa");
    assertThat(cited("pod.libibverbs"))
        .containsExactly(new Evidence("/usr/lib/x86_64-linux-gnu/libibverbs.so.1", 0, "present"));
    assertThat(cited("pod.verbsProviders")).contains(new Evidence("library folders", 0,
        "no mlx5 provider (libmlx5-rdmav*.so, libmlx5.so.1) for the mlx5 HCAs; searched no loader cache"
            + " (ldconfig -p: missing), /usr/lib/x86_64-linux-gnu, /usr/lib and their libibverbs/"));
  }

  @Test
  void aCacheAndAFolderWithoutLibibverbsAreBothNamedAsSearched() throws IOException {
    folder("/usr/lib64");
    probe(cache(LIBC_ONLY, false), hcas(), null);

    assertThat(cited("pod.libibverbs")).containsExactly(
        new Evidence("ldconfig -p", 0, "libibverbs.so.1 not found; searched the loader cache, /usr/lib64"));
  }

  @Test
  void onlyTheFirst32LdLibraryPathFoldersAreSearched() throws IOException {
    StringBuilder path = new StringBuilder();
    for (int i = 1; i <= 33; i++) {
      folder("/env/lib" + i);
      path.append(i == 1 ? "" : ":").append("/env/lib").append(i);
    }
    Files.writeString(dir.resolve("env/lib33/libibverbs.so.1"), "");
    PodFacts.Verbs v = probe(cache(LIBC_ONLY, false), hcas(), path.toString());

    assertThat(v.libibverbs()).isEqualTo("absent");
  }

  @Test
  void withNothingReadableNothingIsClaimed() {
    PodFacts.Verbs v = probe(CommandResult.missing(LDCONFIG), hcas("mlx5_0"), null);

    assertThat(v).isEqualTo(new PodFacts.Verbs("missing", null, null, null, null));
  }

  @Test
  void anUnrecognisedCacheListingWithNoFolderIsAnError() {
    PodFacts.Verbs v = probe(cache("garbage\n", false), hcas("mlx5_0"), null);

    assertThat(v.status()).isEqualTo("error");
    assertThat(v.providers()).isNull();
  }

  @Test
  void aTruncatedCacheListingProvesWhatItShowsNotWhatItLacks() {
    String mlx5Only = "2 libs found in cache `/etc/ld.so.cache'\n"
        + "\tlibmlx5.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libmlx5.so.1\n";
    PodFacts.Verbs v = probe(cache(mlx5Only, true), hcas("mlx5_0", "efa_0"), null);

    assertThat(v).isEqualTo(new PodFacts.Verbs("error", null, List.of("mlx5"), null, null));
  }

  @Test
  void aRenamedHcasProviderIsCitedWithItsPciVendor() throws IOException {
    Path dev = folder("/sys/class/infiniband/rdma0/device");
    Files.writeString(dev.resolve("vendor"), "0x15b3\n");
    Files.writeString(dev.resolve("device"), "0x101e\n");
    probe(cache(CACHED, false), hcas("rdma0"), null);

    assertThat(cited("pod.verbsProviders")).contains(
        new Evidence("/sys/class/infiniband/rdma0/device/vendor", 0, "rdma0: PCI vendor 0x15b3, provider mlx5"));
  }
}
