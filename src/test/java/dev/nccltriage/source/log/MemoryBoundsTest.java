package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LeftOut;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NodeFacts;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory is bounded by design, whatever the number of hosts and processes: a part of the log and
 * the job tell apart at most so many hosts and processes (past that, a hash sample of hosts, the
 * same in every part; a host's further processes as one), keep lines as evidence for a few hosts
 * per kind and value, and say what they left out with exact counts where they are known.
 */
class MemoryBoundsTest {
  @TempDir Path dir;

  /** Pass after pass over all hosts (every part of the file holds every host); one host on sockets. */
  static String hostsLog(int hosts, int ranksPerHost, int socketHost) {
    StringBuilder b = new StringBuilder();
    for (int pass = 0; pass < 4; pass++) {
      for (int h = 0; h < hosts; h++) {
        for (int r = 0; r < ranksPerHost; r++) {
          int rank = h * ranksPerHost + r;
          boolean sock = h == socketHost;
          b.append(String.format("host-%05d:%d:%d [%d] NCCL INFO ", h, 100 + r, 100 + r, r));
          switch (pass) {
            case 0 -> b.append(sock ? "NET/IB : No device found." : "NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>");
            case 1 -> b.append("Using network ").append(sock ? "Socket" : "IB");
            case 2 -> b.append("comm 0x1 rank ").append(rank).append(" nRanks ").append(hosts * ranksPerHost)
                .append(" nNodes ").append(hosts).append(" localRanks ").append(ranksPerHost).append(" localRank ").append(r);
            default -> b.append("Channel 00/0 : ").append(rank).append("[").append(r).append("] -> ")
                .append((rank + ranksPerHost) % (hosts * ranksPerHost)).append("[").append(r).append("] [send] via NET/")
                .append(sock ? "Socket/0" : "IB/0/GDRDMA");
          }
          b.append('\n');
        }
      }
    }
    return b.toString();
  }

  private LogFacts file(String text, int threads, int hosts, int processes) throws Exception {
    Path f = Files.writeString(dir.resolve("job-" + threads + ".log"), text);
    // parts of 16 KiB: every part holds lines of every host
    return new NcclLogSource(java.io.InputStream.nullInputStream(), threads, 4096, threads == 1 ? Long.MAX_VALUE : 16384)
        .withLimits(hosts, processes).read(List.of(f.getFileName().toString()), dir);
  }

  @Test
  void pastTheHostLimitASampleIsKeptTheSameInEveryPart() throws Exception {
    String log = hostsLog(3000, 1, -1);
    LogFacts one = file(log, 1, 256, 1 << 20);
    LogFacts three = file(log, 3, 256, 1 << 20);
    for (LogFacts f : List.of(one, three)) {
      List<NodeFacts> named = f.nodeDetails().stream().filter(n -> n.host() != null).toList();
      assertThat(named.size()).as("hosts told apart").isBetween(64, 256);
      // every host kept has all of its lines, from every part: one channel each
      assertThat(named).allSatisfy(n -> assertThat(n.netChannels().total()).as(n.host()).isEqualTo(1));
      LeftOut left = f.leftOut();
      assertThat(left).isNotNull();
      assertThat(left.hostsSampled()).isTrue();
      assertThat(left.hostsKept()).isEqualTo(named.size());
      assertThat(left.hosts()).as("estimated hosts").isBetween(1500L, 6000L);
      // the lines of the others are counted, not lost
      assertThat(f.netChannels().total()).isEqualTo(3000);
    }
    assertThat(three.nodeDetails()).isEqualTo(one.nodeDetails());
  }

  @Test
  void pastTheProcessLimitAHostsFurtherProcessesCountAsOne() throws Exception {
    String log = hostsLog(100, 8, 42);
    LogFacts f = file(log, 3, 1 << 10, 200);
    List<NodeFacts> named = f.nodeDetails().stream().filter(n -> n.host() != null).toList();
    assertThat(named).hasSize(100);
    assertThat(named).allSatisfy(n -> assertThat(n.netChannels().total()).as(n.host()).isEqualTo(8));
    assertThat(f.leftOut().processesFolded()).isTrue();
    assertThat(f.leftOut().processesKept()).isEqualTo(200);
    assertThat(f.differs()).extracting(d -> d.who()).contains("host-00042");
    assertThat(f.transport()).isEqualTo("mixed");
  }

  @Test
  void evidenceIsKeptForAFewHostsPerKindAndValueAndStillForTheOneThatDiffers() throws Exception {
    int hosts = 1000;
    LogAccumulator acc = new LogAccumulator();
    byte[] bytes = hostsLog(hosts, 1, 977).getBytes(StandardCharsets.US_ASCII);
    new LineReader(4096).read(new ByteArrayInputStream(bytes), Long.MAX_VALUE, new LogParser(acc, "job.log"));
    int[] keeping = new int[HostEvidence.KINDS];
    for (HostEvidence h : acc.processes.hosts()) {
      for (int k = 0; k < HostEvidence.KINDS; k++) {
        keeping[k] += h.items(k).isEmpty() ? 0 : 1;
      }
    }
    // "Using network IB" for 64 hosts, "Using network Socket" for the one that printed it
    assertThat(keeping[HostEvidence.NETWORK]).isEqualTo(EvidenceBudget.HOSTS + 1);
    assertThat(java.util.Arrays.stream(keeping).max().getAsInt()).isLessThanOrEqualTo(2 * EvidenceBudget.HOSTS);
    assertThat(acc.processes.host("host-00977").items(HostEvidence.NETWORK)).singleElement()
        .satisfies(e -> assertThat(e.text()).endsWith("Using network Socket"));

    InputsMerge job = new InputsMerge(List.of("job.log"));
    job.add(0, acc);
    LogFacts f = job.facts();
    assertThat(f.differs()).isNotEmpty().allSatisfy(d -> {
      assertThat(d.who()).isEqualTo("host-00977");
      assertThat(d.evidence()).isNotEmpty();
    });
    // the job's first lines are still the first of the log
    assertThat(f.evidenceFor("network")).extracting(e -> e.line()).containsExactly(1001L, 1002L, 1003L);
    assertThat(f.leftOut().hosts()).isEqualTo(hosts);
    assertThat(f.leftOut().hostsSampled()).isFalse();
    assertThat(f.leftOut().nodesListed()).isEqualTo(LogFacts.NODES_LISTED);
  }
}
