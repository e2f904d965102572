package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NodeFacts;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Records glued into one line (processes writing one stream without line buffering) are read as the
 * same records on lines of their own: each is evidence with its own text, and each counts for its
 * own host, also when the line before it ends in what could start a host name.
 */
class GluedRecordsTest {
  private static final String SOCKET = "4f2c9a1e7b3d:31:31 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.5<0>";
  private static final String NO_DEVICE = "4f2c9a1e7b3d:31:31 [0] NCCL INFO NET/IB : No device found.";

  @Test
  void aGluedRecordIsEvidenceWithItsOwnText() {
    LogFacts f = LogLines.parse(SOCKET + NO_DEVICE, "4f2c9a1e7b3d:31:31 [0] NCCL INFO Using network Socket");
    assertThat(f.evidenceFor("ibNoDevice")).extracting(Evidence::text).containsExactly(NO_DEVICE);
    assertThat(f.evidenceFor("ibNoDevice")).extracting(Evidence::line).containsExactly(1L);
    assertThat(f.evidenceFor("socket")).extracting(Evidence::text).containsExactly(SOCKET);
  }

  @Test
  void theFirstRecordOfAGluedChannelLineEndsWhereTheNextStarts() {
    String ring = "node-a:7:9 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read";
    String comm = "node-a:8:8 [1] NCCL INFO comm 0x5500 rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0";
    LogFacts f = LogLines.parse(ring + comm, "node-a:7:9 [0] NCCL INFO Using network IB");
    assertThat(f.evidenceFor("localChannels")).extracting(Evidence::text).containsExactly(ring);
    assertThat(f.evidenceFor("comm")).extracting(Evidence::text).containsExactly(comm);
  }

  /**
   * Another host's name may have taken the message's last word ("GDRDMA" and "node-b" glued have no
   * seam): the record keeps every byte of its line, none of its own cut off.
   */
  @Test
  void aRecordBeforeAnotherHostsRunsToTheLinesEnd() {
    String ring = "node-a:7:9 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/IB/0/GDRDMA";
    String comm = "node-b:8:8 [1] NCCL INFO comm 0x5500 rank 1 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0";
    LogFacts f = LogLines.parse(ring + comm, "node-a:7:9 [0] NCCL INFO Using network IB",
        "node-b:8:8 [1] NCCL INFO Using network IB");
    assertThat(f.evidenceFor("channels.gdrdma")).extracting(Evidence::text).containsExactly(ring + comm);
    assertThat(f.nodeDetails()).extracting(NodeFacts::host).containsExactlyInAnyOrder("node-a", "node-b");
  }

  /** The glued record's host is the record's own before it: the word its name ran into is the message's. */
  @Test
  void aWordRunIntoTheSameHostsNameStaysInTheMessage() {
    LogFacts f = LogLines.parse(
        "cx50:18926:19004 [1] INFO Using internal Network Socket"
            + "cx50:18926:19004 [1] INFO NET : Using interface eno1:192.168.12.50<0>",
        "gpu-1:10770:10794 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device"
            + "gpu-1:10770:10794 [0] NCCL INFO transport/net_ib.cc:382 -> 2");
    assertThat(f.nodeDetails()).extracting(NodeFacts::host).containsExactlyInAnyOrder("cx50", "gpu-1");
    assertThat(f.nodeDetails()).filteredOn(n -> n.host().equals("cx50")).extracting(NodeFacts::transport)
        .containsExactly("Socket");
    assertThat(f.errors()).filteredOn(err -> err.kind().equals("ibv_modify_qp")).singleElement()
        .satisfies(err -> assertThat(err.detail()).isEqualTo("No such device"));
  }

  /** Both sides of every line of a two-node log glued, so that some processes only ever show glued. */
  @Test
  void aProcessSeenOnlyGluedCountsForItsHost() {
    List<String> lines = new ArrayList<>();
    for (int dev = 0; dev < 8; dev++) {
      for (String host : List.of("trainer-worker-0", "trainer-worker-1")) {
        String p = host + ":" + (57 + dev) + ":" + (57 + dev) + " [" + dev + "] NCCL INFO ";
        lines.add(p + "NET/IB : Using [0]mlx5_0:1/IB ; OOB net1:192.168.100.1<0>");
        lines.add(p + "Channel 00/0 : " + dev + "[" + dev + "] -> " + (dev + 8) + "[" + dev + "] [send]"
            + " via NET/IB/0/GDRDMA");
      }
    }
    List<String> glued = new ArrayList<>();
    for (int i = 0; i + 1 < lines.size(); i += 2) {
      glued.add(lines.get(i) + lines.get(i + 1));
    }
    LogFacts whole = LogLines.parse(lines);
    LogFacts f = LogLines.parse(glued);
    assertThat(f.nodeDetails()).extracting(NodeFacts::host).containsExactly("trainer-worker-0", "trainer-worker-1");
    assertThat(f.nodeDetails()).extracting(NodeFacts::processes).containsExactly(8, 8);
    assertThat(f.processes()).isEqualTo(whole.processes());
  }

  /**
   * A container id that starts with digits, glued after a channel line: the channel parser takes the
   * digits for the net device, and the name left is the id without them. It is the id's host.
   */
  @Test
  void aHostThatLostItsLeadingDigitsToAChannelLineIsItsHost() {
    LogFacts f = LogLines.parse(
        "9b7e03d5c1a8:29:29 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.7<0>",
        "4f2c9a1e7b3d:31:31 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.5<0>",
        "4f2c9a1e7b3d:31:114 [0] NCCL INFO Channel 00 : 3 -> 4 [receive] via NET/Socket/0"
            + "9b7e03d5c1a8:29:112 [0] NCCL INFO Channel 00 : 4[0] -> 5[1] via P2P/IPC");
    assertThat(f.nodeDetails()).extracting(NodeFacts::host).containsExactlyInAnyOrder("4f2c9a1e7b3d", "9b7e03d5c1a8");
    assertThat(f.processes()).isEqualTo(2);
  }

  /** Its first line glued under the host's own name, a later one under the name less its digits. */
  @Test
  void aProcessFirstMetGluedUnderItsOwnNameStaysOneProcess() {
    LogFacts f = LogLines.parse(
        "9b7e03d5c1a8:32:32 [3] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.7<0>"
            + "9b7e03d5c1a8:29:29 [0] NCCL INFO NET/IB : No device found.",
        "9b7e03d5c1a8:32:32 [3] NCCL INFO Channel 00 : 3 -> 4 [receive] via NET/Socket/0"
            + "9b7e03d5c1a8:29:112 [0] NCCL INFO Channel 00 : 4[0] -> 5[1] via P2P/IPC");
    assertThat(f.nodeDetails()).extracting(NodeFacts::host).containsExactly("9b7e03d5c1a8");
    assertThat(f.nodeDetails()).extracting(NodeFacts::processes).containsExactly(2);
  }

  @Test
  void aGluedNameNoRealHostGivesStaysItsOwn() {
    LogFacts f = LogLines.parse(
        "node-a:7:7 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.5<0>",
        "node-a:7:7 [0] NCCL INFO Channel 00 : 0 -> 1 via NET/Socket/0xnode-b:8:8 [0] NCCL INFO Using network Socket");
    assertThat(f.nodeDetails()).extracting(NodeFacts::host).containsExactlyInAnyOrder("node-a", "xnode-b");
  }
}
