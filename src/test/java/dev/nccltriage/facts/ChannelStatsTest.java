package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The network channel counts of a job: each process's connections, added up by direction. */
class ChannelStatsTest {

  @Test
  void twoProcessesChannelsAddUpDirectionByDirection() {
    // every count differs, so a count taken from the wrong side or subtracted shows
    ChannelStats a = new ChannelStats(8, 8, 4, 4, 4, 4);
    ChannelStats b = new ChannelStats(6, 3, 2, 1, 4, 2);
    ChannelStats sum = a.plus(b);
    assertThat(sum).isEqualTo(new ChannelStats(14, 11, 6, 5, 8, 6));
    assertThat(sum.gdr()).isEqualTo("some");
  }

  @Test
  void addingNoChannelsChangesNothing() {
    ChannelStats a = new ChannelStats(8, 8, 4, 4, 4, 4);
    assertThat(ChannelStats.NONE.plus(a)).isEqualTo(a);
    assertThat(ChannelStats.NONE.plus(ChannelStats.NONE).gdr()).isEqualTo("unknown");
  }
}
