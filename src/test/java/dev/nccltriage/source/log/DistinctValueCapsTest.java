package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.GdrDecision;
import dev.nccltriage.facts.LogFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every job-wide collection keyed by a value the log prints is capped: a log of a thousand distinct
 * values of a family keeps the first few, counts the lines of the rest in leftOut.linesNotKept,
 * and gives the same facts whether it is read by one thread or in parts.
 */
class DistinctValueCapsTest {
  private static final String P = "node-001:1234:1235 [0] NCCL INFO ";
  private static final String W = "node-001:1234:1235 [0] transport/net_ib.cc:1520 NCCL WARN ";
  private static final int N = 1000;

  @TempDir Path dir;

  record Family(String collection, IntFunction<String> line, ToIntFunction<LogFacts> kept) {
    @Override
    public String toString() {
      return collection;
    }
  }

  static Stream<Arguments> families() {
    return Stream.of(
        new Family("ncclVersions", i -> P + "NCCL version 2." + i / 1000 + "." + i % 1000, f -> f.ncclVersions().size()),
        new Family("ncclVersions", i -> "NCCL version 2." + i / 1000 + "." + i % 1000 + "+cuda12.2",
            f -> f.ncclVersions().size()),
        new Family("frameworkVersions", i -> "NCCL version: 2." + i / 1000 + "." + i % 1000, f -> 1),
        new Family("env", i -> P + "NCCL_X" + i + " set by environment to v", f -> f.env().size()),
        new Family("env", i -> P + "NCCL_SOCKET_IFNAME set by environment to eth" + i,
            f -> f.envConflicts().getOrDefault("NCCL_SOCKET_IFNAME", List.of()).size()),
        new Family("netPlugins", i -> P + "NET/Plugin: Loaded net plugin plug" + i + " (v8)", f -> f.netPlugins().size()),
        new Family("ofiProviders", i -> P + "NET/OFI Selected Provider is prov" + i + " (found 1 nics)",
            f -> f.signals().ofiProviders().size()),
        new Family("gdrDecisions", i -> P + "GPU Direct RDMA Disabled for GPU 0 / HCA 0 (distance " + (i + 10) + " > " + i + ")",
            f -> f.gdrDecisions().size()),
        new Family("errors", i -> W + "NET/IB : Got completion from peer 10.0.0.2<1234> with status=" + i
            + " opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2", f -> f.errors().size()),
        new Family("errors", i -> W + "NET/IB : Unable to open device mlx5_" + i, f -> f.errors().size()))
        .map(Arguments::of);
  }

  private List<String> lines(Family f) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      out.add(f.line().apply(i));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("families")
  void distinctValuesPastTheCapAreCountedNotKept(Family f) throws Exception {
    LogFacts one = LogLines.parse(lines(f));
    assertThat(f.kept().applyAsInt(one)).as("values kept").isBetween(1, ValueCaps.ENV_NAMES);
    assertThat(one.leftOut()).as("leftOut").isNotNull();
    long notKept = one.leftOut().linesNotKept().getOrDefault(f.collection(), 0L);
    assertThat(notKept).as("lines not kept").isGreaterThan(0);
    if (!f.collection().equals("frameworkVersions")) {
      // every line is either an entry's (its count) or not kept
      assertThat(f.kept().applyAsInt(one) + notKept).as("kept + not kept").isLessThanOrEqualTo(N);
    }
    assertThat(one.leftOut().summary()).contains("not kept").contains(f.collection());

    // in parts: the first values are in the first part, so the same ones are kept
    Path file = Files.write(dir.resolve("distinct.log"), lines(f));
    LogFacts parts = new NcclLogSource(java.io.InputStream.nullInputStream(), 3, 4096, 8192)
        .read(List.of(file.getFileName().toString()), dir);
    assertThat(parts.inputs().get(0).lines()).isEqualTo(N);
    assertThat(parts.ncclVersions()).isEqualTo(one.ncclVersions());
    assertThat(parts.env()).isEqualTo(one.env());
    assertThat(parts.envConflicts()).isEqualTo(one.envConflicts());
    assertThat(parts.netPlugins()).isEqualTo(one.netPlugins());
    assertThat(parts.gdrDecisions().stream().map(GdrDecision::distance).toList())
        .isEqualTo(one.gdrDecisions().stream().map(GdrDecision::distance).toList());
    assertThat(parts.errors().stream().map(ErrorSignature::detail).toList())
        .isEqualTo(one.errors().stream().map(ErrorSignature::detail).toList());
    assertThat(parts.leftOut().linesNotKept()).isEqualTo(one.leftOut().linesNotKept());
  }

  /**
   * Values that come back: a log of many jobs' logs, each of its own version (or setting, plugin,
   * error detail), repeated. A part starts anywhere in the cycle, so the values the job keeps come
   * past a part's own first few; their lines still count in full, wherever the log is cut.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("families")
  void valuesThatComeBackCountTheSameInParts(Family f) throws Exception {
    Path file = dir.resolve("cycles.log");
    List<String> log = new ArrayList<>();
    LogFacts one = null;
    // three times a cap's values (setting names have a cap of their own)
    for (int n : new int[] {3 * ValueCaps.VALUES, 3 * ValueCaps.ENV_NAMES}) {
      log.clear();
      for (int i = 0; i < 12; i++) {
        log.addAll(lines(f).subList(0, n));
      }
      Files.write(file, log);
      one = new NcclLogSource(java.io.InputStream.nullInputStream(), 1).read(List.of(file.getFileName().toString()), dir);
      if (one.leftOut() != null) {
        break;
      }
    }
    assertThat(one.leftOut().linesNotKept().get(f.collection())).as("lines not kept").isPositive();
    for (long part : new long[] {997, 4096, 20_000}) {
      LogFacts parts = new NcclLogSource(java.io.InputStream.nullInputStream(), 3, 4096, part)
          .read(List.of(file.getFileName().toString()), dir);
      assertThat(parts).as("%s, parts of %d bytes", f, part).usingRecursiveComparison().isEqualTo(one);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("families")
  void aLogUnderTheCapsLeavesNothingOut(Family f) {
    LogFacts few = LogLines.parse(lines(f).subList(0, 3));
    assertThat(few.leftOut()).isNull();
  }

  /** A cap per error kind and per GPUDirect RDMA decision: a kind seen after a flood of another still gets an entry. */
  @org.junit.jupiter.api.Test
  void aNewKindAfterAFloodOfAnotherIsKept() {
    Function<Integer, String> completion = i -> W + "NET/IB : Got completion from peer 10.0.0.2<1234> with status=" + i
        + " opcode=0 len=0 vendor err 129 (Recv)";
    List<String> log = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      log.add(completion.apply(i));
      log.add(P + "GPU Direct RDMA Disabled for GPU 0 / HCA 0 (distance " + (i + 10) + " > " + i + ")");
    }
    log.add(W + "NET/IB : Unable to open device mlx5_0");
    log.add(P + "GPU Direct RDMA Enabled for GPU 1 / HCA 1 (distance 4 <= 5), read 0 mode Default");
    LogFacts f = LogLines.parse(log);
    assertThat(f.errors()).extracting(ErrorSignature::kind).contains("ib_device_unusable");
    assertThat(f.gdrDecisions()).anySatisfy(g -> assertThat(g.enabled()).isTrue());
    assertThat(f.leftOut().linesNotKept()).containsKeys("errors", "gdrDecisions");
  }

  /** A process's HCAs listed one line each (2.3): a few dozen at most, in index order, whatever the log. */
  @org.junit.jupiter.api.Test
  void perLineHcasAreCappedAndKeptInIndexOrder() {
    List<String> log = new ArrayList<>();
    for (int i = N; i > 0; i--) {
      log.add(P + "NET/IB: [" + i + "] mlx5_" + i + ":1/IB");
      log.add(P + "NET/IB: [" + i + "] mlx5_" + i + ":1/IB"); // a repeat adds nothing
    }
    LogFacts f = LogLines.parse(log);
    assertThat(f.hcas()).hasSize(ProcessState.MAX_HCAS);
    assertThat(f.hcas()).extracting(dev.nccltriage.facts.Hca::index).isSorted();
    assertThat(f.hcas().get(0).index()).isEqualTo(N - ProcessState.MAX_HCAS + 1);
  }

  /** The job's HCA and OOB interface lists: a few dozen, whatever the number of hosts printing distinct ones. */
  @org.junit.jupiter.api.Test
  void jobWideHcaAndOobListsAreCapped() {
    List<String> log = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      log.add(String.format("host%05d:1234:1235 [0] NCCL INFO NET/IB : Using [0]mlx5_%d:1/IB [RO]; OOB eth%d:10.0.%d.%d<0>",
          i, i, i, i / 250, i % 250 + 1));
    }
    LogFacts f = LogLines.parse(log);
    assertThat(f.hcas()).hasSize(ProcessState.MAX_HCAS);
    assertThat(f.hcaPorts()).as("ports are counted, not listed").isEqualTo(N);
    assertThat(f.oobInterfaces()).hasSize(ProcessState.MAX_SOCKET_IFACES);
    assertThat(f.linkLayers()).containsExactly("IB");
  }

  /**
   * The per-GPU GPUDirect RDMA decisions of a large job (hosts x GPU/NIC pairs): the job keeps the
   * first keys; a "disabled" that comes late for a key it keeps counts, in whichever part it falls,
   * even one that saw hundreds of other keys first.
   */
  @org.junit.jupiter.api.Test
  void aLateDisabledDecisionCountsInAnyPart() throws Exception {
    List<String> log = new ArrayList<>();
    for (int h = 0; h < 1200; h++) {
      log.add(String.format("node-%04d:1234:1235 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 0 / HCA 0 (distance 4 <= 5), read 0 mode Default", h));
    }
    // another process on a host whose key the job keeps: disabled there
    log.add("node-0005:4321:4322 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 0 / HCA 0 (distance 6 > 5)");
    Path file = Files.write(dir.resolve("pairs.log"), log);
    LogFacts one = new NcclLogSource(java.io.InputStream.nullInputStream(), 1).read(List.of(file.getFileName().toString()), dir);
    assertThat(one.signals().gdrLogged()).isEqualTo("some");
    // two parts: the second sees 600 other hosts' keys before the disabled one
    LogFacts parts = new NcclLogSource(java.io.InputStream.nullInputStream(), 2, 4096, Files.size(file) / 2 - 1)
        .read(List.of(file.getFileName().toString()), dir);
    assertThat(parts).usingRecursiveComparison().isEqualTo(one);
  }
}
