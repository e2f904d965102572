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
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dash's "Killed" (or "Aborted", "Terminated") alone behind a wrapper no table knows (stern's Pod and
 * container, compose's service, grep -H's file name) is a rank's end where the log's NCCL lines had
 * that wrapper: the healthy sample with such a last line read HEALTHY. Decided from the whole input,
 * so parts, chunks and one pass agree, and a line before any NCCL line counts too.
 */
class WrappedSignalsTest {
  @TempDir Path dir;

  private static final List<String> SAMPLE = sample();

  private static List<String> sample() {
    try {
      return Files.readAllLines(Logs.SAMPLES.resolve("01-healthy-ib-gdr-2.21.5.log"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String log(UnaryOperator<String> wrap, String before, String after) {
    StringBuilder b = new StringBuilder();
    if (before != null) {
      b.append(before).append('\n');
    }
    for (int i = 0; i < SAMPLE.size(); i++) {
      b.append(wrap.apply(SAMPLE.get(i).replace("trainer-worker-1", "trainer-worker-" + (i % 2)))).append('\n');
    }
    for (int i = 0; i < 3000; i++) {
      b.append(wrap.apply("step " + i + " loss 0.5")).append('\n'); // no NCCL line near the end
    }
    return b.append(after).append('\n').toString();
  }

  private static List<String> killed(LogFacts f) {
    return f.evidenceFor("rankKilled").stream().map(Evidence::text).toList();
  }

  @Test
  void aSignalAfterTheWrapperTheNcclLinesHadIsARanksEnd() {
    assertThat(killed(Logs.parse(log(l -> "trainer-worker-0 pytorch " + l, null, "trainer-worker-1 pytorch Killed"))))
        .containsExactly("trainer-worker-1 pytorch Killed");
    assertThat(killed(Logs.parse(log(l -> "trainer-1  | " + l, null, "trainer-2  | Killed"))))
        .containsExactly("trainer-2  | Killed");
    assertThat(killed(Logs.parse(log(l -> "logs/w-0.log:" + l, null, "logs/w-3.log:Killed"))))
        .containsExactly("logs/w-3.log:Killed");
    LogFacts aborted = Logs.parse(log(l -> "trainer-worker-0 pytorch " + l, null, "trainer-worker-0 pytorch Aborted"));
    assertThat(aborted.evidenceFor("failures")).extracting(Evidence::text).contains("trainer-worker-0 pytorch Aborted");
    assertThat(killed(aborted)).isEmpty();
    // before any NCCL line: the input's wrappers are known when it is decided
    assertThat(killed(Logs.parse(log(l -> "trainer-worker-0 pytorch " + l, "trainer-worker-0 pytorch Killed", "done"))))
        .containsExactly("trainer-worker-0 pytorch Killed");
  }

  @Test
  void wordsAfterOtherTextOrWithoutSuchWrappersAreNoSignal() {
    UnaryOperator<String> sternLines = l -> "trainer-worker-0 pytorch " + l;
    for (String last : new String[] {"the job was Killed", "State: Terminated", "trainer-worker-0 pytorch was Killed",
        "trainer-worker-0 pytorch SomethingKilled"}) {
      LogFacts f = Logs.parse(log(sternLines, null, last));
      assertThat(f.evidenceFor("failures")).as(last).isEmpty();
    }
    // the NCCL lines had no wrapper: what stands before the word is text
    assertThat(Logs.parse(log(l -> l, null, "trainer-worker-0 pytorch Killed")).evidenceFor("failures")).isEmpty();
    // more wrapper shapes than are kept: no answer rather than one that depends on which came first
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 70; i++) {
      String pod = "pod-" + (char) ('a' + i % 26) + (char) ('a' + i / 26) + " c ";
      many.append(pod).append("node-").append(i).append(':').append(100 + i).append(':').append(100 + i)
          .append(" [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n");
    }
    assertThat(killed(Logs.parse(many + "pod-aa c Killed\n"))).isEmpty();
    assertThat(killed(Logs.parse(many.substring(0, many.indexOf("pod-ac")) + "pod-aa c Killed\n"))).hasSize(1);
    // lines of more texts than are kept (other programs' "... Terminated"): no answer either
    UnaryOperator<String> stern = l -> "trainer-worker-0 pytorch " + l;
    StringBuilder texts = new StringBuilder();
    for (int i = 0; i < 70; i++) {
      texts.append("session ").append((char) ('a' + i % 26)).append((char) ('a' + i / 26)).append(" Terminated\n");
    }
    assertThat(killed(Logs.parse(log(stern, texts.toString(), "trainer-worker-0 pytorch Killed")))).isEmpty();
    String fewer = texts.substring(0, texts.indexOf("session ac"));
    assertThat(killed(Logs.parse(log(stern, fewer + fewer, "trainer-worker-0 pytorch Killed")))).hasSize(1);
  }

  @Test
  void partsAndChunksAgreeWithOnePass() throws Exception {
    String text = log(l -> "trainer-worker-0 pytorch " + l, "trainer-worker-1 pytorch Terminated",
        "trainer-worker-1 pytorch Killed");
    Path file = Files.writeString(dir.resolve("stern.log"), text);
    LogFacts one = Logs.parseFile(file, 1, Logs.DEFAULT_MAX_LINE, Long.MAX_VALUE);
    assertThat(killed(one)).containsExactly("trainer-worker-1 pytorch Killed");
    assertThat(one.evidenceFor("failures")).hasSize(2);
    for (int threads : new int[] {2, 3, 8}) {
      ParallelChunksTest.assertSameFacts(Logs.parseFile(file, threads, Logs.DEFAULT_MAX_LINE, 1), one, threads + " threads");
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    LogFacts stream = new NcclLogSource(new ByteArrayInputStream(bytes), 1, 300, 1).read(List.of("-"), Path.of("."));
    assertThat(killed(stream)).hasSize(1);
    for (int threads : new int[] {2, 3}) {
      ParallelChunksTest.assertSameFacts(
          new NcclLogSource(new ByteArrayInputStream(bytes), threads, 300, 1).read(List.of("-"), Path.of(".")), stream,
          threads + " threads, chunks");
    }
  }
}
