package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.Difference;
import dev.nccltriage.facts.LogFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Past the hosts a part tells apart, a hash sample of hosts is kept and the others count without
 * a host. The one node on sockets among hundreds on IB must not vanish into them: before, its
 * socket channels were counted with the others' GDR ones and the job read as IB with GDR on some
 * channels only (a confident node-driver verdict, no node named) where a run below the limits says
 * device-plugin and names the node. A host outside the sample whose line shows something wrong is
 * admitted (up to a cap); past the cap, the no-host state's mixed networks make RDMA unknown
 * (the verdict inconclusive), not a yes from the majority.
 */
class SampleAdmissionTest {
  private static final int HOSTS = 400;
  private static final int LIMIT = 64;

  @TempDir Path dir;

  /** A host whose name falls outside the sample at every level (top hash bit set). */
  private static int outsideTheSample() {
    return IntStream.range(HOSTS / 2, HOSTS).filter(h -> !ProcessTable.kept(String.format("host-%05d", h), 1))
        .findFirst().orElseThrow();
  }

  private LogFacts read(String log, int threads, int hosts, int admitted) throws Exception {
    Path f = Files.writeString(dir.resolve("job.log"), log);
    // parts of 8 KiB with 3 threads: every part holds lines of every pass
    return new NcclLogSource(java.io.InputStream.nullInputStream(), threads, 4096, threads == 1 ? Long.MAX_VALUE : 8192)
        .withLimits(hosts, 1 << 20, admitted).read(List.of(f.getFileName().toString()), dir);
  }

  private static List<String> who(LogFacts f) {
    return f.differs().stream().map(Difference::who).distinct().toList();
  }

  @Test
  void theHostOnSocketsOutsideTheSampleIsNamedAsBelowTheLimits() throws Exception {
    int sock = outsideTheSample();
    String name = String.format("host-%05d", sock);
    String log = MemoryBoundsTest.hostsLog(HOSTS, 1, sock);
    LogFacts unlimited = read(log, 1, 1 << 15, 1024);
    assertThat(unlimited.leftOut().hostsSampled()).isFalse();
    assertThat(unlimited.transport()).isEqualTo("mixed");
    assertThat(unlimited.rdma()).isFalse();
    assertThat(who(unlimited)).contains(name);

    for (int threads : new int[] {1, 3}) {
      LogFacts f = read(log, threads, LIMIT, 1024);
      assertThat(f.leftOut().hostsSampled()).as("sampled, %d threads", threads).isTrue();
      assertThat(f.nodeDetails()).as("the host is told apart").anySatisfy(n -> {
        assertThat(n.host()).isEqualTo(name);
        assertThat(n.transport()).isEqualTo("Socket");
      });
      assertThat(f.transport()).as("%d threads", threads).isEqualTo(unlimited.transport());
      assertThat(f.rdma()).as("%d threads", threads).isEqualTo(unlimited.rdma());
      assertThat(f.ibNoDevice()).isTrue();
      assertThat(who(f)).as("%d threads", threads).contains(name);
      // the other hosts' channels, counted without a host, all carry GDRDMA: not a node-driver case
      assertThat(f.nodeDetails().stream().filter(n -> !name.equals(n.host())).mapToLong(n -> n.netChannels().total()
          - n.netChannels().gdrdma()).sum()).isZero();
    }
    LogFacts one = read(log, 1, LIMIT, 1024);
    LogFacts three = read(log, 3, LIMIT, 1024);
    assertThat(three.transport()).isEqualTo(one.transport());
    assertThat(who(three)).isEqualTo(who(one));
    assertThat(three.netChannels()).isEqualTo(one.netChannels());
  }

  /**
   * A host outside the sample whose only sign is channels over IB without /GDRDMA, or over a
   * network that is not RDMA (no network line, no init lines: an excerpt), is admitted as well: a
   * connection line of such a host counts straight into the no-host state only when it is local or
   * over RDMA with GPUDirect RDMA.
   */
  @Test
  void aHostOutsideTheSampleWithoutGdrOnItsChannelsIsToldApart() throws Exception {
    int slow = outsideTheSample();
    String name = String.format("host-%05d", slow);
    // and one over a network that is not RDMA, whatever its lines say of GPUDirect
    int tcpx = IntStream.range(slow + 1, HOSTS).filter(h -> !ProcessTable.kept(String.format("host-%05d", h), 1))
        .findFirst().orElseThrow();
    StringBuilder log = new StringBuilder();
    for (int pass = 0; pass < 3; pass++) {
      for (int h = 0; h < HOSTS; h++) {
        log.append(String.format("host-%05d:7:7 [0] NCCL INFO Channel %02d/0 : %d[0] -> %d[0] [receive] via NET/%s%n",
            h, pass, (h + 1) % HOSTS, h, h == slow ? "IB/0" : h == tcpx ? "GPUDirectTCPX/0/GDRDMA" : "IB/0/GDRDMA"));
        log.append(String.format("host-%05d:7:7 [0] NCCL INFO Channel %02d/0 : %d[0] -> %d[1] via P2P/IPC%n", h, pass, h, h));
      }
    }
    for (int threads : new int[] {1, 3}) {
      LogFacts f = read(log.toString(), threads, LIMIT, 1024);
      assertThat(f.leftOut().hostsSampled()).isTrue();
      assertThat(f.nodeDetails()).as("%d threads", threads).anySatisfy(n -> {
        assertThat(n.host()).isEqualTo(name);
        assertThat(n.netChannels().total()).isEqualTo(3);
        assertThat(n.netChannels().gdrdma()).isZero();
      });
      assertThat(f.nodeDetails()).as("%d threads", threads)
          .anySatisfy(n -> assertThat(n.host()).isEqualTo(String.format("host-%05d", tcpx)));
      assertThat(f.netChannels().total()).isEqualTo(3 * HOSTS);
      assertThat(f.netChannels().gdrdma()).isEqualTo(3 * (HOSTS - 1));
      assertThat(f.localChannels()).isEqualTo(3 * HOSTS);
    }
  }

  @Test
  void pastTheCapTheMixedNoHostStateMakesRdmaUnknownNotYes() throws Exception {
    int sock = outsideTheSample();
    String log = MemoryBoundsTest.hostsLog(HOSTS, 1, sock);
    for (int threads : new int[] {1, 3}) {
      LogFacts f = read(log, threads, LIMIT, 0);
      assertThat(f.leftOut().hostsSampled()).isTrue();
      assertThat(who(f)).doesNotContain(String.format("host-%05d", sock));
      // IB and Socket channels of many hosts in one no-host state: not "one process used both"
      assertThat(f.rdma()).as("%d threads", threads).isNull();
      // ... though the job, which has both, is mixed
      assertThat(f.transport()).as("%d threads", threads).isEqualTo("mixed");
    }
  }

  @Test
  void aWarnOfAHostOutsideTheSampleIsAttributedToIt() throws Exception {
    int sick = outsideTheSample();
    String name = String.format("host-%05d", sick);
    StringBuilder b = new StringBuilder(MemoryBoundsTest.hostsLog(HOSTS, 1, -1));
    b.append(name).append(":100:100 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1234> with status=12 opcode=0\n");
    for (int threads : new int[] {1, 3}) {
      LogFacts f = read(b.toString(), threads, LIMIT, 1024);
      assertThat(f.leftOut().hostsSampled()).isTrue();
      assertThat(f.errors()).anySatisfy(e -> assertThat(e.hosts()).contains(name));
      assertThat(f.nodeDetails()).extracting(n -> n.host()).contains(name);
    }
  }

  @Test
  void aWarnBeforeTheSampleShrankAdmitsItsHostAsOneAfterDoes() throws Exception {
    // the WARN is the first line: its host is kept while the table has room, and the sample drawn
    // later (or a part with fewer hosts, merged into the job) must not drop it for being outside
    int sick = outsideTheSample();
    String name = String.format("host-%05d", sick);
    String warn = name + ":100:100 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1234> with status=12 opcode=0\n";
    String hosts = MemoryBoundsTest.hostsLog(HOSTS, 1, -1);
    for (String log : List.of(warn + hosts, hosts + warn)) {
      for (int threads : new int[] {1, 3}) {
        LogFacts f = read(log, threads, LIMIT, 1024);
        String where = (log.startsWith(warn) ? "first" : "last") + " line, " + threads + " threads";
        assertThat(f.leftOut().hostsSampled()).as(where).isTrue();
        assertThat(f.errors()).as(where).anySatisfy(e -> assertThat(e.hosts()).contains(name));
        assertThat(f.nodeDetails()).as(where).extracting(n -> n.host()).contains(name);
      }
    }
  }

  @Test
  void anAdmittedHostCitesItsOwnLinesByNumberAndText() throws Exception {
    // a line of a host outside the sample is parsed before it is known to be kept: its evidence
    // must still be that line, as the log has it, when the host is admitted
    int sock = outsideTheSample();
    String name = String.format("host-%05d", sock);
    String log = MemoryBoundsTest.hostsLog(HOSTS, 1, sock);
    List<String> lines = log.lines().toList();
    for (int threads : new int[] {1, 3}) {
      LogFacts f = read(log, threads, LIMIT, 1024);
      List<dev.nccltriage.evidence.Evidence> cited = f.differs().stream().filter(d -> d.who().equals(name))
          .flatMap(d -> d.evidence().stream()).toList();
      assertThat(cited).as("%d threads", threads).isNotEmpty().allSatisfy(e -> {
        assertThat(e.source()).isEqualTo("job.log");
        assertThat(e.text()).startsWith(name + ":").isEqualTo(lines.get((int) e.line() - 1).strip());
      });
    }
  }
}
