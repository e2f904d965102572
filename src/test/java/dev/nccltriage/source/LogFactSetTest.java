package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactValue;
import dev.nccltriage.facts.LogFactSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The named facts a job's log produces, and the lines each one cites: what the rules read and
 * what a report shows as the reason.
 */
class LogFactSetTest {
  private static final String H = "gpu-a:11:11 [0] NCCL INFO ";
  private static final String COMM = H + "comm 0x55d1c8e0a2b0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0";

  private static FactSet facts(Integer expectHcas, String... lines) {
    return LogFactSet.from(parse(String.join("\n", lines) + "\n"), expectHcas);
  }

  private static FactSet facts(String... lines) {
    return facts(null, lines);
  }

  private static Optional<Object> value(FactSet s, String name) {
    return s.get(name).map(FactValue::value);
  }

  private static List<String> cited(FactSet s, String name) {
    return s.get(name).map(FactValue::evidence).orElse(List.of()).stream().map(Evidence::text).toList();
  }

  @Test
  void aJobOverSocketsIsNotMixedAndOneWithoutATransportLineHasNoMixedFact() {
    assertThat(value(facts(H + "Using network Socket"), "net.mixed")).contains(false);
    assertThat(value(facts(COMM), "net.mixed")).isEmpty();
  }

  @Test
  void netChannelsShowTheJobUsesTheNetworkAndAreCited() {
    String ch = H + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA";
    FactSet s = facts(COMM, H + "Using network IB", ch);
    assertThat(value(s, "net.usesNetwork")).contains(true);
    assertThat(cited(s, "net.usesNetwork")).anyMatch(t -> t.contains("via NET/IB/0/GDRDMA"));
  }

  @Test
  void withoutNetChannelsTheNodeCountDecidesAndItsCommLineIsCited() {
    FactSet s = facts(H + "comm 0x55d1c8e0a2b0 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0");
    assertThat(value(s, "net.usesNetwork")).contains(false);
    assertThat(cited(s, "net.usesNetwork")).anyMatch(t -> t.contains("nNodes 1"));
  }

  @Test
  void ibNamesItsOutOfBandInterfaceOnItsUsingLine() {
    FactSet s = facts(H + "Using network IB", H + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:192.168.10.1<0>");
    assertThat(value(s, "net.oobInterface")).contains("ib0");
    assertThat(value(s, "net.oobAddress")).contains("192.168.10.1");
  }

  @Test
  void withoutAnOobNameIbUsesTheBootstrapInterface() {
    FactSet s = facts(H + "Using network IB", H + "Bootstrap : Using eth0:10.0.0.1<0>");
    assertThat(value(s, "net.oobInterface")).contains("eth0");
    assertThat(cited(s, "net.oobInterface")).anyMatch(t -> t.contains("Bootstrap : Using eth0"));
  }

  @Test
  void aSocketJobHasNoOutOfBandInterface() {
    FactSet s = facts(H + "Using network Socket", H + "Bootstrap : Using eth0:10.0.0.1<0>",
        H + "NCCL_SOCKET_IFNAME set by environment to eth0");
    assertThat(value(s, "net.oobInterface")).isEmpty();
    assertThat(value(s, "net.bootstrapInterface")).contains("eth0");
  }

  @Test
  void withoutBootstrapLineIbTakesTheFirstInterfaceNcclSocketIfnameNames() {
    FactSet s = facts(H + "Using network IB", H + "NCCL_SOCKET_IFNAME set by environment to =eth1,eth2");
    assertThat(value(s, "net.oobInterface")).contains("eth1");
    assertThat(cited(s, "net.oobInterface")).anyMatch(t -> t.contains("NCCL_SOCKET_IFNAME"));
  }

  @Test
  void anExcludingOrEmptyNcclSocketIfnameNamesNoOobInterface() {
    assertThat(value(facts(H + "Using network IB", H + "NCCL_SOCKET_IFNAME set by environment to ^docker,lo"),
        "net.oobInterface")).isEmpty();
    assertThat(value(facts(H + "Using network IB", H + "NCCL_SOCKET_IFNAME set by environment to ="),
        "net.oobInterface")).isEmpty();
  }

  @Test
  void hcaFactsNameEveryPortAndTheDeficitAgainstTheExpectedCount() {
    FactSet s = facts(8, COMM, H + "Using network IB",
        H + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:192.168.10.1<0>");
    assertThat(value(s, "ib.hcaNames")).contains(List.of("mlx5_0", "mlx5_1"));
    assertThat(value(s, "ib.hcaDeficit")).contains(6L);
    assertThat(value(s, "ib.hcaPerGpu")).contains(0.25);
    assertThat(value(s, "ib.mixedLinkLayers")).contains(false);
  }

  @Test
  void ibAndRoceOnOneJobAreMixedLinkLayers() {
    FactSet s = facts(H + "Using network IB", H + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE ; OOB ib0:192.168.10.1<0>");
    assertThat(value(s, "ib.mixedLinkLayers")).contains(true);
  }

  @Test
  void receiveChannelsAllOnGdrdmaCiteTheGdrdmaLines() {
    FactSet s = facts(H + "Using network IB",
        H + "Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA",
        H + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA");
    assertThat(value(s, "gdr.receiveChannels")).contains("all");
    assertThat(cited(s, "gdr.channels")).isNotEmpty().allMatch(t -> t.contains("GDRDMA"));
  }

  @Test
  void receiveChannelsWithoutGdrdmaAreNoneAndCiteThoseLines() {
    FactSet s = facts(H + "Using network IB",
        H + "Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0",
        H + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA");
    assertThat(value(s, "gdr.receiveChannels")).contains("none");
    assertThat(cited(s, "gdr.channels")).isNotEmpty().noneMatch(t -> t.contains("GDRDMA"));
  }

  @Test
  void someReceiveChannelsOnGdrdma() {
    FactSet s = facts(H + "Using network IB",
        H + "Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0",
        H + "Channel 01/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA");
    assertThat(value(s, "gdr.receiveChannels")).contains("some");
  }

  @Test
  void onlySendChannelsSayNothingOfReceiveChannels() {
    FactSet s = facts(H + "Using network IB", H + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA");
    assertThat(value(s, "gdr.receiveChannels")).isEmpty();
  }

  @Test
  void dmabufAvailableIsKnownOnlyWhenLogged() {
    assertThat(value(facts(H + "DMA-BUF is available on GPU device 0"), "gdr.dmabufAvailable")).contains(true);
    assertThat(value(facts(COMM), "gdr.dmabufAvailable")).isEmpty();
  }
}
