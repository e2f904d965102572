package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@code lint} and {@code bw} read a large input through stdin in a JVM with a heap far smaller than
 * the input (issue 11 item 3): {@code kubectl get -A -o yaml} of a large cluster as one {@code kind:
 * List}, and nccl-tests output of a large job with NCCL_DEBUG=INFO. The input is generated as it is
 * written, never held. Before streaming, both read the whole input (lint also stopped at SnakeYAML's
 * 3 MB document limit, calling the List invalid YAML).
 */
class LargeInputStreamingTest {
  private static final String HEAP = "-Xmx48m";

  @Test
  void lintStreamsAClusterSizedListAndCountsRepeatedFindings() throws Exception {
    int jobs = 30_000; // about 20 MB of YAML
    Run run = assertTimeoutPreemptively(Duration.ofSeconds(240), () -> run(out -> {
      out.write("apiVersion: v1\nitems:\n".getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < jobs; i++) {
        out.write(job(i).getBytes(StandardCharsets.UTF_8));
      }
      out.write("kind: List\nmetadata:\n  resourceVersion: \"\"\n".getBytes(StandardCharsets.UTF_8));
    }, "lint", "-o", "json", "-"));
    assertThat(run.stderr).isEmpty();
    assertThat(run.exit).isEqualTo(1);
    JsonNode j = new ObjectMapper().readTree(run.stdout);
    assertThat(j.at("/inputs/0/podTemplates").asLong()).isEqualTo(jobs);
    assertThat(j.at("/inputs/0/objects").asLong()).isEqualTo(jobs);
    // every Job fires K-rdma-no-ipc-lock: the first ones are listed in full, the rest counted exactly
    long listed = 0;
    for (JsonNode f : j.get("findings")) {
      listed += f.get("rule").asText().equals("K-rdma-no-ipc-lock") ? 1 : 0;
    }
    assertThat(listed).isEqualTo(LintCommand.MAX_FINDINGS_PER_RULE);
    JsonNode left = null;
    for (JsonNode l : j.get("findingsLeftOut")) {
      left = l.get("rule").asText().equals("K-rdma-no-ipc-lock") ? l : left;
    }
    assertThat(left).isNotNull();
    assertThat(left.get("count").asLong()).isEqualTo(jobs - LintCommand.MAX_FINDINGS_PER_RULE);
    // the last Job's evidence still quotes its own line
    JsonNode first = j.get("findings").get(0);
    assertThat(first.at("/evidence/0/text").asText()).isNotEmpty();
  }

  @Test
  void bwStreamsHundredsOfMegabytesOfOutput() throws Exception {
    long bytes = 150L << 20;
    Run run = assertTimeoutPreemptively(Duration.ofSeconds(240), () -> run(out -> {
      StringBuilder b = new StringBuilder();
      b.append("# nccl-tests version 2.17.6 nccl-headers=22703 nccl-library=22703\n")
          .append("# Collective test starting: all_reduce_perf\n")
          .append("# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5\n");
      for (int r = 0; r < 64; r++) {
        b.append(String.format("#  Rank %3d Group  0 Pid %5d on node-%02d device  %d [0000:18:00] NVIDIA H100%n",
            r, 4000 + r, r / 8, r % 8));
      }
      out.write(b.toString().getBytes(StandardCharsets.UTF_8));
      long written = b.length();
      long n = 0;
      while (written < bytes) {
        byte[] line = String.format("node-%02d:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] [send] via"
            + " NET/IB/%d/GDRDMA%n", n % 64 / 8, 4000 + n % 64, 4100 + n % 64, n % 8, n % 32, n % 64, n % 8,
            (n + 8) % 64, n % 8, n % 8).getBytes(StandardCharsets.UTF_8);
        out.write(line);
        written += line.length;
        n++;
      }
      StringBuilder t = new StringBuilder("#       size         count      type   redop    root     time   algbw"
          + "   busbw  #wrong     time   algbw   busbw  #wrong\n");
      for (long size = 8; size <= 8589934592L; size *= 2) {
        t.append(String.format("%12d  %12d     float     sum      -1   100.00    1.00  180.00       0   100.00"
            + "    1.00  180.00       0%n", size, size / 4));
      }
      t.append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 120.5\n");
      out.write(t.toString().getBytes(StandardCharsets.UTF_8));
    }, "bw", "--hcas", "8", "--rate", "200", "-o", "json", "-"));
    assertThat(run.stderr).isEmpty();
    JsonNode j = new ObjectMapper().readTree(run.stdout);
    assertThat(j.at("/bw/busbw").asDouble()).isEqualTo(180.0);
    assertThat(j.at("/bw/ranks").asInt()).isEqualTo(64);
    assertThat(j.at("/bw/nodes").asInt()).isEqualTo(8);
    assertThat(j.at("/bw/sizes")).hasSize(31);
    assertThat(j.at("/log/ncclLines").asLong()).isGreaterThan(1_000_000);
    assertThat(j.at("/bw/hypothesis").asText()).isEqualTo("healthy");
    assertThat(run.exit).as("a verdict, not an input or internal error").isIn(0, 1);
  }

  interface Writer {
    void write(OutputStream out) throws IOException;
  }

  record Run(int exit, String stdout, String stderr) {}

  /** The CLI in a JVM of its own with a small heap, {@code input} written to its stdin as it reads. */
  private static Run run(Writer input, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP, "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).directory(CliRun.REPO.toFile()).start();
    CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
    CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    try (OutputStream in = new java.io.BufferedOutputStream(p.getOutputStream(), 1 << 16)) {
      input.write(in);
    } catch (IOException e) {
      // the tool stopped reading (it failed): its exit status and stderr say why
    }
    int exit = p.waitFor();
    return new Run(exit, new String(out.get(), StandardCharsets.UTF_8), new String(err.get(), StandardCharsets.UTF_8));
  }

  private static byte[] readAll(InputStream in) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      in.transferTo(b);
      return b.toByteArray();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String job(int i) {
    return """
        - apiVersion: batch/v1
          kind: Job
          metadata:
            name: train-%d
          spec:
            parallelism: 2
            template:
              spec:
                containers:
                - name: trainer
                  image: nvcr.io/nvidia/pytorch:24.05-py3
                  resources:
                    limits:
                      nvidia.com/gpu: "8"
                      rdma/hca: "1"
                  securityContext:
                    runAsUser: 1000
        """.formatted(i);
  }
}
