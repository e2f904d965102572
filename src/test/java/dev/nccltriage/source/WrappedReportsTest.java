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
 * A launcher's report of an abnormal end (srun's and slurmstepd's errors, Hydra's box, Open MPI's
 * errmgr, kubectl exec's exit code, dash's "Killed" alone) behind a wrapper no table knows (stern's
 * Pod and container, compose's service, grep -H's file name, pdsh's host) is a failure where the
 * log's NCCL lines had that wrapper: the healthy sample with such a last line read HEALTHY. Decided
 * from the whole input, so parts, chunks and one pass agree, and a line before any NCCL line counts
 * too.
 */
class WrappedReportsTest {
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

  /**
   * Every report LauncherReports reads at a line's start, and a logger's FATAL line, with the
   * evidence key it fills.
   */
  private static final String[][] REPORTS = {
    {"srun: error: node-1: task 3: Exited with exit code 1", "failures"},
    {"srun: error: node-1: tasks 0-7: Killed", "rankKilled"},
    {"srun: error: node-1: task 3: Out Of Memory", "rankKilled"},
    {"srun: error: Node failure on node-1", "failures"},
    {"slurmstepd: error: *** JOB 1234 ON node-1 CANCELLED AT 2026-12-01T10:00:00 ***", "failures"},
    {"slurmstepd: error: Detected 1 oom_kill event in StepId=1234.0. Some of the step tasks have been OOM Killed.",
        "rankKilled"},
    {"=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES", "failures"},
    {"YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)", "rankKilled"},
    {"Primary job  terminated normally, but 1 process returned", "failures"},
    {"terminate called without an active exception", "failures"},
    {"command terminated with exit code 137", "rankKilled"},
    {"application called MPI_Abort(MPI_COMM_WORLD, 1) - process 3", "failures"},
    {"Abort(1) on node 3 (rank 3 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 1) - process 3", "failures"},
    {"ORTE has lost communication with a remote daemon.", "failures"},
    {"PRRTE has lost communication with a remote daemon.", "failures"},
    {"ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
        "shmExhausted"},
    {"Error executing job with overrides: ['trainer=ddp']", "failures"},
    {"Killed", "rankKilled"},
    {"Terminated", "failures"},
    {"Bus error", "failures"},
    {"Illegal instruction", "failures"},
    // a logger's FATAL line (glog, absl, c10; TensorFlow's), after which it aborts the process
    {"F1201 10:00:00.123456  1234 logging.cc:42] Check failed: x == y (1 vs. 2)", "failures"},
    {"F tensorflow/core/kernels/collective_nccl.cc:99] NCCL operation failed", "failures"},
  };

  @Test
  void everyLaunchersReportAfterTheWrapperTheNcclLinesHadIsAFailure() {
    List<UnaryOperator<String>> wrappers = List.of(l -> "trainer-worker-0 pytorch " + l, l -> "trainer-1  | " + l,
        l -> "logs/w-0.log:" + l, l -> "node-1: " + l,
        // stern's and compose's --timestamps: a time after the Pod or service, changing line by line
        l -> "trainer-worker-0 pytorch " + String.format("2026-12-01T10:00:00.%09dZ ", Math.floorMod(l.hashCode(), 1000000000)) + l,
        l -> "trainer-1  | 2026-12-01T10:00:0" + Math.floorMod(l.hashCode(), 10) + ".123456789Z " + l);
    for (UnaryOperator<String> wrap : wrappers) {
      for (String[] report : REPORTS) {
        String line = wrap.apply(report[0]);
        // (the evidence is the line without a trailing " ***", as Envelope trims it)
        assertThat(Logs.parse(log(l -> l, null, report[0])).evidenceFor(report[1])).extracting(Evidence::text)
            .as("bare: " + report[0]).anyMatch(t -> report[0].startsWith(t));
        assertThat(Logs.parse(log(wrap, null, line)).evidenceFor(report[1])).extracting(Evidence::text)
            .as(line).anyMatch(t -> line.startsWith(t) && t.length() > line.length() - report[0].length());
        // the same report mid-text, or behind a wrapper the NCCL lines did not have: no failure
        // (srun's "Exited with exit code" is a crash marker anywhere in a line, CrashMarkers)
        if (!report[0].endsWith("exit code 1")) {
          assertThat(Logs.parse(log(wrap, null, wrap.apply("INFO: " + report[0]))).evidenceFor("failures"))
              .as("mid-text: " + line).isEmpty();
          assertThat(Logs.parse(log(l -> l, null, line)).evidenceFor("failures")).as("no such wrapper: " + line).isEmpty();
        }
      }
    }
  }

  @Test
  void knownWrappersAfterTheUnknownOneAreNotPartOfIt() {
    // an MPIJob's ranks through stern: the launcher's tag and torchrun's after the Pod, on NCCL's
    // lines; the shell's "Killed" has neither, a rank's report has both
    UnaryOperator<String> ranks = l -> "trainer-worker-0 pytorch [1,0]<stdout>:[default0]:" + l;
    assertThat(killed(Logs.parse(log(ranks, null, "trainer-worker-0 pytorch Killed"))))
        .containsExactly("trainer-worker-0 pytorch Killed");
    assertThat(killed(Logs.parse(log(ranks, null, "trainer-worker-0 pytorch [1,0]<stdout>:srun: error: n-1: task 0: Killed"))))
        .containsExactly("trainer-worker-0 pytorch [1,0]<stdout>:srun: error: n-1: task 0: Killed");
    // stern --timestamps: its time (a known wrapper) after the Pod, on every line
    UnaryOperator<String> timed = l -> "trainer-worker-0 pytorch 2026-12-01T10:00:00.123456789Z " + l;
    assertThat(killed(Logs.parse(log(timed, null, "trainer-worker-0 pytorch 2026-12-01T10:00:01.5Z Killed"))))
        .containsExactly("trainer-worker-0 pytorch 2026-12-01T10:00:01.5Z Killed");
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
    assertThat(killed(Logs.parse(log(stern, null, texts + "trainer-worker-0 pytorch Killed")))).isEmpty();
    String fewer = texts.substring(0, texts.indexOf("session ac"));
    assertThat(killed(Logs.parse(log(stern, null, fewer + fewer + "trainer-worker-0 pytorch Killed")))).hasSize(1);
    // (those before the first NCCL line are kept apart: they fill their own room)
    assertThat(killed(Logs.parse(log(stern, texts.toString(), "trainer-worker-0 pytorch Killed")))).hasSize(1);
  }

  private static final String TRACEBACK = "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
      + "    main()\nValueError: bad config";

  private static String traceback(UnaryOperator<String> wrap) {
    return TRACEBACK.lines().map(wrap).collect(java.util.stream.Collectors.joining("\n"));
  }

  /**
   * A Python traceback behind a wrapper no table knows: its first line is the doubt's evidence
   * (what follows it is read relative to the wrapper); not a failure.
   */
  @Test
  void aTracebackAfterTheWrapperTheNcclLinesHadIsADoubt() {
    List<UnaryOperator<String>> wrappers = List.of(l -> "trainer-worker-0 pytorch " + l, l -> "trainer-1  | " + l,
        l -> "logs/w-0.log:" + l, l -> "node-1: " + l,
        l -> "trainer-worker-0 pytorch 2026-12-01T10:00:0" + Math.floorMod(l.hashCode(), 10) + ".5Z " + l);
    for (UnaryOperator<String> wrap : wrappers) {
      String header = wrap.apply("Traceback (most recent call last):");
      LogFacts f = Logs.parse(log(wrap, null, traceback(wrap)));
      assertThat(f.evidenceFor("pythonException")).extracting(Evidence::text).as(header).containsExactly(header);
      assertThat(f.evidenceFor("failures")).as(header).isEmpty();
      // mid-text, or behind a wrapper the NCCL lines did not have: nothing
      assertThat(Logs.parse(log(wrap, null, wrap.apply("INFO: see Traceback (most recent call last):")))
          .evidenceFor("pythonException")).as("mid-text: " + header).isEmpty();
      assertThat(Logs.parse(log(l -> l, null, traceback(wrap))).evidenceFor("pythonException"))
          .as("no such wrapper: " + header).isEmpty();
    }
  }

  @Test
  void partsAndChunksAgreeWithOnePass() throws Exception {
    assertSameAcrossCuts(log(l -> "trainer-worker-0 pytorch " + l, "trainer-worker-1 pytorch Terminated",
        "trainer-worker-1 pytorch Killed"), 2);
    // a log whose NCCL lines lose and regain such a wrapper: a report is looked for after a wrapped
    // NCCL line or before any, not after a bare one, wherever the parts and chunks begin
    String stern = "trainer-worker-0 pytorch ";
    String shm = "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).";
    String mixed = log(l -> stern + l, stern + "srun: error: n-1: task 0: Killed",
            traceback(l -> stern + l) + "\n" + stern + "command terminated with exit code 1")
        + log(l -> l.replace("trainer-worker-", "bare-worker-"), null, stern + shm + " 2\n" + traceback(l -> stern + l))
        + log(l -> stern + l.replace("trainer-worker-", "late-worker-"), traceback(l -> stern + l), stern + shm + " 3");
    LogFacts one = assertSameAcrossCuts(mixed, 3);
    assertThat(killed(one)).containsExactly(stern + "srun: error: n-1: task 0: Killed");
    assertThat(one.evidenceFor("shmExhausted")).extracting(Evidence::text).containsExactly(stern + shm + " 3");
    // the tracebacks after the bare NCCL lines are not looked for (as the reports there)
    assertThat(one.evidenceFor("pythonException")).hasSize(1);
  }

  @Test
  void eachInputStartsAfresh() throws Exception {
    // a bare Pod's log, then a stern'd one whose report comes before its first NCCL line: the
    // first input's last NCCL line (no wrapper) says nothing of the second's lines
    String stern = "trainer-worker-0 pytorch ";
    Path bare = Files.writeString(dir.resolve("a.log"), log(l -> l.replace("trainer-worker-", "bare-worker-"), null, "done"));
    Path wrapped = Files.writeString(dir.resolve("b.log"),
        log(l -> stern + l, stern + "srun: error: n-1: task 0: Killed", stern + "done"));
    for (int threads : new int[] {1, 2, 3}) {
      LogFacts f = new NcclLogSource(new ByteArrayInputStream(new byte[0]), threads, 1)
          .read(List.of(bare.toString(), wrapped.toString()), Path.of("."));
      assertThat(killed(f)).as(threads + " threads").containsExactly(stern + "srun: error: n-1: task 0: Killed");
    }
  }

  /** The facts of one pass over the text, which has that many failures; parts and chunks agree. */
  private LogFacts assertSameAcrossCuts(String text, int failures) throws Exception {
    Path file = Files.writeString(dir.resolve("stern.log"), text);
    LogFacts one = Logs.parseFile(file, 1, Logs.DEFAULT_MAX_LINE, Long.MAX_VALUE);
    assertThat(one.evidenceFor("failures")).hasSize(failures);
    for (int threads : new int[] {2, 3, 8}) {
      ParallelChunksTest.assertSameFacts(Logs.parseFile(file, threads, Logs.DEFAULT_MAX_LINE, 1), one, threads + " threads");
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    LogFacts stream = new NcclLogSource(new ByteArrayInputStream(bytes), 1, 300, 1).read(List.of("-"), Path.of("."));
    assertThat(stream.evidenceFor("failures")).hasSize(failures);
    for (int threads : new int[] {2, 3}) {
      ParallelChunksTest.assertSameFacts(
          new NcclLogSource(new ByteArrayInputStream(bytes), threads, 300, 1).read(List.of("-"), Path.of(".")), stream,
          threads + " threads, chunks");
    }
    return one;
  }
}
