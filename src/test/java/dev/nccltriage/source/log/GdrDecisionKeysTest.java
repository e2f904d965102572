package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-HCA and per-pair GPUDirect RDMA decisions a log shows are kept under a bound (a job of
 * thousands of nodes prints one per HCA and GPU pair; a part keeps more than the job's 512, cut
 * once after the merge, so that a late "disabled" counts in whichever part it falls): past it no new key is kept, but a key that is
 * kept still learns that it was disabled somewhere, since "disabled on some" is what a verdict reads.
 */
class GdrDecisionKeysTest {
  @Test
  void aKeptDecisionStillLearnsItWasDisabledOnceTheBoundIsReached() {
    LogAccumulator acc = new LogAccumulator();
    Map<String, Boolean> m = new HashMap<>();
    int n = LogAccumulator.PART_GDR_KEYS;
    for (int i = 0; i < n + 88; i++) {
      acc.seeGdr(m, "node" + i + "/mlx5_0", true);
    }
    int bound = m.size();
    assertThat(bound).isEqualTo(n);
    acc.seeGdr(m, "node0/mlx5_0", false);
    acc.seeGdr(m, "node" + (n - 1) + "/mlx5_0", false);
    acc.seeGdr(m, "node" + n + "/mlx5_0", false);
    assertThat(m).hasSize(bound).containsEntry("node0/mlx5_0", false).containsEntry("node" + (n - 1) + "/mlx5_0", false)
        .doesNotContainKey("node" + n + "/mlx5_0");
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
