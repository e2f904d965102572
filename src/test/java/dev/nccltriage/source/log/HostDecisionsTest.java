package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A host remembers the GPUDirect RDMA decision texts it applied (by identity), so that its
 * processes' repeats of a decision do not build its per-host keys again: as many as a node prints
 * (a decision per GPU and NIC pair it uses), up to a bound; past it every text counts as new, which
 * costs time, never a wrong answer (applying a decision again changes nothing).
 */
class HostDecisionsTest {
  @Test
  void aHostKnowsEachOfItsDecisionsAfterTheFirstUpToThirtyTwo() {
    HostEvidence host = new HostEvidence("node-0", "node-0".getBytes(), null);
    List<Object> decisions = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      decisions.add(new Object());
      assertThat(host.firstDecision(decisions.get(i))).as("decision %d, first", i).isTrue();
    }
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 32; i++) {
        assertThat(host.firstDecision(decisions.get(i))).as("decision %d again", i).isFalse();
      }
    }
    Object more = new Object();
    assertThat(host.firstDecision(more)).isTrue();
    assertThat(host.firstDecision(more)).as("past the bound every text is new").isTrue();
    assertThat(host.firstDecision(decisions.get(31))).isFalse();
  }

  @Test
  void decisionsAreTheTextsThemselvesNotEqualOnes() {
    HostEvidence host = new HostEvidence("node-0", "node-0".getBytes(), null);
    String text = "GPU Direct RDMA Enabled for HCA 0 'mlx5_0'";
    assertThat(host.firstDecision(text)).isTrue();
    assertThat(host.firstDecision(new String(text))).isTrue();
    assertThat(host.firstDecision(text)).isFalse();
  }

  @Test
  void eachHostKeepsItsOwn() {
    HostEvidence a = new HostEvidence("node-0", "node-0".getBytes(), null);
    HostEvidence b = new HostEvidence("node-1", "node-1".getBytes(), null);
    Object d = new Object();
    assertThat(a.firstDecision(d)).isTrue();
    assertThat(b.firstDecision(d)).isTrue();
    assertThat(a.firstDecision(d)).isFalse();
  }
}
