package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A line of a host outside the sample is scanned by cleanConnection, and parse() of the same
 * message reuses that scan. The reader reuses its buffer, so the next line can sit at the same
 * offsets: the scan is that line's only if the line number matches too.
 */
class CleanConnectionScanTest {
  private static final String LOCAL = "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read1";
  private static final String NET = "Channel 00/0 : 0[0] -> 9[1] [send] via NET/IB/0";

  private final EvidenceSlot slot = new EvidenceSlot();
  private final ChannelParser channels = new ChannelParser(slot, new NetNames());

  private static ProcessState process() {
    return new ProcessState(1, false, new HostEvidence("h", new byte[] {'h'}, new EvidenceBudget()));
  }

  /** The reader's next line in buf at offset 0, number lineNo. */
  private void write(byte[] buf, String line, long lineNo) {
    byte[] l = line.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(l, 0, buf, 0, l.length);
    slot.source = "job.log";
    slot.at(buf, 0, l.length, lineNo);
  }

  @Test
  void theNextLineAtTheSameOffsetsIsScannedAgain() {
    assertThat(LOCAL).hasSameSizeAs(NET);
    byte[] buf = new byte[64];
    int e = LOCAL.length();
    write(buf, LOCAL, 1);
    assertThat(channels.cleanConnection(buf, 0, e)).isTrue();
    write(buf, NET, 2); // the reader's next line, at the same offsets
    ProcessState p = process();
    assertThat(channels.parse(p, buf, 0, e)).isTrue();
    assertThat(p.localChannels).isZero();
    assertThat(p.firstNetChannel().network).isEqualTo("IB");
    assertThat(p.firstNetChannel().send).isEqualTo(1);
  }

  @Test
  void theSameLineReusesItsScanWithTheSameResult() {
    byte[] buf = new byte[64];
    int e = NET.length();
    write(buf, NET, 5);
    channels.cleanConnection(buf, 0, e); // IB without GDRDMA: not clean, not scanned for parse
    ProcessState fresh = process();
    channels.parse(fresh, buf, 0, e);

    write(buf, LOCAL, 6);
    assertThat(channels.cleanConnection(buf, 0, e)).isTrue();
    ProcessState p = process();
    assertThat(channels.parse(p, buf, 0, e)).isTrue();
    assertThat(p.localChannels).isEqualTo(1);
    assertThat(p.hasNetChannels()).isFalse();
    assertThat(fresh.firstNetChannel().send).isEqualTo(1);
  }
}
