package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NodeFacts;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** How FactsBuilder sums the processes of a log into job and node facts. */
class JobFactsAggregationTest {
  private static LogFacts parse(List<String> lines) throws LogInputException {
    byte[] b = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    return new NcclLogSource(new ByteArrayInputStream(b), 1).read(List.of("-"), Path.of("."));
  }

  private static LogFacts parse(String... lines) throws LogInputException {
    return parse(List.of(lines));
  }

  private static NodeFacts node(LogFacts f, String host) {
    return f.nodeDetails().stream().filter(n -> host.equals(n.host())).findFirst().orElseThrow();
  }

  @Test
  void aGluedRecordJoinsTheProcessWhoseHostItsNameEndsWith() throws Exception {
    // the "nvm" of hostA's "nvmlDev" glued in front of hostB's record: rank 1 is hostB's, not hostA's
    LogFacts f = parse(
        "hostA:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
        "hostB:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>",
        "hostA:100:100 [0] NCCL INFO comm 0x7f00 rank 0 nranks 2 cudaDev 0 nvmhostB:200:200 [0] NCCL INFO "
            + "comm 0x7f01 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1 - Init START");
    assertThat(f.nodeDetails()).extracting(NodeFacts::host).containsExactly("hostA", "hostB");
    assertThat(node(f, "hostA").ranks()).containsExactly(0);
    assertThat(node(f, "hostB").ranks()).containsExactly(1);
    // both comm records are cited, the glued one too
    assertThat(f.evidenceFor("comm")).hasSize(2);
  }

  @Test
  void ringsWithoutGdrOnAnyProcessMeanNoGdr() throws Exception {
    LogFacts f = parse(
        "hostA:100:100 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 0",
        "hostB:200:200 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1");
    assertThat(f.ringsGdr()).isZero();
  }

  @Test
  void theOobInterfaceOfTheFirstProcessWinsATie() throws Exception {
    LogFacts f = parse(
        "hostA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:192.168.10.1<0>",
        "hostB:200:200 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth1:10.0.0.2<0>");
    assertThat(f.oob().name()).isEqualTo("ib0");
    assertThat(f.oobInterfaces()).containsExactly("ib0", "eth1");
  }

  @Test
  void aVersionWithItsCudaSuffixStandsForTheSameVersionWithout() throws Exception {
    LogFacts f = parse(
        "hostA:100:100 [0] NCCL INFO NCCL version 2.18.3+cuda12.2",
        "hostB:200:200 [0] NCCL INFO NCCL version 2.18.3",
        "hostC:300:300 [0] NCCL INFO NCCL version 2.17.1");
    assertThat(f.ncclVersions()).containsExactly("2.17.1", "2.18.3+cuda12.2");
  }

  @Test
  void atMost32SocketInterfacesAreListed() throws Exception {
    String ifaces = String.join(" ",
        IntStream.range(0, 33).mapToObj(i -> "[" + i + "]eth" + i + ":10.0." + i + ".1<0>").toList());
    LogFacts f = parse("hostA:100:100 [0] NCCL INFO NET/Socket : Using " + ifaces);
    assertThat(f.socketInterfaces()).hasSize(32);
    assertThat(f.socketInterfaces().get(31).name()).isEqualTo("eth31");
  }

  @Test
  void aNodeListsAtMost64Ranks() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int r = 0; r < 65; r++) {
      lines.add("hostA:" + (1000 + r) + ":" + (1000 + r) + " [0] NCCL INFO comm 0x7f" + r + " rank " + r
          + " nranks 65 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1 - Init START");
    }
    assertThat(node(parse(lines), "hostA").ranks()).hasSize(64);
  }

  @Test
  void aProcessDrivingTwoGpusShowsBothRanksOnItsNode() throws Exception {
    // one process, two communicators ranks 0 and 1 (single-process multi-GPU, e.g. nccl-tests -g 2)
    LogFacts f = parse(
        "hostA:100:100 [0] NCCL INFO comm 0x7f00 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1 - Init START",
        "hostA:100:100 [1] NCCL INFO comm 0x7f01 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 1c000 commId 0x1 - Init START");
    assertThat(node(f, "hostA").ranks()).containsExactly(0, 1);
  }

  @Test
  void aSmallLogLeavesNothingOut() throws Exception {
    LogFacts f = parse(
        "hostA:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
        "hostB:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>");
    assertThat(f.leftOut()).isNull();
  }

  @Test
  void aCommLineClaimingNoRanksDoesNotMakeAnEmptyJob() throws Exception {
    // NCCL never prints 0 here; a damaged line that does must not turn one GPU process into none:
    // the processes and the cudaDev of the prefix are counted instead
    LogFacts f = parse(
        "hostA:100:100 [0] NCCL INFO comm 0x7f00 rank 0 nRanks 0 nNodes 1 localRanks 0 localRank 0 MNNVL 0");
    assertThat(f.ranks()).isEqualTo(1);
    assertThat(f.localGpus()).isEqualTo(1);
    assertThat(node(f, "hostA").gpus()).isEqualTo(1);
  }
}
