package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.LogLines.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.LogSignals;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job-level signals the verdicts read beside the four questions (LogFacts.signals): whether
 * the job ran in Kubernetes or a container, whether RDMA hardware shows anywhere, whether a
 * process's network init is in the log, which address several hosts bootstrapped on, and the lines
 * each of them cites. Each is true (or named) only on the evidence the spec gives for it, and null
 * (not false) when the log does not show it.
 */
class JobSignalsTest {
  private static final String N1 = "node01:23051:23051 [0] NCCL INFO ";

  private static List<String> cited(LogFacts f, String key) {
    return f.evidenceFor(key).stream().map(Evidence::text).toList();
  }

  // --- Kubernetes and containers

  @Test
  void aMultusInterfaceShowsKubernetesAndItsLineIsCited() {
    // Multus names the interfaces it attaches to a Pod net1, net2, ...: only a Pod has them
    String boot = "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using net1:10.10.0.5<0>";
    LogFacts f = parse(boot, "gpu-a:100:100 [0] NCCL INFO Using network IB");
    assertThat(f.signals().kubernetes()).isTrue();
    assertThat(f.signals().container()).as("a Pod is a container").isTrue();
    assertThat(cited(f, "kubernetes")).containsExactly(boot);
  }

  @Test
  void anOrdinaryInterfaceAndHostShowNeitherKubernetesNorAContainer() {
    LogFacts f = parse(N1 + "Bootstrap : Using eth0:10.0.0.1<0>", N1 + "NET/Socket : Using [0]eth0:10.0.0.1<0>",
        N1 + "Using network Socket");
    // not shown is not "no": null, so that no verdict reads it as bare metal
    assertThat(f.signals().kubernetes()).isNull();
    assertThat(f.signals().container()).isNull();
    assertThat(f.evidenceFor("kubernetes")).isEmpty();
  }

  @Test
  void aTrainingOperatorsPodNameShowsKubernetesAndCitesThatHostsLine() {
    // PyTorchJob names its Pods <job>-worker-<n>; a Pod's host name is the Pod's name
    String boot = "llama-ft-worker-0:57:57 [0] NCCL INFO Bootstrap : Using eth0:10.244.1.7<0>";
    LogFacts f = parse(boot, "llama-ft-worker-0:57:57 [0] NCCL INFO Using network Socket");
    assertThat(f.signals().kubernetes()).isTrue();
    assertThat(cited(f, "kubernetes")).contains(boot);
    assertThat(cited(f, "container")).contains(boot);
  }

  @Test
  void aDockerContainerIdAsTheHostNameShowsAContainerButNotKubernetes() {
    // docker names a container's host after the first 12 hex digits of its id
    String boot = "3f9a1c0b7e2d:412:412 [0] NCCL INFO Bootstrap : Using eth0:172.17.0.2<0>";
    LogFacts f = parse(boot, "3f9a1c0b7e2d:412:412 [0] NCCL INFO Using network Socket");
    assertThat(f.signals().container()).isTrue();
    assertThat(f.signals().kubernetes()).isNull();
    assertThat(cited(f, "container")).contains(boot);
  }

  @Test
  void aHostNamedByTwelveDigitsIsNotReadAsADockerId() {
    // twelve hex digits, but no letter: a numeric host name (docker's ids almost always have a letter)
    LogFacts f = parse("104216830017:412:412 [0] NCCL INFO Bootstrap : Using eth0:10.4.21.68<0>");
    assertThat(f.signals().container()).isNull();
  }

  // --- RDMA hardware seen anywhere (rdmaSeen), whatever the job's transport

  @Test
  void anIpoibBootstrapInterfaceShowsRdmaHardware() {
    // ib0 exists only on InfiniBand hardware, even where the excerpt has no NET/IB line
    LogFacts f = parse(N1 + "Bootstrap : Using ib0:192.168.10.1<0>");
    assertThat(f.transport()).isNull();
    assertThat(f.signals().rdmaSeen()).isTrue();
  }

  @Test
  void anInterfaceSeenOnlyOnALaterProcessStillCounts() {
    // each interface name is matched once per job: names already tried must not hide a new one
    String multus = "gpu-c:300:300 [0] NCCL INFO Bootstrap : Using net1:10.10.0.7<0>";
    LogFacts f = parse("gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.5<0>",
        "gpu-b:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.6<0>", multus,
        "gpu-d:400:400 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.8<0>",
        "gpu-e:500:500 [0] NCCL INFO Bootstrap : Using ib0:192.168.10.9<0>");
    assertThat(f.signals().kubernetes()).isTrue();
    assertThat(cited(f, "kubernetes")).containsExactly(multus);
    assertThat(f.signals().rdmaSeen()).isTrue();
  }

  @Test
  void anIbDeviceListShowsRdmaHardwareWhenTheJobRanOnSockets() {
    // NCCL_NET=Socket (or NCCL_IB_DISABLE after the list): the HCAs are there, the job did not use them
    LogFacts f = parse(N1 + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.0.0.1<0>",
        N1 + "Using network Socket");
    assertThat(f.transport()).isEqualTo("Socket");
    assertThat(f.rdma()).isFalse();
    assertThat(f.signals().rdmaSeen()).isTrue();
  }

  @Test
  void theEmptyIbListOfNccl224WithoutDevicesShowsNoRdmaHardware() {
    // 2.24+: "No device found." and then a Using line with no device: nothing RDMA on the node
    LogFacts f = parse(N1 + "NET/IB : No device found.", N1 + "NET/IB : Using [RO]; OOB eth0:10.0.0.1<0>",
        N1 + "NET/Socket : Using [0]eth0:10.0.0.1<0>", N1 + "Using network Socket");
    assertThat(f.transport()).isEqualTo("Socket");
    assertThat(f.signals().rdmaSeen()).isNull();
  }

  @Test
  void a23PerLineHcaListingShowsRdmaHardwareWhenTheRingsRanOverSockets() {
    LogFacts f = parse(N1 + "NET/IB: [0] mlx5_0:1/IB", N1 + "Ring 00 : 0 -> 1 [send] via NET/Socket/0");
    assertThat(f.transport()).isEqualTo("Socket");
    assertThat(f.signals().rdmaSeen()).isTrue();
  }

  @Test
  void anEfaProviderShowsRdmaHardwareWhenAwsOfiNcclFailedAndNcclFellBackToSockets() {
    String h = "ip-10-0-1-5:81:81 [0] NCCL INFO ";
    LogFacts f = parse(h + "NET/OFI Selected Provider is efa (found 4 nics)",
        "ip-10-0-1-5:81:81 [0] nccl_net_ofi.c:158 NCCL WARN NET/OFI aws-ofi-nccl initialization failed",
        h + "Using network Socket");
    assertThat(f.transport()).isEqualTo("Socket");
    assertThat(f.rdma()).isFalse();
    assertThat(f.signals().rdmaSeen()).isTrue();
  }

  @Test
  void anRdmaNetPluginLoadedShowsRdmaHardwareAndATcpOneDoesNot() {
    // a plugin's name tells its kind even where no channel or "Using network" line follows
    LogFacts hpcx = parse(N1 + "NET/Plugin : Loaded net plugin IBext_v8 (v8)",
        N1 + "Bootstrap : Using eth0:10.0.0.1<0>");
    assertThat(hpcx.signals().rdmaSeen()).isTrue();
    LogFacts tcpx = parse(N1 + "NET/Plugin : Loaded net plugin GPUDirectTCPX_v7 (v7)",
        N1 + "Bootstrap : Using eth0:10.0.0.1<0>");
    assertThat(tcpx.netPlugins()).containsExactly("GPUDirectTCPX_v7");
    assertThat(tcpx.signals().rdmaSeen()).isNull();
  }

  @Test
  void anIbDeviceErrorShowsRdmaHardwareAndASocketErrorDoesNot() {
    LogFacts ib = parse("node01:23051:23051 [0] transport/net_ib.cc:179 NCCL WARN NET/IB : Unable to open device mlx5_0",
        N1 + "NET/Socket : Using [0]eth0:10.0.0.1<0>", N1 + "Using network Socket");
    assertThat(ib.signals().rdmaSeen()).isTrue();
    LogFacts sock = parse(
        "node01:23051:23102 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.2<34567> failed : Connection refused",
        N1 + "Using network Socket");
    assertThat(sock.errors()).isNotEmpty();
    assertThat(sock.signals().rdmaSeen()).isNull();
  }

  @Test
  void rdmaSeenOnIpoibStaysSeenBesideAnErrorOfNoRdmaKind() {
    LogFacts f = parse(N1 + "Bootstrap : Using ib0:192.168.10.1<0>",
        "node01:23051:23102 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 192.168.10.2<34567> failed : Connection refused");
    assertThat(f.signals().rdmaSeen()).isTrue();
  }

  // --- the network init in the log

  @Test
  void aBootstrapLineShowsTheNetworkInitAndConnectionLinesAloneDoNot() {
    assertThat(parse(N1 + "Bootstrap : Using eth0:10.0.0.1<0>").signals().initLogged()).isTrue();
    // an excerpt from the first collective on (2.22+ connect lazily): no init in it
    LogFacts late = parse(N1 + "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC", N1 + "Connected all rings");
    assertThat(late.signals().initLogged()).isFalse();
  }

  // --- GDR decisions and the lines they cite

  @Test
  void theGdrSignalCitesTheDisabledDecisionsOnly() {
    String off = N1 + "GPU Direct RDMA Disabled for GPU 3 / HCA 1 (distance 6 > 4)";
    String on = N1 + "GPU Direct RDMA Enabled for GPU 0 / HCA 0 (distance 4 <= 4), read 1";
    LogFacts f = parse(on, off);
    assertThat(f.signals().gdrLogged()).isEqualTo("some");
    assertThat(cited(f, "gdrLogged")).containsExactly(off);
    LogFacts allOn = parse(on);
    assertThat(allOn.signals().gdrLogged()).isNull();
    assertThat(allOn.evidenceFor("gdrLogged")).isEmpty();
  }

  // --- a framework's NCCL version

  @Test
  void aFrameworksVersionLineIsCitedWhenNcclsOwnIsAbsent() {
    // PyTorch's "NCCL version: 2.18.1" stands in for NCCL's own version line
    LogFacts f = parse("NCCL version: 2.18.1", N1 + "Using network Socket");
    assertThat(f.signals().frameworkVersion()).isEqualTo("2.18.1");
    assertThat(cited(f, "versions")).containsExactly("NCCL version: 2.18.1");
  }

  // --- an address several hosts bootstrapped on

  @Test
  void twoHostsOnOneBridgeAddressShareItAndBothLinesAreCited() {
    // each node's container on the default docker bridge: all of them 172.17.0.2, none reachable
    String a = "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:172.17.0.2<0>";
    String b = "gpu-b:200:200 [0] NCCL INFO Bootstrap : Using eth0:172.17.0.2<0>";
    LogFacts f = parse(a, b);
    LogSignals s = f.signals();
    assertThat(s.sharedBootstrapAddress()).isEqualTo("172.17.0.2");
    assertThat(cited(f, "sharedBootstrap")).containsExactly(a, b);
  }

  @Test
  void processesOfOneHostOnOneAddressShareNothing() {
    // every rank of a node bootstraps on the node's address: that is no shared address
    LogFacts f = parse("gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
        "gpu-a:101:101 [1] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
        "gpu-b:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>",
        "gpu-b:201:201 [1] NCCL INFO Using network Socket");
    assertThat(f.signals().sharedBootstrapAddress()).isNull();
    assertThat(f.evidenceFor("sharedBootstrap")).isEmpty();
  }

  @Test
  void loopbackOnEveryHostIsNotASharedAddress() {
    // 127.0.0.1 is each host's own; bootstrapping on it is another problem (NodeCount's loopback)
    LogFacts f = parse("gpu-a:100:100 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>",
        "gpu-b:200:200 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>");
    assertThat(f.signals().loopback()).isTrue();
    assertThat(f.signals().sharedBootstrapAddress()).isNull();
  }
}
