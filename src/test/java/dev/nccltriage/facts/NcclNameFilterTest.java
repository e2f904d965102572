package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** NCCL_IB_HCA / NCCL_SOCKET_IFNAME lists: which HCAs or interfaces NCCL would select. */
class NcclNameFilterTest {

  @Test
  void aListMatchingNoneOfTheHcasSelectsNone() {
    NcclNameFilter f = NcclNameFilter.parse("mlx5_0:1");
    assertThat(f.selectsAny(List.of("mlx5_1", "mlx5_2"))).isFalse();
    assertThat(f.selectsAny(List.of("mlx5_1", "mlx5_0"))).isTrue();
  }

  @Test
  void anEntryThatIsOnlyAPortNamesNothing() {
    // ":1" is a port without an HCA name: dropped, so an exact list of it selects no name at all
    assertThat(NcclNameFilter.parse("=:1").selects(":1")).isFalse();
    assertThat(NcclNameFilter.parse("=:1,mlx5_0:1").selects("mlx5_0")).isTrue();
  }

  @Test
  void namesArePrefixesUnlessTheListStartsWithAnEqualsSign() {
    // NCCL_IB_HCA=mlx5_1 also takes mlx5_10 and mlx5_11 (prefix match); =mlx5_1 takes mlx5_1 alone
    assertThat(NcclNameFilter.parse("mlx5_1").selects("mlx5_10")).isTrue();
    assertThat(NcclNameFilter.parse("mlx5_1").selects("mlx5_1")).isTrue();
    assertThat(NcclNameFilter.parse("=mlx5_1").selects("mlx5_10")).isFalse();
    assertThat(NcclNameFilter.parse("=mlx5_1").selects("mlx5_1")).isTrue();
    // "^=" excludes exactly the names listed
    assertThat(NcclNameFilter.parse("^=mlx5_2,mlx5_3").selects("mlx5_20")).isTrue();
    assertThat(NcclNameFilter.parse("^=mlx5_2,mlx5_3").selects("mlx5_3")).isFalse();
  }
}
