package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NodeFacts;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The job's network (LogFacts.transport) and whether it moved data with RDMA (LogFacts.rdma), from
 * the networks of its processes: one name when they agree, "mixed" for RDMA and non-RDMA together,
 * the name printed most for two names of one kind; aws-ofi-nccl's libfabric provider decides RDMA
 * over the plugin's name; and a state standing for many hosts (a sampled log) that shows both kinds
 * makes the job mixed with RDMA unknown.
 */
class TransportsChoiceTest {
  private static final String N1 = "node01:23051:23051 [0] NCCL INFO ";
  private static final String N2 = "node02:23051:23051 [0] NCCL INFO ";
  private static final String N3 = "node03:23051:23051 [0] NCCL INFO ";

  private static LogFacts parse(String... lines) {
    return parse(List.of(lines), 0);
  }

  /** {@code hosts} > 0: the hosts told apart (past them a sample is kept), and none admitted beyond it. */
  private static LogFacts parse(List<String> lines, int hosts) {
    byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      NcclLogSource s = new NcclLogSource(new ByteArrayInputStream(bytes), 1);
      if (hosts > 0) {
        s.withLimits(hosts, 1 << 14, 0);
      }
      return s.read(List.of("-"), Path.of("."));
    } catch (LogInputException e) {
      throw new AssertionError(e);
    }
  }

  // --- aws-ofi-nccl's provider

  @Test
  void aProcessThatDidNotPrintItsProviderUsesWhatItsPeersOnThatNetworkDid() {
    // aws-ofi-nccl on libfabric's tcp provider: a TCP network whatever the plugin is called
    LogFacts f = parse("ip-10-0-1-5:81:81 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)",
        "ip-10-0-1-5:81:81 [0] NCCL INFO Using network AWS Libfabric",
        "ip-10-0-1-6:82:82 [0] NCCL INFO Using network AWS Libfabric");
    assertThat(f.transport()).isEqualTo("AWS Libfabric");
    assertThat(f.rdma()).isFalse();
  }

  @Test
  void aProcessThatPrintedItsOwnProviderIsReadByIt() {
    // one node's libfabric found EFA, the other's fell back to tcp: both kinds in one job
    LogFacts f = parse("ip-10-0-1-5:81:81 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)",
        "ip-10-0-1-5:81:81 [0] NCCL INFO Using network AWS Libfabric",
        "ip-10-0-1-6:82:82 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)",
        "ip-10-0-1-6:82:82 [0] NCCL INFO Using network AWS Libfabric");
    assertThat(f.transport()).isEqualTo("mixed");
    assertThat(f.rdma()).isFalse();
  }

  @Test
  void anEfaProviderDoesNotMakeTheSocketTransportRdma() {
    // the plugin came up on EFA, but NCCL_NET=Socket chose the internal socket transport
    LogFacts f = parse("ip-10-0-1-5:81:81 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)",
        "ip-10-0-1-5:81:81 [0] NCCL INFO Using network Socket");
    assertThat(f.transport()).isEqualTo("Socket");
    assertThat(f.rdma()).isFalse();
  }

  // --- processes that show no network

  @Test
  void aProcessThatShowsNoNetworkLeavesTheOthersAnswer() {
    // an excerpt: node02's only line is its Init COMPLETE; it is not a third kind of network
    LogFacts f = parse(N1 + "Using network IB",
        "node02:5100:5100 [0] NCCL INFO comm 0x55d4c8a0 rank 1 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE");
    assertThat(f.transport()).isEqualTo("IB");
    assertThat(f.rdma()).isTrue();
  }

  @Test
  void aProcessWithoutLibibverbsHadNoRdmaNetworkEvenWhereItsNetworkIsNotShown() {
    // every RDMA transport (IB, IBext, EFA through libfabric's verbs) needs libibverbs
    LogFacts f = parse(N1 + "Failed to open libibverbs.so[.1]", N1 + "Bootstrap : Using eth0:10.0.0.1<0>");
    assertThat(f.transport()).isNull();
    assertThat(f.rdma()).isFalse();
  }

  // --- two names of one kind

  @Test
  void ofTwoRdmaNetworksTheOneMoreProcessesNamedIsTheJobs() {
    // HPC-X's IBext_v8 on two nodes, the internal IB on the first: the same kind, so not "mixed"
    LogFacts f = parse(N1 + "Using network IB", N2 + "Using network IBext_v8", N3 + "Using network IBext_v8");
    assertThat(f.transport()).isEqualTo("IBext_v8");
    assertThat(f.rdma()).isTrue();
  }

  @Test
  void channelLinesCountAsNamingTheirNetwork() {
    // nodes 2 and 3 show only their connections (an excerpt from the first collective on)
    LogFacts f = parse(N1 + "Using network IB", N2 + "Channel 00/0 : 1[0] -> 2[0] [send] via NET/IBext_v8/0",
        N3 + "Channel 00/0 : 2[0] -> 0[0] [send] via NET/IBext_v8/0");
    assertThat(f.transport()).isEqualTo("IBext_v8");
  }

  // --- a state that stands for many hosts (sampled logs)

  /** Host names outside the sample at every level: their lines count in the state of many hosts. */
  private static List<String> hostsOutsideTheSample(int n) {
    return IntStream.range(0, 10_000).mapToObj(i -> String.format("gpu-%04d", i))
        .filter(h -> !ProcessTable.kept(h, 1)).limit(n).toList();
  }

  private static NodeFacts manyHostsState(LogFacts f) {
    assertThat(f.leftOut()).isNotNull();
    assertThat(f.leftOut().hostsSampled()).as("a sample was kept").isTrue();
    return f.nodeDetails().stream().filter(n -> n.host() == null).findFirst().orElseThrow();
  }

  @Test
  void manyHostsAllOnIbAreIb() {
    List<String> hosts = hostsOutsideTheSample(4);
    List<String> log = new ArrayList<>();
    for (int i = 0; i < hosts.size(); i++) {
      String p = hosts.get(i) + ":100:100 [0] NCCL INFO ";
      log.add(p + "NCCL version 2.18.1+cuda12.1");
      log.add(p + "Using network IB");
      log.add(p + "Channel 00/0 : " + i + "[0] -> " + (i + 1) % hosts.size() + "[0] [send] via NET/IB/0");
    }
    LogFacts f = parse(log, 1);
    manyHostsState(f);
    assertThat(f.transport()).isEqualTo("IB");
    assertThat(f.rdma()).isTrue();
  }

  @Test
  void theSocketInterfacesOfEveryHostInTheManyHostsStateAreListed() {
    // two kinds of node, two NIC names: the state that stands for both lists both
    List<String> hosts = hostsOutsideTheSample(3);
    List<String> log = new ArrayList<>();
    log.add(hosts.get(0) + ":100:100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>");
    log.add(hosts.get(1) + ":100:100 [0] NCCL INFO NET/Socket : Using [0]ens1f0:10.0.1.2<0>");
    log.add(hosts.get(2) + ":100:100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.3<0>");
    LogFacts f = parse(log, 1);
    manyHostsState(f);
    assertThat(f.socketInterfaces()).extracting(dev.nccltriage.facts.Iface::name).containsExactly("eth0", "ens1f0");
  }

  @Test
  void manyHostsWithIbChannelsAndOneWithoutLibibverbsAreMixed() {
    // whose lines are whose is lost in the sample: the job has both kinds, RDMA per process is unknown
    List<String> hosts = hostsOutsideTheSample(3);
    List<String> log = new ArrayList<>();
    log.add(hosts.get(0) + ":100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0");
    log.add(hosts.get(1) + ":100:100 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0");
    log.add(hosts.get(2) + ":100:100 [0] NCCL INFO Failed to open libibverbs.so[.1]");
    LogFacts f = parse(log, 1);
    manyHostsState(f);
    assertThat(f.transport()).isEqualTo("mixed");
    assertThat(f.rdma()).isNull();
  }

  @Test
  void manyHostsWithIbChannelsAndASocketListOfNccl248OnAreMixed() {
    // from 2.4.8 NCCL lists its socket interfaces only when Socket is the transport
    List<String> hosts = hostsOutsideTheSample(3);
    List<String> log = new ArrayList<>();
    for (String h : hosts) {
      log.add(h + ":100:100 [0] NCCL INFO NCCL version 2.18.1+cuda12.1");
    }
    log.add(hosts.get(0) + ":100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0");
    log.add(hosts.get(1) + ":100:100 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0");
    log.add(hosts.get(2) + ":100:100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.3<0>");
    LogFacts f = parse(log, 1);
    manyHostsState(f);
    assertThat(f.transport()).isEqualTo("mixed");
    assertThat(f.rdma()).isNull();
  }
}
