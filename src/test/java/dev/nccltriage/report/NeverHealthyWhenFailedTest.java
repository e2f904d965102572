package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * A user who reads "healthy" stops looking. Property: whatever a log held before, once it also
 * holds a WARN of the network path, a crash, a failed collective, or shows more than one node while
 * a question stays open, the verdict is not healthy. Every sample and corpus log is the base; each
 * failure line (several NCCL versions' shapes, and the programs around NCCL) is appended in turn.
 */
class NeverHealthyWhenFailedTest {
  private static final String P = "zz-node-9:4242:4250 [0] ";

  /** Lines that show the job failing, in the shapes NCCL and its callers print them. */
  static final List<String> FAILURES = List.of(
      // network path WARNs (2.18-2.21, 2.22+ timestamped, 2.29+ named status, socket, proxy)
      "\n" + P + "transport/net_ib.cc:1302 NCCL WARN NET/IB : Got completion from peer 10.1.1.2<41234> with "
          + "status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.1.1.1 remoteGids::ffff:10.1.1.2",
      "\n[2026-05-01 10:00:00] " + P + "transport/net_ib.cc:1520 NCCL WARN NET/IB: Got completion from peer "
          + "10.0.0.2<45678> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129 hca mlx5_0",
      "\n" + P + "misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.1.2<41234> failed : "
          + "Software caused connection abort",
      "\n" + P + "proxy.cc:1479 NCCL WARN [Proxy Service 1] Failed to execute operation Connect from rank 1, retcode 6",
      "\n" + P + "misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory",
      "\n" + P + "misc/socket.cc:49 NCCL WARN Net : Connection closed by remote peer 10.0.0.3<51234>",
      P + "NCCL INFO transport/net.cc:1302 -> 6",
      // crashes
      "Segmentation fault (core dumped)",
      "*** SIGABRT received at time=1714550400 on cpu 3 ***",
      "Fatal Python error: Aborted",
      // failed collectives, as the frameworks and nccl-tests report them
      "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88, OpType=ALLREDUCE, "
          + "Timeout(ms)=600000) ran for 600123 milliseconds before timing out.",
      "zz-node-9: Test NCCL failure common.cu:1005 'remote process exited or there was a network error / '",
      "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, unhandled system "
          + "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1",
      "torch.distributed.DistBackendError: NCCL communicator was aborted: ncclRemoteError: A call failed possibly "
          + "due to a network error or a remote process exiting prematurely.");

  static List<Path> bases() throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(CliRun.REPO.resolve("samples/logs"))) {
      s.filter(p -> p.toString().endsWith(".log")).sorted().forEach(out::add);
    }
    try (Stream<Path> s = Files.list(CliRun.REPO.resolve("samples/corpus"))) {
      s.map(d -> d.resolve("log.txt")).filter(Files::isRegularFile).sorted().forEach(out::add);
    }
    assertThat(out).hasSizeGreaterThan(60);
    return out;
  }

  private static JsonNode verdict(String log) {
    CliRun run = CliRun.runWithStdin(log.getBytes(StandardCharsets.UTF_8), "log", "-o", "json", "-");
    assertThat(run.exitCode()).as("exit; stderr %s", run.stderr()).isBetween(0, 3);
    return run.json().get("verdict");
  }

  @Test
  void aFailureLineAppendedToAnyLogIsNeverHealthy() throws IOException {
    SoftAssertions softly = new SoftAssertions();
    for (Path base : bases()) {
      String text = Files.readString(base, StandardCharsets.ISO_8859_1);
      for (String failure : FAILURES) {
        JsonNode v = verdict(text + "\n" + failure + "\n");
        softly.assertThat(v.get("status").asText()).as("%s + %s", base.getFileName(), failure.strip())
            .isNotEqualTo("healthy");
      }
    }
    softly.assertAll();
  }

  @Test
  void aSecondNodeWithAnOpenQuestionIsNeverHealthy() throws IOException {
    // drop what answers GPUDirect RDMA (channel lines, the rings' GDR flag, NCCL's decisions), then
    // add a line of another node: the network is used and Q4 has no answer
    SoftAssertions softly = new SoftAssertions();
    for (Path base : bases()) {
      String kept = Files.readAllLines(base, StandardCharsets.ISO_8859_1).stream()
          .filter(l -> !l.contains(" via ") && !l.contains("GDR") && !l.contains("GPU Direct"))
          .collect(Collectors.joining("\n"));
      String log = kept + "\nzz-node-8:77:77 [0] NCCL INFO comm 0x5 rank 9 nRanks 16 nNodes 2 localRanks 8 "
          + "localRank 1 MNNVL 0 - Init COMPLETE\n";
      softly.assertThat(verdict(log).get("status").asText()).as("%s + a second node", base.getFileName())
          .isNotEqualTo("healthy");
    }
    softly.assertAll();
  }

  @Test
  void singlePodLogsWithoutAFailureStayHealthy() throws IOException {
    String single = Files.readString(CliRun.REPO.resolve("samples/logs/12-single-node-socket-healthy-2.21.5.log"));
    assertThat(verdict(single).get("status").asText()).isEqualTo("healthy");
    String vllm = Files.readString(CliRun.REPO.resolve(
        "samples/corpus/vllm-9193-k8s-kubectl-timestamps-singlepod/log.txt"));
    assertThat(verdict(vllm).get("status").asText()).isEqualTo("healthy");
    // one container whose every interface is loopback: one node, the network is not used
    String lo = """
        box:10:10 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>
        box:10:10 [0] NCCL INFO NET/IB : No device found.
        box:10:10 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>
        box:10:10 [0] NCCL INFO Using network Socket
        box:11:11 [1] NCCL INFO Using network Socket
        box:10:20 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read
        """;
    JsonNode v = verdict(lo);
    assertThat(v.get("status").asText()).isEqualTo("healthy");
    assertThat(v.get("path").get(0).get("answer").asText()).isEqualTo("n/a");
  }
}
