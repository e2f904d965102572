package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Advice that blames a device plugin or a Pod overlay needs a Pod. Bare-metal and VM clusters run
 * one HCA for 4 or 8 GPUs, hand-shake over eth0, and have no HCA at all by design: the verdict must
 * not turn those into a device-plugin problem, and must still name one when the log shows a Pod.
 */
class HostsWithoutPodsTest {
  private static JsonNode report(String log, String... extra) {
    List<String> args = new ArrayList<>(List.of("log", "-o", "json"));
    args.addAll(List.of(extra));
    args.add("-");
    CliRun run = CliRun.runWithStdin(log.getBytes(StandardCharsets.UTF_8), args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isBetween(0, 3);
    return run.json();
  }

  /** Two 4-GPU nodes, one HCA each, every network channel with GPUDirect RDMA (2.12 shapes). */
  private static String oneHcaForFourGpus(String hostA, String hostB) {
    StringBuilder b = new StringBuilder();
    String[] hosts = {hostA, hostB};
    for (int n = 0; n < 2; n++) {
      for (int g = 0; g < 4; g++) {
        String p = hosts[n] + ":" + (100 + g) + ":" + (100 + g) + " [" + g + "] NCCL INFO ";
        b.append(p).append("NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.0.0.").append(n + 1).append("<0>\n");
        b.append(p).append("Using network IB\n");
        b.append(p).append("comm 0x1 rank ").append(n * 4 + g).append(" nranks 8 cudaDev ").append(g)
            .append(" busId 1000 - Init COMPLETE\n");
      }
      String p = hosts[n] + ":100:120 [0] NCCL INFO ";
      int me = n * 4;
      int peer = (1 - n) * 4 + 3;
      b.append(p).append("Channel 00/0 : ").append(peer).append("[3] -> ").append(me)
          .append("[0] [receive] via NET/IB/0/GDRDMA\n");
      b.append(p).append("Channel 00/0 : ").append(me).append("[0] -> ").append(peer)
          .append("[3] [send] via NET/IB/0/GDRDMA\n");
    }
    return b.toString();
  }

  @Test
  void oneHcaForFourGpusOnBareMetalIsNotADevicePluginProblem() {
    JsonNode r = report(oneHcaForFourGpus("gpu-node-07", "gpu-node-08"));
    JsonNode v = r.get("verdict");
    assertThat(v.get("status").asText()).isEqualTo("healthy");
    assertThat(v.get("path").get(1).get("answer").asText()).as("Q2 without --expect-hcas").isEqualTo("unknown");
    assertThat(v.get("path").get(2).get("answer").asText()).as("Q3: eth0 outside a Pod").isEqualTo("unknown");
  }

  @Test
  void oneHcaForFourGpusInPodsIsTheDevicePlugins() {
    JsonNode v = report(oneHcaForFourGpus("train-worker-0", "train-worker-1")).get("verdict");
    assertThat(v.get("status").asText()).isEqualTo("problem");
    assertThat(v.get("layer").asText()).isEqualTo("device-plugin");
  }

  @Test
  void expectHcasDecidesOnBareMetalToo() {
    JsonNode v = report(oneHcaForFourGpus("gpu-node-07", "gpu-node-08"), "--expect-hcas", "2").get("verdict");
    assertThat(v.get("status").asText()).isEqualTo("problem");
    assertThat(v.get("path").get(1).get("answer").asText()).isEqualTo("no");
  }

  /** Two VMs: NET/IB finds no device (libibverbs is installed), NCCL uses sockets. */
  private static String socketsOn(String hostA, String hostB) {
    StringBuilder b = new StringBuilder();
    int n = 31;
    for (String h : new String[] {hostA, hostB}) {
      String p = h + ":24971:24971 [0] NCCL INFO ";
      b.append(p).append("Bootstrap : Using ens5:10.0.12.").append(n).append("<0>\n");
      b.append(p).append("NET/IB : No device found.\n");
      b.append(p).append("NET/Socket : Using [0]ens5:10.0.12.").append(n++).append("<0>\n");
      b.append(p).append("Using network Socket\n");
    }
    b.append(hostA).append(":24971:25234 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n");
    return b.toString();
  }

  @Test
  void socketsWhereNothingShowsRdmaHardwareOrAContainerAreInconclusive() {
    JsonNode v = report(socketsOn("ip-10-0-12-31", "ip-10-0-12-32")).get("verdict");
    assertThat(v.get("status").asText()).isEqualTo("inconclusive");
    assertThat(v.get("path").get(0).get("note").asText()).contains("nothing in the log shows RDMA hardware");
  }

  @Test
  void socketsInDockerContainersAreTheContainersMissingDevices() {
    JsonNode v = report(socketsOn("4f2c9a1e7b3d", "9b7e03d5c1a8")).get("verdict");
    assertThat(v.get("status").asText()).isEqualTo("problem");
    assertThat(v.get("layer").asText()).isEqualTo("device-plugin");
    assertThat(v.get("candidates").get(0).get("rule").asText()).isEqualTo("C1-no-device-container");
  }

  @Test
  void anNvlsOperationNotSupportedIsTheNodesDriverNotTheImage() {
    String log = "h100-b02:4410:4410 [0] NCCL INFO comm 0x1 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n"
        + "\nh100-b02:4410:4490 [0] transport/nvls.cc:158 NCCL WARN Cuda failure 801 'operation not supported'\n"
        + "h100-b02:4410:4490 [0] NCCL INFO transport/nvls.cc:328 -> 1\n";
    JsonNode v = report(log).get("verdict");
    assertThat(v.get("layer").asText()).isEqualTo("node-driver");
    assertThat(v.get("candidates").get(0).get("rule").asText()).isEqualTo("L-err-cuda-unsupported");
    assertThat(v.get("fix").asText()).contains("NCCL_NVLS_ENABLE=0");
  }

  @Test
  void gpuDirectTcpxIsTheDesignedTransportNotTheFallback() {
    StringBuilder b = new StringBuilder();
    for (String h : new String[] {"a3-vm-1", "a3-vm-2"}) {
      b.append(h).append(":40:40 [0] NCCL INFO Using network GPUDirectTCPX_v7\n");
    }
    b.append("a3-vm-1:40:50 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/GPUDirectTCPX_v7/0/GDRDMA\n");
    JsonNode v = report(b.toString()).get("verdict");
    assertThat(v.get("path").get(0).get("answer").asText()).isEqualTo("yes");
    assertThat(v.get("status").asText()).isEqualTo("healthy");
  }

  @Test
  void oneNodeWhoseRanksTalkOverTheNetworkIsItsEnvironment() {
    StringBuilder b = new StringBuilder();
    for (int g = 0; g < 2; g++) {
      String p = "ws-1:" + (300 + g) + ":" + (300 + g) + " [" + g + "] NCCL INFO ";
      b.append(p).append("NCCL_P2P_DISABLE set by environment to 1\n");
      b.append(p).append("NCCL_SHM_DISABLE set by environment to 1.\n");
      b.append(p).append("NET/Socket : Using [0]eth0:172.17.0.2<0>\n");
      b.append(p).append("Using network Socket\n");
      b.append(p).append("comm 0x5 rank ").append(g).append(" nranks 2 cudaDev ").append(g).append(" busId 1000 - Init START\n");
    }
    b.append("ws-1:300:309 [0] NCCL INFO Channel 00/0 : 0[1000] -> 1[2000] [send] via NET/Socket/0\n");
    JsonNode r = report(b.toString());
    assertThat(r.get("log").get("singleNode").asBoolean()).isTrue();
    JsonNode v = r.get("verdict");
    assertThat(v.get("layer").asText()).isEqualTo("nccl-env");
    assertThat(v.get("candidates").get(0).get("rule").asText()).isEqualTo("C1-local-transports-disabled");
  }

  @Test
  void twoContainersBootstrappingOnOneBridgeAddressIsThePodNetwork() {
    // docker's default bridge gives every container 172.17.0.2: the other host cannot reach it
    StringBuilder b = new StringBuilder();
    for (String h : new String[] {"3f9c1ab27d04", "a81e55d0c6b3"}) {
      String p = h + ":611:611 [0] NCCL INFO ";
      b.append(p).append("Bootstrap : Using eth0:172.17.0.2<0>\n");
      b.append(p).append("Failed to open libibverbs.so[.1]\n");
      b.append(p).append("NET/Socket : Using [0]eth0:172.17.0.2<0>\n");
      b.append(p).append("Using network Socket\n");
    }
    b.append("\na81e55d0c6b3:611:640 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 172.17.0.2<39117> "
        + "failed : Connection refused\n");
    JsonNode v = report(b.toString()).get("verdict");
    assertThat(v.get("layer").asText()).isEqualTo("pod-network");
    assertThat(v.get("candidates").get(0).get("rule").asText()).isEqualTo("L-bootstrap-address-shared");
    assertThat(v.get("candidates")).noneMatch(c -> c.get("rule").asText().equals("C1-no-libibverbs"));
  }

  @Test
  void oneLibfabricNetworkOnTcpIsNotMixedWhenOnlySomeRanksPrintTheProvider() {
    StringBuilder b = new StringBuilder();
    for (String h : new String[] {"ip-172-31-1-5", "ip-172-31-1-6"}) {
      b.append(h).append(":40:40 [0] NCCL INFO NET/OFI Selected Provider is tcp;ofi_rxm (found 1 nics)\n");
      b.append(h).append(":40:40 [0] NCCL INFO Using network AWS Libfabric\n");
      b.append(h).append(":41:41 [1] NCCL INFO Using network AWS Libfabric\n");
      b.append(h).append(":41:50 [1] NCCL INFO Channel 00 : 9[1] -> 1[1] [receive] via NET/AWS Libfabric/0\n");
    }
    JsonNode log = report(b.toString()).get("log");
    assertThat(log.get("transport").asText()).isEqualTo("AWS Libfabric");
    assertThat(log.get("rdma").asBoolean()).isFalse();
  }

  @Test
  void anInvalidArgumentQpTransitionWithAHandSetGidIndexIsTheGidIndexOrThePodNetwork() {
    String p = "train-worker-0:90:120 [0] ";
    String log = p + "NCCL INFO NCCL_IB_GID_INDEX set by environment to 3.\n"
        + p + "NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE ; OOB eth0:10.42.1.23<0>\n"
        + "\n" + p + "misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument\n";
    JsonNode v = report(log).get("verdict");
    assertThat(v.get("layer").asText()).isEqualTo("nccl-env");
    assertThat(v.get("candidates")).anyMatch(c -> c.get("layer").asText().equals("pod-network"));
  }
}
