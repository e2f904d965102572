package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the CLI ({@code log -o json} on a small log written to a temporary file): the
 * verdict of jobs that failed, or that fell back to sockets, as rules/lints-errors.yaml,
 * rules/causes.yaml and rules/tree.yaml are meant to decide it.
 *
 * <p>Why: the parser's facts are only half of the answer; the user reads the verdict. A failed job
 * must never be reported healthy, an excerpt that cannot tell the node count must be inconclusive
 * rather than a guess, advice about the Pod spec belongs only to logs that show a Pod, and an error
 * that is not the network's (a CUDA driver mismatch) must say so. Hosts and addresses are
 * invented; the line shapes are those of real NCCL logs (nccl-log-spec.md).
 */
class FailedJobVerdictTest {
  @TempDir Path tmp;

  private JsonNode verdict(String... lines) throws IOException {
    Path log = tmp.resolve("job.log");
    Files.writeString(log, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    CliRun run = CliRun.run("log", "-o", "json", log.toString());
    assertThat(run.stderr()).as("stderr").doesNotContain("Exception");
    JsonNode v = run.json().get("verdict");
    assertThat(v).as("verdict in %s", run).isNotNull();
    assertThat(run.exitCode()).as("exit code matches the status").isEqualTo(CliRun.exitCodeFor(v.get("status").asText()));
    return v;
  }

  private static List<String> candidateLayers(JsonNode v) {
    List<String> out = new ArrayList<>();
    v.get("candidates").forEach(c -> out.add(c.get("layer").asText()));
    return out;
  }

  private static JsonNode candidate(JsonNode v, String rule) {
    for (JsonNode c : v.get("candidates")) {
      if (c.get("rule").asText().equals(rule)) {
        return c;
      }
    }
    throw new AssertionError("no candidate from rule " + rule + " in " + v.get("candidates"));
  }

  private static List<String> evidenceTexts(JsonNode withEvidence) {
    List<String> out = new ArrayList<>();
    withEvidence.get("evidence").forEach(e -> out.add(e.get("text").asText()));
    return out;
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? "" : n.asText();
  }

  // --- WARN-only excerpt of one host ------------------------------------------------------------
  private static final String REFUSED =
      "gpu-c3:5512:5590 [2] include/socket.h:390 NCCL WARN Connect to 10.9.8.7<21724> failed : Connection refused";

  private JsonNode connectionRefusedExcerpt() throws IOException {
    return verdict(
        REFUSED,
        "gpu-c3:5512:5590 [2] NCCL INFO misc/socket.cc:452 -> 6",
        "gpu-c3:5512:5590 [2] NCCL INFO bootstrap.cc:71 -> 6",
        "gpu-c3:5512:5590 [2] NCCL INFO init.cc:1400 -> 6");
  }

  @Test
  void warnOnlyExcerptWithRefusedConnectionIsAProblem() throws IOException {
    assertThat(connectionRefusedExcerpt().get("status").asText()).isEqualTo("problem");
  }

  @Test
  void warnOnlyExcerptWithRefusedConnectionHasAFindingQuotingTheWarnLine() throws IOException {
    JsonNode v = connectionRefusedExcerpt();
    List<String> quoted = new ArrayList<>();
    for (JsonNode f : v.get("findings")) {
      String rule = f.get("rule").asText();
      if (rule.equals("L-job-failed") || rule.equals("L-err-connect-refused")) {
        quoted.addAll(evidenceTexts(f));
      }
    }
    assertThat(quoted).as("evidence of L-job-failed / L-err-connect-refused").contains(REFUSED);
  }

  // --- completion status 4, no channel lines -------------------------------------------------------
  private static final String STATUS_4 = "gpu-ia:3101:3199 [0] transport/net_ib.cc:1456 NCCL WARN NET/IB : Got "
      + "completion from peer 192.168.7.12<48211> with status=4 opcode=0 len=0 vendor err 81 (Send) "
      + "localGid fe80::ba59:9f03:a1:2b3c remoteGids fe80::ba59:9f03:a1:4d5e";

  private JsonNode completionStatus4() throws IOException {
    return verdict(
        "gpu-ia:3101:3101 [0] NCCL INFO Bootstrap : Using ib0:192.168.7.11<0>",
        "gpu-ia:3101:3101 [0] NCCL INFO NCCL version 2.20.5+cuda12.2",
        "gpu-ia:3101:3170 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:192.168.7.11<0>",
        "gpu-ia:3101:3170 [0] NCCL INFO Using network IB",
        "gpu-ib:4202:4202 [0] NCCL INFO Bootstrap : Using ib0:192.168.7.12<0>",
        "gpu-ib:4202:4270 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:192.168.7.12<0>",
        "gpu-ib:4202:4270 [0] NCCL INFO Using network IB",
        "gpu-ia:3101:3170 [0] NCCL INFO comm 0x5566aa00 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
            + "commId 0x1a2b3c4d - Init COMPLETE",
        "gpu-ib:4202:4270 [0] NCCL INFO comm 0x7788bb00 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 "
            + "commId 0x1a2b3c4d - Init COMPLETE",
        STATUS_4,
        "gpu-ia:3101:3199 [0] NCCL INFO transport/net.cc:1180 -> 6",
        "gpu-ia:3101:3199 [0] NCCL INFO proxy.cc:880 -> 6");
  }

  @Test
  void completionStatus4WithoutChannelLinesNamesTopologyAndNodeDriver() throws IOException {
    JsonNode v = completionStatus4();
    assertThat(v.get("status").asText()).isEqualTo("problem");
    assertThat(candidateLayers(v)).contains("topology", "node-driver");
  }

  @Test
  void completionStatus4WithoutChannelLinesSuggestsARerunWithGdrOff() throws IOException {
    assertThat(text(completionStatus4().get("fix"))).contains("NCCL_NET_GDR_LEVEL=LOC");
  }

  @Test
  void completionStatus4CandidatesQuoteTheCompletionLine() throws IOException {
    // a candidate is only as good as the line that shows it
    JsonNode v = completionStatus4();
    assertThat(evidenceTexts(candidate(v, "L-err-completion-protection-no-gdr-evidence-topology"))).contains(STATUS_4);
    assertThat(evidenceTexts(candidate(v, "L-err-completion-protection-no-gdr-evidence-driver"))).contains(STATUS_4);
  }

  // --- ibv_modify_qp: No such device ------------------------------------------------------------------
  @Test
  void modifyQpNoSuchDeviceNamesNcclEnvPodNetworkAndFabric() throws IOException {
    JsonNode v = verdict(
        "roce-a:2201:2201 [0] NCCL INFO Bootstrap : Using eth1:10.50.0.11<0>",
        "roce-a:2201:2260 [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE ; OOB eth1:10.50.0.11<0>",
        "roce-a:2201:2260 [0] NCCL INFO Using network IB",
        "roce-b:3302:3302 [0] NCCL INFO Bootstrap : Using eth1:10.50.0.12<0>",
        "roce-b:3302:3360 [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE ; OOB eth1:10.50.0.12<0>",
        "roce-b:3302:3360 [0] NCCL INFO Using network IB",
        "roce-a:2201:2290 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device",
        "roce-a:2201:2290 [0] NCCL INFO transport/net_ib.cc:827 -> 2",
        "roce-a:2201:2290 [0] NCCL INFO transport/net_ib.cc:918 -> 2");
    assertThat(v.get("status").asText()).isEqualTo("problem");
    assertThat(candidateLayers(v)).contains("nccl-env", "pod-network", "fabric");
  }

  // --- CUDA driver mismatch -----------------------------------------------------------------------------
  private JsonNode cudaDriverMismatch() throws IOException {
    return verdict(
        "gpu-d1:7001:7001 [0] NCCL INFO Bootstrap : Using eth0:10.60.0.5<0>",
        "gpu-d1:7001:7001 [0] NCCL INFO NCCL version 2.21.5+cuda12.4",
        "gpu-d1:7001:7001 [0] enqueue.cc:1021 NCCL WARN Cuda failure 'CUDA driver version is insufficient for "
            + "CUDA runtime version'",
        "gpu-d1:7001:7001 [0] NCCL INFO init.cc:1720 -> 1");
  }

  @Test
  void cudaDriverMismatchIsANodeDriverProblem() throws IOException {
    JsonNode v = cudaDriverMismatch();
    assertThat(v.get("status").asText()).isEqualTo("problem");
    assertThat(v.get("layer").asText()).isEqualTo("node-driver");
  }

  @Test
  void cudaDriverMismatchSaysItIsNotANetworkFault() throws IOException {
    assertThat(text(cudaDriverMismatch().get("summary"))).contains("not a network fault");
  }

  // --- one host on sockets, node count unknown -----------------------------------------------------
  private JsonNode oneHostOnSockets() throws IOException {
    return verdict(
        "gpu-s1:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>",
        "gpu-s1:200:200 [0] NCCL INFO NCCL version 2.21.5+cuda12.4",
        "gpu-s1:200:260 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
        "gpu-s1:200:260 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>",
        "gpu-s1:200:260 [0] NCCL INFO Using network Socket");
  }

  @Test
  void oneHostOnSocketsWithoutNodeCountIsInconclusive() throws IOException {
    assertThat(oneHostOnSockets().get("status").asText()).isEqualTo("inconclusive");
  }

  @Test
  void oneHostOnSocketsAdvisesThatTheLogDoesNotShowWhetherTheJobSpansNodes() throws IOException {
    JsonNode v = oneHostOnSockets();
    List<String> advice = new ArrayList<>();
    v.get("advice").forEach(a -> advice.add(a.asText()));
    assertThat(advice).anySatisfy(a -> assertThat(a).contains("does not show whether the job spans nodes"));
  }

  // --- VMs without RDMA user space ----------------------------------------------------------------------
  @Test
  void twoVmsWithoutLibibverbsAndNoRdmaOrPodShownAreNotAProblem() throws IOException {
    JsonNode v = verdict(
        "vm-a:300:300 [0] NCCL INFO Bootstrap : Using ens5:172.31.1.10<0>",
        "vm-a:300:300 [0] NCCL INFO NCCL version 2.19.3+cuda12.3",
        "vm-a:300:360 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
        "vm-a:300:360 [0] NCCL INFO NET/Socket : Using [0]ens5:172.31.1.10<0>",
        "vm-a:300:360 [0] NCCL INFO Using network Socket",
        "vm-b:400:400 [0] NCCL INFO Bootstrap : Using ens5:172.31.1.11<0>",
        "vm-b:400:460 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
        "vm-b:400:460 [0] NCCL INFO NET/Socket : Using [0]ens5:172.31.1.11<0>",
        "vm-b:400:460 [0] NCCL INFO Using network Socket",
        "vm-a:300:360 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0",
        "vm-a:300:360 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
        "vm-b:400:460 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
        "vm-b:400:460 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/Socket/0");
    assertThat(v.get("status").asText()).isNotEqualTo("problem");
  }

  // --- No device found, with and without a Pod shown ------------------------------------------------
  private JsonNode noDeviceOnTwoHosts(String a, String b) throws IOException {
    return verdict(
        a + ":61:61 [0] NCCL INFO Bootstrap : Using eth0:10.244.3.17<0>",
        a + ":61:61 [0] NCCL INFO NCCL version 2.19.3+cuda12.3",
        a + ":61:274 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
        a + ":61:274 [0] NCCL INFO NET/IB : No device found.",
        a + ":61:274 [0] NCCL INFO NET/Socket : Using [0]eth0:10.244.3.17<0>",
        a + ":61:274 [0] NCCL INFO Using network Socket",
        b + ":71:71 [0] NCCL INFO Bootstrap : Using eth0:10.244.5.9<0>",
        b + ":71:281 [0] NCCL INFO NET/IB : No device found.",
        b + ":71:281 [0] NCCL INFO NET/Socket : Using [0]eth0:10.244.5.9<0>",
        b + ":71:281 [0] NCCL INFO Using network Socket",
        a + ":61:274 [0] NCCL INFO comm 0x55d0c1a0 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0",
        b + ":71:281 [0] NCCL INFO comm 0x56e1d2b0 rank 1 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0",
        a + ":61:274 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0",
        a + ":61:274 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0");
  }

  @Test
  void noDeviceOnOperatorPodsPointsAtThePodsRdmaResource() throws IOException {
    JsonNode v = noDeviceOnTwoHosts("job-worker-0", "job-worker-1");
    assertThat(v.get("status").asText()).isEqualTo("problem");
    String firstWhy = text(v.get("candidates").get(0).get("why"));
    String advice = firstWhy + " " + text(v.get("fix"));
    assertThat(advice).contains("Pod").contains("RDMA resource");
  }

  @Test
  void noDeviceOnPlainHostsGivesNoPodSpecAdvice() throws IOException {
    JsonNode v = noDeviceOnTwoHosts("gpu-a", "gpu-b");
    List<String> texts = new ArrayList<>();
    v.get("candidates").forEach(c -> texts.add(text(c.get("why"))));
    texts.add(text(v.get("summary")));
    texts.add(text(v.get("fix")));
    texts.add(text(v.get("probe")));
    assertThat(texts).noneMatch(t -> t.contains("Pod spec"));
  }

  // --- link-local IPv6 in the bootstrap of a 2-node socket job ------------------------------------------
  @Test
  void linkLocalBootstrapOnTwoNodeSocketJobIsAnNcclEnvCandidate() throws IOException {
    String bootX = "node-x:501:501 [0] NCCL INFO Bootstrap : Using [0]ens5:172.31.9.20<0> "
        + "[1]ens6:fe80::8c21:4aff:fe77:1b2c%ens6<0>";
    JsonNode v = verdict(
        bootX,
        "node-x:501:501 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
        "node-x:501:501 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
        "node-x:501:501 [0] NCCL INFO NET/Socket : Using [0]ens5:172.31.9.20<0> [1]ens6:fe80::8c21:4aff:fe77:1b2c%ens6<0>",
        "node-x:501:501 [0] NCCL INFO Using network Socket",
        "NCCL version 2.7.8+cuda11.1",
        "node-y:601:601 [0] NCCL INFO Bootstrap : Using [0]ens5:172.31.9.21<0> [1]ens6:fe80::d4c3:b2ff:fea1:9f8e%ens6<0>",
        "node-y:601:601 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
        "node-y:601:601 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
        "node-y:601:601 [0] NCCL INFO NET/Socket : Using [0]ens5:172.31.9.21<0> [1]ens6:fe80::d4c3:b2ff:fea1:9f8e%ens6<0>",
        "node-y:601:601 [0] NCCL INFO Using network Socket",
        "node-x:501:560 [0] NCCL INFO Channel 00 : 1[1e0] -> 0[1e0] [receive] via NET/Socket/0",
        "node-x:501:560 [0] NCCL INFO Channel 00 : 0[1e0] -> 1[1e0] [send] via NET/Socket/0",
        "node-y:601:660 [0] NCCL INFO Channel 00 : 0[1e0] -> 1[1e0] [receive] via NET/Socket/0",
        "node-y:601:660 [0] NCCL INFO Channel 00 : 1[1e0] -> 0[1e0] [send] via NET/Socket/0");
    assertThat(v.get("status").asText()).isEqualTo("problem");
    JsonNode c = candidate(v, "L-err-link-local");
    assertThat(c.get("layer").asText()).isEqualTo("nccl-env");
    assertThat(evidenceTexts(c)).contains(bootX);
  }
}
