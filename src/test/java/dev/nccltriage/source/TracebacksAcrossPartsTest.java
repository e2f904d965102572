package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Python traceback is read over many lines: a file read in parts, or a stream cut into chunks,
 * whose cut falls inside one must find its exception as one pass does (it read HEALTHY in parts
 * and INCONCLUSIVE in one pass: the part after the cut did not know a traceback was open).
 */
class TracebacksAcrossPartsTest {
  @TempDir Path dir;

  private static final String INFO = "gpu-h1:4021:4090 [0] NCCL INFO ";

  /** Tracebacks of several shapes between NCCL's lines, each a different exception, in random order. */
  private static String log(long seed) {
    Random r = new Random(seed);
    StringBuilder b = new StringBuilder();
    b.append(INFO).append("NCCL version 2.21.5+cuda12.4\n");
    b.append(INFO).append("Bootstrap : Using eth0:10.20.30.41<0>\n");
    for (int k = 0; k < 6; k++) {
      for (int n = r.nextInt(4); n > 0; n--) {
        b.append(INFO).append("Channel 0").append(n).append("/0 : 0[0] -> 1[1] via P2P/IPC\n");
      }
      String q = switch (r.nextInt(4)) {
        case 0 -> "> ";
        case 1 -> "    ";
        default -> "";
      };
      b.append(q).append("Traceback (most recent call last):\n");
      for (int f = 1 + r.nextInt(12); f > 0; f--) {
        b.append(q).append("  File \"/workspace/train.py\", line ").append(f).append(", in step").append(f).append('\n');
        if (r.nextBoolean()) {
          b.append(q).append("    loss = model(batch)\n");
        }
        if (r.nextInt(5) == 0) {
          b.append(INFO).append("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"); // another thread's line
        }
        if (r.nextInt(7) == 0) {
          b.append(q).append("      Traceback (most recent call last):\n"); // a frame's source, indented
        }
      }
      b.append(q).append("Error").append(seed).append('x').append(k).append(": step ").append(k).append(" failed\n");
      if (r.nextBoolean()) {
        b.append("step ").append(k).append(" loss 0.5\n");
      }
    }
    return b.toString();
  }

  /**
   * Two Pods' logs as {@code kubectl logs -f --prefix} prints them, line by line into each other:
   * {@link #log} for the first, and for the second its progress ("step", and "Epoch: N", which reads
   * like an exception's line) with, if {@code tracebacks}, its own tracebacks.
   */
  private static String interleaved(long seed, boolean tracebacks) {
    Random r = new Random(seed);
    String[] first = log(seed).split("\n");
    java.util.List<String> second = new java.util.ArrayList<>();
    for (int k = 0; second.size() < first.length; k++) {
      second.add(r.nextBoolean() ? "step " + k + " loss 0.5" : "Epoch: " + k);
      if (tracebacks && r.nextInt(9) == 0) {
        second.add("Traceback (most recent call last):");
        second.add("  File \"/workspace/eval.py\", line " + k + ", in run");
        second.add("Other" + seed + "x" + k + ": of w-1");
      }
    }
    StringBuilder b = new StringBuilder();
    int i = 0;
    int j = 0;
    while (i < first.length || j < second.size()) {
      if (j == second.size() || i < first.length && r.nextBoolean()) {
        b.append("[pod/w-0/trainer] ").append(first[i++]).append('\n');
      } else {
        b.append("[pod/w-1/trainer] ").append(second.get(j++)).append('\n');
      }
    }
    return b.toString();
  }

  /** kubectl -f over two Pods, cut anywhere: one Pod's lines between the other's traceback's leave it open. */
  @Test
  void interleavedPodsCutAnywhereFindWhatOnePassFinds() throws Exception {
    for (long seed = 1; seed <= 8; seed++) {
      for (boolean both : new boolean[] {false, true}) {
        Path file = Files.writeString(dir.resolve("i" + seed + both + ".log"), interleaved(seed, both));
        LogFacts one = parts(file, 1, Long.MAX_VALUE);
        if (!both) {
          String mark = "Error" + seed + "x";
          assertThat(one.evidenceFor("pythonException")).extracting(Evidence::text)
              .as("seed %d", seed).hasSize(3).allMatch(t -> t.contains(mark));
        }
        for (int threads : new int[] {2, 3, 8}) {
          ParallelChunksTest.assertSameFacts(parts(file, threads, 1), one, "seed " + seed + ", " + threads + " threads");
        }
        byte[] bytes = Files.readAllBytes(file);
        ParallelChunksTest.assertSameFacts(stdin(bytes, 3, 250), stdin(bytes, 1, 250), "seed " + seed + ", chunks");
      }
    }
  }

  private static LogFacts parts(Path file, int threads, long minBytes) throws Exception {
    return Logs.parseFile(file, threads, Logs.DEFAULT_MAX_LINE, minBytes);
  }

  private static LogFacts stdin(byte[] bytes, int threads, int maxLine) throws Exception {
    // parallelMinBytes 1: chunks as small as the line limit allows (maxLine + 2 bytes)
    return new NcclLogSource(new ByteArrayInputStream(bytes), threads, maxLine, 1).read(List.of("-"), Path.of("."));
  }

  @Test
  void partsCutInsideTracebacksFindWhatOnePassFinds() throws Exception {
    for (long seed = 1; seed <= 12; seed++) {
      String text = log(seed);
      Path file = Files.writeString(dir.resolve("t" + seed + ".log"), text);
      LogFacts one = parts(file, 1, Long.MAX_VALUE);
      String mark = "Error" + seed + "x";
      assertThat(one.evidenceFor("pythonException")).extracting(Evidence::text)
          .as("seed %d", seed).hasSize(3).allMatch(t -> t.contains(mark));
      for (int threads : new int[] {2, 3, 5, 8}) {
        ParallelChunksTest.assertSameFacts(parts(file, threads, 1), one, "seed " + seed + ", " + threads + " threads");
      }
    }
  }

  /** A traceback left open at one input's end (a Pod's log cut short) does not run into the next input. */
  @Test
  void aTracebackOpenAtAnInputsEndEndsThere() throws Exception {
    String open = INFO + "NCCL version 2.21.5+cuda12.4\n" + "Traceback (most recent call last):\n"
        + "  File \"/workspace/train.py\", line 3, in main\n".repeat(40);
    String next = "ValueError: the next Pod's own line\n" + INFO + "Bootstrap : Using eth0:10.20.30.41<0>\n";
    Files.writeString(dir.resolve("a.log"), open);
    Files.writeString(dir.resolve("b.log"), next + next);
    for (int threads : new int[] {1, 2, 3}) {
      LogFacts f = new NcclLogSource(java.io.InputStream.nullInputStream(), threads, Logs.DEFAULT_MAX_LINE, 1)
          .read(List.of("a.log", "b.log"), dir);
      assertThat(f.evidenceFor("pythonException")).as("%d threads", threads).isEmpty();
    }
    Files.writeString(dir.resolve("ab.log"), open + next);
    assertThat(parts(dir.resolve("ab.log"), 3, 1).evidenceFor("pythonException")).extracting(Evidence::text)
        .containsExactly("ValueError: the next Pod's own line");
  }

  @Test
  void streamChunksCutInsideTracebacksFindWhatOnePassFinds() throws Exception {
    for (long seed = 1; seed <= 6; seed++) {
      byte[] bytes = log(seed).getBytes(StandardCharsets.UTF_8);
      LogFacts one = stdin(bytes, 1, 200);
      assertThat(one.evidenceFor("pythonException")).as("seed %d", seed).hasSize(3);
      for (int threads : new int[] {2, 3}) {
        for (int maxLine : new int[] {120, 300}) {
          ParallelChunksTest.assertSameFacts(stdin(bytes, threads, maxLine), one,
              "seed " + seed + ", " + threads + " threads, chunks of " + (maxLine + 2));
        }
      }
    }
  }
}
