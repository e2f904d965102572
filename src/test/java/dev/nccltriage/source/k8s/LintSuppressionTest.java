package dev.nccltriage.source.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 13 item 9, suppression the kube-linter way: the annotation {@code nccl-triage.io/ignore:
 * RULE[,RULE]} on an object (all its pod templates) or on one pod template, and {@code --exclude
 * RULE} (repeatable, or a comma list). A suppressed finding is counted, not listed, and does not
 * count toward the status or the exit code.
 */
class LintSuppressionTest {
  /** RDMA without IPC_LOCK (a problem) and an unsized /dev/shm... : two Worker/Master templates. */
  private static final String JOB = """
      apiVersion: kubeflow.org/v1
      kind: PyTorchJob
      metadata:
        name: ddp
      %s
      spec:
        pytorchReplicaSpecs:
          Master:
            replicas: 1
            template:
              metadata:
                annotations:
                  k8s.v1.cni.cncf.io/networks: rdma-net@net1
      %s
              spec:
                containers:
                - name: trainer
                  env:
                  - {name: NCCL_DEBUG, value: INFO}
                  resources:
                    limits: {nvidia.com/gpu: 8, rdma/rdma_shared_device_a: 1}
          Worker:
            replicas: 3
            template:
              metadata:
                annotations:
                  k8s.v1.cni.cncf.io/networks: rdma-net@net1
              spec:
                containers:
                - name: trainer
                  env:
                  - {name: NCCL_DEBUG, value: INFO}
                  resources:
                    limits: {nvidia.com/gpu: 8, rdma/rdma_shared_device_a: 1}
      """;

  private static byte[] job(String objectAnnotations, String masterAnnotation) {
    return String.format(JOB, objectAnnotations, masterAnnotation).getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> findings(CliRun run) {
    List<String> out = new ArrayList<>();
    for (JsonNode f : run.json().get("findings")) {
      out.add(f.get("rule").asText() + " " + f.at("/object/template").asText());
    }
    return out;
  }

  @Test
  void unsuppressedBothTemplatesFindTheSameLints() {
    CliRun run = CliRun.runWithStdin(job("", ""), "lint", "-o", "json");
    assertThat(findings(run)).contains("K-rdma-no-ipc-lock pytorchReplicaSpecs.Master",
        "K-rdma-no-ipc-lock pytorchReplicaSpecs.Worker", "K-no-dev-shm pytorchReplicaSpecs.Master");
    assertThat(run.json().get("suppressed").asLong()).isZero();
    assertThat(run.exitCode()).isEqualTo(1);
  }

  @Test
  void anObjectsAnnotationCoversAllItsTemplates() {
    String ann = "  annotations:\n    nccl-triage.io/ignore: K-rdma-no-ipc-lock, K-no-dev-shm";
    CliRun run = CliRun.runWithStdin(job(ann, ""), "lint", "-o", "json");
    assertThat(run.stderr()).isEmpty();
    assertThat(findings(run)).noneMatch(f -> f.startsWith("K-rdma-no-ipc-lock") || f.startsWith("K-no-dev-shm"));
    assertThat(run.json().get("suppressed").asLong()).isEqualTo(4);
    assertThat(run.json().get("problems").asLong()).isZero();
    assertThat(run.json().get("status").asText()).isEqualTo("healthy");
    assertThat(run.exitCode()).as("suppressed problems do not fail the lint").isZero();
    CliRun text = CliRun.runWithStdin(job(ann, ""), "lint");
    assertThat(text.stdout()).contains("0 problems").contains("4 suppressed");
  }

  @Test
  void aTemplatesAnnotationCoversThatTemplateOnly() {
    String ann = "            nccl-triage.io/ignore: \"K-rdma-no-ipc-lock\"";
    CliRun run = CliRun.runWithStdin(job("", ann), "lint", "-o", "json");
    assertThat(findings(run)).doesNotContain("K-rdma-no-ipc-lock pytorchReplicaSpecs.Master")
        .contains("K-rdma-no-ipc-lock pytorchReplicaSpecs.Worker");
    assertThat(run.json().get("suppressed").asLong()).isEqualTo(1);
    assertThat(run.exitCode()).isEqualTo(1);
  }

  @Test
  void excludeIsRepeatableAndTakesACommaList() {
    CliRun run = CliRun.runWithStdin(job("", ""), "lint", "-o", "json", "--exclude", "K-rdma-no-ipc-lock",
        "--exclude=K-no-dev-shm,K-rdma-no-multus");
    assertThat(findings(run)).noneMatch(f -> f.startsWith("K-rdma-no-ipc-lock") || f.startsWith("K-no-dev-shm"));
    assertThat(run.json().get("suppressed").asLong()).isEqualTo(4);
    assertThat(run.exitCode()).isZero();
    CliRun sarif = CliRun.runWithStdin(job("", ""), "lint", "-o", "sarif", "--exclude", "K-rdma-no-ipc-lock");
    assertThat(sarif.json().at("/runs/0/properties/suppressed").asLong()).isEqualTo(2);
    assertThat(sarif.stdout()).doesNotContain("\"ruleId\" : \"K-rdma-no-ipc-lock\"");
  }

  @Test
  void anUnknownExcludedRuleIsAUsageError() {
    CliRun run = CliRun.runWithStdin(job("", ""), "lint", "--exclude", "K-rdma-no-ipc-lok");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).isEqualTo("nccl-triage: --exclude K-rdma-no-ipc-lok: lint runs no rule of that id"
        + " (nccl-triage rules lists them: K-* and L-env-*)\n");
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void annotationValuesParse() {
    assertThat(Suppressions.of(new Node(" K-a,K-b  K-c ,, ", 1, 1))).containsExactly("K-a", "K-b", "K-c");
    assertThat(Suppressions.of(new Node("", 1, 1))).isEmpty();
    assertThat(Suppressions.of(Node.MISSING)).isEmpty();
  }
}
