package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A host keeps up to three lines of each kind, and only the first {@link EvidenceBudget#HOSTS}
 * hosts that print a kind and value keep any. Both answers are final, so they are remembered (a
 * host's refused value, a process's full kinds); what is remembered must not hide a line that is
 * still to be kept: another value, another kind, another host.
 */
class EvidenceRecordTest {
  private final EvidenceSlot slot = new EvidenceSlot();
  private final EvidenceBudget budget = new EvidenceBudget();

  private HostEvidence host(String name) {
    return new HostEvidence(name, name.getBytes(StandardCharsets.US_ASCII), budget);
  }

  private void line(String text, long lineNo) {
    byte[] b = text.getBytes(StandardCharsets.US_ASCII);
    slot.source = "job.log";
    slot.at(b, 0, b.length, lineNo);
  }

  @Test
  void aFullKindOfOneProcessStopsNeitherOtherKindsNorItsHostsOtherProcesses() {
    HostEvidence h = host("node-1");
    ProcessState a = new ProcessState(1, false, h);
    ProcessState b = new ProcessState(2, false, h);
    for (int i = 1; i <= 5; i++) {
      line("channel " + i, i);
      slot.record(a, HostEvidence.CHANNEL_GDR, "IB");
    }
    assertThat(h.items(HostEvidence.CHANNEL_GDR)).extracting(e -> e.line()).containsExactly(1L, 2L, 3L);
    line("comm", 6);
    slot.record(a, HostEvidence.COMM, null);
    line("other process's channel", 7);
    slot.record(b, HostEvidence.CHANNEL_GDR, "IB");
    assertThat(h.items(HostEvidence.COMM)).extracting(e -> e.line()).containsExactly(6L);
    assertThat(h.items(HostEvidence.CHANNEL_GDR)).hasSize(3);
    assertThat(a.evidenceFull).isEqualTo(1 << HostEvidence.CHANNEL_GDR);
  }

  @Test
  void aHostRefusedOneValueStillKeepsAnotherThatHasRoom() {
    for (int i = 0; i < EvidenceBudget.HOSTS; i++) {
      ProcessState p = new ProcessState(1, false, host("node-" + i));
      line("ib", i + 1);
      slot.record(p, HostEvidence.CHANNEL_GDR, "IB");
    }
    HostEvidence late = host("node-late");
    ProcessState p = new ProcessState(1, false, late);
    for (int i = 0; i < 3; i++) {
      line("ib again", 100 + i);
      slot.record(p, HostEvidence.CHANNEL_GDR, "IB");
    }
    assertThat(late.items(HostEvidence.CHANNEL_GDR)).as("the budget for IB is spent").isEmpty();
    line("socket", 200);
    slot.record(p, HostEvidence.CHANNEL_NO_GDR, "Socket");
    line("ib ext", 201);
    slot.record(p, HostEvidence.CHANNEL_GDR, "IBext_v8");
    assertThat(late.items(HostEvidence.CHANNEL_NO_GDR)).extracting(e -> e.line()).containsExactly(200L);
    assertThat(late.items(HostEvidence.CHANNEL_GDR)).as("another value of the refused kind").extracting(e -> e.line())
        .containsExactly(201L);
  }
}
