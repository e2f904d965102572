package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Hca;
import dev.nccltriage.facts.Iface;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NodeFacts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's log given as several files (a rotated log: train.log.1, then train.log) is parsed file by
 * file and the parts merged: the facts must be those of the one log, whichever file a line is in.
 * Each case cuts the log where one process's lines continue in the next file, with the line that
 * shows the fact on one side of the cut; each checks the one-file answer too, so the two agree.
 */
class RotatedLogTest {
  private static final String N1 = "node01:23051:23051 [0] NCCL INFO ";
  private static final String N2 = "node02:7311:7311 [0] NCCL INFO ";

  @TempDir Path dir;

  /** The log as one file, and as files cut before each {@code cuts} line index; facts of both. */
  private List<LogFacts> both(List<String> lines, int... cuts) {
    return both(0, lines, cuts);
  }

  private List<LogFacts> both(int hosts, List<String> lines, int... cuts) {
    try {
      return files(hosts, lines, cuts);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private List<LogFacts> files(int hosts, List<String> lines, int... cuts) throws IOException {
    List<String> names = new ArrayList<>();
    int from = 0;
    for (int i = 0; i <= cuts.length; i++) {
      int to = i < cuts.length ? cuts[i] : lines.size();
      String name = "train.log." + (cuts.length - i);
      Files.writeString(dir.resolve(name), String.join("\n", lines.subList(from, to)) + "\n");
      names.add(name);
      from = to;
    }
    return List.of(read(hosts, List.of("-"), String.join("\n", lines) + "\n"), read(hosts, names, ""));
  }

  private LogFacts read(int hosts, List<String> names, String stdin) {
    InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    NcclLogSource s = new NcclLogSource(in, 1);
    if (hosts > 0) {
      s.withLimits(hosts, 1 << 14);
    }
    try {
      return s.read(names, dir);
    } catch (LogInputException e) {
      throw new AssertionError(e);
    }
  }

  // --- one process's lines on both sides of the cut

  @Test
  void theGpusOfAMultiGpuProcessAddUpAcrossFiles() {
    // nccl-tests -g 4: one process drives 4 GPUs; its [dev] prefixes show them
    List<String> log = List.of("node01:4100:4101 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
        "node01:4100:4102 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via P2P/IPC",
        "node01:4100:4103 [2] NCCL INFO Channel 00/0 : 2[2] -> 3[3] via P2P/IPC",
        "node01:4100:4104 [3] NCCL INFO Channel 00/0 : 3[3] -> 0[0] via P2P/IPC");
    for (LogFacts f : both(log, 2)) {
      assertThat(f.localGpus()).isEqualTo(4);
    }
  }

  @Test
  void socketListsOfLinesWithoutAHostAddUpWhereverTheCutIs() {
    // a paste without "host:pid:tid" prefixes: every process's lines share one state, so its
    // second list must not be dropped (lo alone would read as one node on loopback)
    List<String> log = List.of("NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>",
        "NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>", "NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.socketInterfaces()).extracting(Iface::name).containsExactly("lo", "eth0");
      assertThat(f.singleNode()).isNotEqualTo(Boolean.TRUE);
    }
  }

  @Test
  void aStateAddsSocketInterfacesUpTo32WhereverTheCutIs() {
    List<String> log = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      log.add("NCCL INFO NET/Socket : Using [0]eth" + i + ":10.0.0." + i + "<0>");
    }
    for (LogFacts f : both(log, 20)) {
      assertThat(f.socketInterfaces()).hasSize(32).first().extracting(Iface::name).isEqualTo("eth0");
      assertThat(f.socketInterfaces().get(31).name()).isEqualTo("eth31");
    }
  }

  @Test
  void anIbFailureBeforeTheCutAndTheSocketListAfterItReadAsSocket() {
    List<String> log = List.of(N1 + "NET/IB : No device found.", N1 + "NET/Socket : Using [0]eth0:10.0.0.1<0>");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.ibLogged()).isTrue();
      assertThat(f.transport()).isEqualTo("Socket");
    }
  }

  @Test
  void aSocketListOfNccl248OnBeforeTheCutReadsAsSocket() {
    // NCCL_IB_DISABLE=1 prints no NET/IB line; from 2.4.8 the socket list alone says Socket
    List<String> log = List.of(N1 + "NCCL version 2.5.6+cuda10.1", N1 + "NET/Socket : Using [0]eth0:10.0.0.1<0>",
        N1 + "comm 0x55d4c8a0 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE");
    for (LogFacts f : both(log, 2)) {
      assertThat(f.transport()).isEqualTo("Socket");
    }
  }

  @Test
  void aPerLineHcaListingCutInTheMiddleListsEveryHcaInIndexOrder() {
    // 2.3 prints one line per HCA port; a dual-port HCA is two entries of one name
    List<String> log = List.of(N1 + "NET/IB: [0] mlx5_0:1/IB", N1 + "NET/IB: [1] mlx5_0:2/IB", N1 + "NET/IB: [2] mlx5_1:1/IB");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.hcaPorts()).isEqualTo(3);
      assertThat(f.hcas()).extracting(Hca::name).containsExactly("mlx5_0", "mlx5_0", "mlx5_1");
      assertThat(f.transport()).isEqualTo("IB");
    }
  }

  @Test
  void perLineHcasAreKeptInIndexOrderWhateverOrderTheLinesCameIn() {
    // log collectors that merge streams by timestamp may swap lines printed in one microsecond
    List<String> log = List.of(N1 + "NET/IB: [1] mlx5_1:1/IB", N1 + "NET/IB: [0] mlx5_0:1/IB");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.hcas()).extracting(Hca::name).containsExactly("mlx5_0", "mlx5_1");
    }
  }

  @Test
  void theBootstrapInterfaceBeforeTheCutStays() {
    List<String> log = List.of(N1 + "Bootstrap : Using eth0:10.0.0.1<0>", N1 + "Using network Socket");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.bootstrap()).extracting(Iface::name).isEqualTo("eth0");
      assertThat(f.signals().initLogged()).isTrue();
    }
  }

  @Test
  void theLowestRingGdrFlagOfAProcessIsKeptWhicheverFileHasIt() {
    // "Connected all rings" once per communicator: GDR 0 for one of them is GDR off somewhere
    String on = N1 + "Connected all rings, use ring PXN 0 GDR 1";
    String off = N1 + "Connected all rings, use ring PXN 0 GDR 0";
    for (LogFacts f : both(List.of(on, off), 1)) {
      assertThat(f.ringsGdr()).as("GDR 1, then GDR 0").isZero();
    }
    for (LogFacts f : both(List.of(off, on), 1)) {
      assertThat(f.ringsGdr()).as("GDR 0, then GDR 1").isZero();
    }
    for (LogFacts f : both(List.of(N1 + "Using network IB", on), 1)) {
      assertThat(f.ringsGdr()).as("only after the cut").isEqualTo(1);
    }
  }

  @Test
  void theGdrNicLineBeforeTheCutStillNamesTheNetwork() {
    // 2.13+: "NET/<name> : GPU Direct RDMA ... for HCA" names the communicator's network
    List<String> log = List.of(N1 + "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
        N1 + "comm 0x55d4c8a0 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.transport()).isEqualTo("IB");
    }
  }

  @Test
  void anIbCompletionErrorBeforeTheCutStillShowsIb() {
    List<String> log = List.of(
        "node01:23051:23107 [0] transport/net_ib.cc:1034 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<42131> with error 12, opcode 0, len 0, vendor err 129",
        "node01:23051:23107 [0] NCCL INFO transport/net_ib.cc:1092 -> 6");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.transport()).isEqualTo("IB");
    }
  }

  @Test
  void anAwsOfiNcclLineBeforeTheCutKeepsAnIbListFromNamingTheNetwork() {
    // a net plugin is tried before the internal IB: an IB list after it does not say IB was chosen
    List<String> log = List.of(N1 + "NET/OFI Initializing aws-ofi-nccl 1.7.4-aws",
        N1 + "NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.transport()).isNull();
    }
  }

  @Test
  void aLoadedPluginBeforeTheCutKeepsItsOwnIbListFromNamingTheNetwork() {
    // HPC-X's plugin prints a "NET/IB : Using" line in core NCCL's shape
    List<String> log = List.of(N1 + "NET/Plugin : Loaded net plugin NCCL RDMA Plugin v8 (v8)",
        N1 + "NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.transport()).isNull();
    }
  }

  @Test
  void theTcpProviderBeforeTheCutKeepsAwsLibfabricFromCountingAsRdma() {
    List<String> log = List.of("ip-10-0-1-5:81:81 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)",
        "ip-10-0-1-5:81:81 [0] NCCL INFO Using network AWS Libfabric");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.transport()).isEqualTo("AWS Libfabric");
      assertThat(f.rdma()).isFalse();
    }
  }

  @Test
  void aPluginThatFailedBeforeTheCutHasNoSayInTheNetworkNcclFellBackTo() {
    // aws-ofi-nccl picked tcp, then failed: NCCL went on with its internal IB
    List<String> log = List.of("ip-10-0-1-5:81:81 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)",
        "ip-10-0-1-5:81:81 [0] nccl_net_ofi.c:158 NCCL WARN NET/OFI aws-ofi-nccl initialization failed",
        "ip-10-0-1-5:81:81 [0] NCCL INFO Using network IB");
    for (LogFacts f : both(log, 2)) {
      assertThat(f.transport()).isEqualTo("IB");
      assertThat(f.rdma()).isTrue();
    }
  }

  @Test
  void missingLibibverbsBeforeTheCutStillRulesOutRdma() {
    List<String> log = List.of(N1 + "Failed to open libibverbs.so[.1]", N1 + "Bootstrap : Using eth0:10.0.0.1<0>");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.rdma()).isFalse();
    }
  }

  @Test
  void aProcessVersionBeforeTheCutIsItsNodesVersion() {
    // 2.22+ prints the version per process: the node's is the version its processes printed
    List<String> log = List.of(N1 + "NCCL version 2.21.5+cuda12.4", N1 + "Using network IB");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.nodeDetails()).extracting(NodeFacts::ncclVersion).containsExactly("2.21.5");
    }
  }

  // --- job-level lines after the cut

  @Test
  void jobLevelLinesAfterTheCutCount() {
    List<String> log = List.of(N1 + "Bootstrap : Using eth0:10.0.0.1<0>",
        N1 + "NCCL version 2.18.1+cuda12.1",
        N1 + "NET/Plugin : Loaded net plugin IBext_v8 (v8)",
        N1 + "DMA-BUF is available on GPU device 0",
        "[pod/llama-ft-0/pytorch] " + N1 + "Using network IBext_v8",
        "node01:23051:23102 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.2<34567> failed : Connection refused");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.ncclVersions()).containsExactly("2.18.1+cuda12.1");
      assertThat(f.evidenceFor("versions")).extracting(Evidence::text).containsExactly(log.get(1));
      assertThat(f.netPlugins()).containsExactly("IBext_v8");
      assertThat(f.evidenceFor("pluginsLoaded")).extracting(Evidence::text).containsExactly(log.get(2));
      assertThat(f.dmabufAvailable()).isTrue();
      assertThat(f.signals().kubernetes()).isTrue();
      assertThat(f.signals().failed()).isTrue();
    }
  }

  @Test
  void gdrDecisionsAfterTheCutCount() {
    List<String> nic = List.of(N1 + "Using network IB", N1 + "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)");
    for (LogFacts f : both(nic, 1)) {
      assertThat(f.signals().gdrLogged()).as("NIC side").isEqualTo("none");
    }
    List<String> pair = List.of(N1 + "Using network IB", N1 + "GPU Direct RDMA Disabled for GPU 3 / HCA 1 (distance 6 > 4)");
    for (LogFacts f : both(pair, 1)) {
      assertThat(f.signals().gdrLogged()).as("GPU/NIC pair").isEqualTo("none");
    }
  }

  @Test
  void aProviderAndAFrameworkVersionAfterTheCutCount() {
    List<String> log = List.of("ip-10-0-1-5:81:81 [0] NCCL INFO Bootstrap : Using ens5:10.0.1.5<0>",
        "ip-10-0-1-5:81:81 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)", "NCCL version: 2.18.1");
    for (LogFacts f : both(log, 1)) {
      assertThat(f.signals().ofiProviders()).containsExactly("efa");
      assertThat(f.evidenceFor("ofiProvider")).extracting(Evidence::text).containsExactly(log.get(1));
      assertThat(f.signals().frameworkVersion()).isEqualTo("2.18.1");
      assertThat(f.evidenceFor("versions")).extracting(Evidence::text).containsExactly(log.get(2));
    }
  }

  @Test
  void hostsSampledInALaterFileAreReportedAsSampled() {
    // each file keeps a sample of its hosts past the limit; the job must say its counts are lower bounds
    List<String> log = new ArrayList<>();
    log.add("Using network IB"); // a line of no host: the first file holds no host at all
    for (int h = 0; h < 6; h++) {
      log.add(String.format("gpu-%02d:100:100 [0] NCCL INFO Using network IB", h));
    }
    for (LogFacts f : both(2, log, 1)) {
      assertThat(f.leftOut()).isNotNull();
      assertThat(f.leftOut().hostsSampled()).isTrue();
    }
  }

  // --- nccl-tests' device list across files

  private static String rankLine(int rank, String host) {
    return String.format("#  Rank %2d Group  0 Pid %6d on %10s device %2d [0000:%02x:00] NVIDIA H100 80GB HBM3", rank,
        4100 + rank % 8, host, rank % 8, 0x18 + rank % 8);
  }

  @Test
  void ncclTestsRanksAfterTheCutCount() {
    List<String> log = new ArrayList<>();
    log.add("node01:4100:4100 [0] NCCL INFO comm 0x55d4c8a0 rank 0 nranks 8 cudaDev 0 busId 18000 - Init COMPLETE");
    log.add("# Using devices");
    for (int r = 0; r < 8; r++) {
      log.add(rankLine(r, "node01"));
    }
    for (LogFacts f : both(log, 1)) {
      assertThat(f.singleNode()).isTrue();
      assertThat(f.nodesFrom()).isEqualTo("ranks");
    }
  }

  @Test
  void ncclTestsHostsOfBothFilesCount() {
    List<String> log = List.of("# Using devices", rankLine(0, "node01"), rankLine(1, "node02"));
    for (LogFacts f : both(log, 2)) {
      assertThat(f.nodes()).isEqualTo(2);
      assertThat(f.nodesFrom()).isEqualTo("hostnames");
    }
  }

  /** A 4096-host nccl-tests run: as many hosts as the device list keeps. */
  private static List<String> testsHosts(int hosts) {
    List<String> log = new ArrayList<>();
    log.add("# Using devices");
    for (int h = 0; h < hosts; h++) {
      log.add(rankLine(h * 8, String.format("gpu-%04d", h)));
    }
    return log;
  }

  @Test
  void ncclTestsHostsPastWhatTheListKeepsAreSeveralWithoutACount() {
    List<String> log = new ArrayList<>(testsHosts(TestsPreamble.MAX_HOSTS));
    log.add(rankLine(8 * TestsPreamble.MAX_HOSTS, "gpu-extra"));
    for (LogFacts f : both(log, log.size() - 1)) {
      assertThat(f.singleNode()).isFalse();
      assertThat(f.nodesFrom()).isEqualTo("hostnames");
      assertThat(f.nodes()).as("a lower bound is not a count").isNull();
    }
  }

  @Test
  void aHostTheFullListHoldsAlreadyLeavesTheCountExact() {
    List<String> log = new ArrayList<>(testsHosts(TestsPreamble.MAX_HOSTS));
    log.add(rankLine(1, "gpu-0000"));
    for (LogFacts f : both(log, log.size() - 1)) {
      assertThat(f.nodes()).isEqualTo(TestsPreamble.MAX_HOSTS);
    }
  }
}
