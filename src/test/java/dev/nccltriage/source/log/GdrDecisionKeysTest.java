package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-HCA and per-pair GPUDirect RDMA decisions a log shows are kept under a bound (a job of
 * thousands of nodes prints one per HCA and GPU pair): past it no new key is kept, but a key that is
 * kept still learns that it was disabled somewhere, since "disabled on some" is what a verdict reads.
 */
class GdrDecisionKeysTest {
  @Test
  void aKeptDecisionStillLearnsItWasDisabledOnceTheBoundIsReached() {
    LogAccumulator acc = new LogAccumulator();
    Map<String, Boolean> m = new HashMap<>();
    for (int i = 0; i < 600; i++) {
      acc.seeGdr(m, "node" + i + "/mlx5_0", true);
    }
    int bound = m.size();
    assertThat(bound).isEqualTo(512);
    acc.seeGdr(m, "node0/mlx5_0", false);
    acc.seeGdr(m, "node511/mlx5_0", false);
    acc.seeGdr(m, "node600/mlx5_0", false);
    assertThat(m).hasSize(bound).containsEntry("node0/mlx5_0", false).containsEntry("node511/mlx5_0", false)
        .doesNotContainKey("node600/mlx5_0");
  }

  @Test
  void enabledDoesNotUndoDisabled() {
    LogAccumulator acc = new LogAccumulator();
    Map<String, Boolean> m = new HashMap<>();
    acc.seeGdr(m, "node0/mlx5_0", false);
    acc.seeGdr(m, "node0/mlx5_0", true);
    acc.seeGdr(m, null, false);
    assertThat(m).containsOnlyKeys("node0/mlx5_0").containsEntry("node0/mlx5_0", false);
  }
}
