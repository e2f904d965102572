package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job that fails before NCCL prints a line (at PyTorch's rendezvous, say) is a problem with its
 * failure as evidence, not "no NCCL lines"; a log with neither NCCL lines nor a failure still is.
 */
class FailedBeforeNcclTest {
  private static final String TRACEBACK = "torch 2.11.0+cu130 nccl (2, 28, 9)\n"
      + "Traceback (most recent call last):\n"
      + "  File \"train.py\", line 10, in <module>\n"
      + "    dist.init_process_group(\"nccl\")\n";

  private static CliRun log(String text) {
    return CliRun.runWithStdin(text.getBytes(StandardCharsets.UTF_8), "log", "-o", "json", "-");
  }

  private static List<String> rules(JsonNode doc) {
    List<String> ids = new ArrayList<>();
    doc.at("/verdict/candidates").forEach(c -> ids.add(c.path("rule").asText()));
    return ids;
  }

  @Test
  void outputWithoutNcclLinesOrAFailureSaysSo() {
    CliRun run = log("Epoch 1 loss 0.3\nEpoch 2 loss 0.2\n");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
    assertThat(run.json().at("/verdict/summary").asText()).contains("no NCCL lines");
  }

  @Test
  void aRankThatCannotReachTheStoreIsThePodNetworksToCheck() {
    CliRun run = log(TRACEBACK + "torch.distributed.DistNetworkError: The client socket has timed out after 1800000ms "
        + "while trying to connect to (trainer-master-0, 29500).\n");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    JsonNode doc = run.json();
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("pod-network");
    assertThat(rules(doc)).startsWith("L-rendezvous-connect");
    assertThat(doc.at("/verdict/candidates/0/evidence/0/line").asLong()).isEqualTo(5);
  }

  @Test
  void aStoreThatWaitedForRanksNamesNoLayerButSaysWhatToLookAt() {
    CliRun run = log(TRACEBACK + "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. "
        + "3/4 clients joined.\n");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.json().at("/verdict/layer").asText()).isEqualTo("unknown");
    assertThat(rules(run.json())).startsWith("L-rendezvous-clients");
  }

  @Test
  void aCrashWithoutNcclLinesIsTheJobFailing() {
    CliRun run = log("Epoch 1 loss 0.3\nSegmentation fault (core dumped)\n");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(rules(run.json())).containsExactly("L-job-failed");
  }

  @Test
  void aCollectiveTimeoutNamesTheWatchdog() {
    CliRun run = log("node-0:10:10 [0] NCCL INFO Using network Socket\n"
        + "[rank0]:[E1204 15:15:03.177768804 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation "
        + "timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=15000) ran for 15072 "
        + "milliseconds before timing out.\n");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(rules(run.json())).startsWith("L-collective-timeout");
  }
}
