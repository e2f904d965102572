package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import org.junit.jupiter.api.Test;

/**
 * A line without an NCCL prefix is a channel line only in NCCL's shape ("Channel %02d", "Ring
 * %02d"): another program's "Ring buffer full" or "Channel closed" is neither an NCCL line nor a
 * process of the job.
 */
class BareChannelWordTest {
  @Test
  void anotherProgramsRingOrChannelLineIsNotNccl() {
    LogFacts f = LogLines.parse("Ring buffer full, dropping 12 events", "Channel closed by peer", "Ring 3 of 8 done");
    assertThat(f.ncclLines()).isZero();
    assertThat(f.processes()).isZero();
    assertThat(f.localChannels()).isZero();
  }

  @Test
  void aPastedChannelLineWithoutItsPrefixStillCounts() {
    LogFacts f = LogLines.parse("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC", "Ring 01 : 1[1] -> 2[2] via P2P/IPC",
        "Channel 02 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA");
    assertThat(f.ncclLines()).isEqualTo(3);
    assertThat(f.localChannels()).isEqualTo(2);
    assertThat(f.netChannels().total()).isEqualTo(1);
  }
}
