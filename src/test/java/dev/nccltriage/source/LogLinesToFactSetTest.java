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
 * The named facts a job's log produces, from its lines through the parser (the facts package's
 * LogFactSetTest builds the log facts directly), and the lines each one cites: what the rules read and
 * what a report shows as the reason.
 */
class LogLinesToFactSetTest {
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

  @Test
  void aLoadedNetPluginCitesTheLinesThatSayItLoaded() {
    String ofi = H + "NET/Plugin: Loaded net plugin Libfabric (v7)";
    String ext = H + "Successfully loaded external plugin libnccl-net.so";
    FactSet s = facts(COMM, ofi, ext);
    assertThat(value(s, "plugin.loaded")).contains(List.of("Libfabric", "libnccl-net.so"));
    assertThat(cited(s, "plugin.loaded")).containsExactly(ofi, ext);
    assertThat(cited(facts(COMM), "plugin.loaded")).isEmpty();
  }

  @Test
  void aVersionOutOfRangeIsSkippedAndTheJobsOtherVersionCounts() {
    FactSet s = facts("gpu-a:11:11 [0] NCCL INFO NCCL version 2.99999999999.0+cuda12.2",
        "gpu-b:12:12 [0] NCCL INFO NCCL version 2.19.3+cuda12.2", H + "Using network Socket");
    assertThat(value(s, "log.ncclVersion")).contains(new dev.nccltriage.facts.Version(2, 19, 3));
  }

  @Test
  void aCommCountedNodeCountCitesTheCommLinesOnlyNotTheTestsPreamble() {
    FactSet s = facts("#  Rank  0 Group  0 Pid  22811 on  gpu-a device  0 [0000:07:00] NVIDIA A100-SXM4-80GB",
        "#  Rank  8 Group  0 Pid  22818 on  gpu-b device  0 [0000:07:00] NVIDIA A100-SXM4-80GB", COMM);
    assertThat(value(s, "job.nodes")).contains(2L);
    assertThat(cited(s, "job.nodes")).isNotEmpty().allMatch(t -> t.contains("nNodes 2"));
  }

  @Test
  void nodesCountedFromHostnamesAloneCiteTheBootstrapLines() {
    FactSet s = facts("gpu-a:11:11 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
        "gpu-b:12:12 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>");
    assertThat(value(s, "job.singleNode")).contains(false);
    assertThat(cited(s, "job.singleNode")).hasSize(2).allMatch(t -> t.contains("Bootstrap : Using eth0"));
  }

  @Test
  void aJobOnLoopbackOnlyIsOneNodeAndCitesTheLoopbackLine() {
    FactSet s = facts(H + "Bootstrap : Using lo:127.0.0.1<0>");
    assertThat(value(s, "job.singleNode")).contains(true);
    assertThat(cited(s, "job.singleNode")).isNotEmpty().allMatch(t -> t.contains("lo:127.0.0.1"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void aProviderWithoutRdmaAnywhereInTheJobMeansNoRdma() {
    FactSet s = facts("ip-a:81:81 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)",
        "ip-b:82:82 [0] NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)");
    assertThat(value(s, "plugin.ofiProviders")).hasValueSatisfying(v -> assertThat((List<Object>) v).contains("efa", "tcp"));
    assertThat(value(s, "plugin.providerRdma")).contains(false);
  }

  @Test
  void onlyRdmaProvidersMeanRdma() {
    FactSet s = facts("ip-a:81:81 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)");
    assertThat(value(s, "plugin.providerRdma")).contains(true);
    assertThat(cited(s, "plugin.providerRdma")).anyMatch(t -> t.contains("Selected Provider is efa"));
  }

  @Test
  void anUnknownProviderLeavesRdmaUnknownAndNoProviderLineNamesNone() {
    assertThat(value(facts("ip-a:81:81 [0] NCCL INFO NET/OFI Selected Provider is foo (found 4 nics)"),
        "plugin.providerRdma")).isEmpty();
    FactSet none = facts(H + "Using network Socket");
    assertThat(value(none, "plugin.ofiProviders")).isEmpty();
    assertThat(value(none, "plugin.providerRdma")).isEmpty();
  }

  private static final String COMPLETION = "gpu-a:11:12 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4444> with status=12 opcode=0 len=0 vendor err 129";
  private static final String PLUGIN_LOAD = H + "NET/Plugin: Plugin load returned 2 : libnccl-net.so: "
      + "undefined symbol: ncclNetPlugin_v8 : when loading libnccl-net.so";

  @Test
  void aCompletionErrorCitesItsLineAndGivesItsStatus() {
    FactSet s = facts(PLUGIN_LOAD, H + "Using network IB", COMPLETION);
    assertThat(value(s, "error.completion_error")).contains(true);
    assertThat(cited(s, "error.completion_error")).containsExactly(COMPLETION);
    assertThat(value(s, "error.completionStatus")).contains(List.of("12"));
    assertThat(cited(s, "error.completionStatus")).containsExactly(COMPLETION);
  }

  @Test
  void errorsWithoutAStatusGiveNoCompletionStatus() {
    FactSet s = facts(PLUGIN_LOAD, H + "Using network Socket");
    assertThat(value(s, "error.net_plugin_load")).contains(true);
    assertThat(value(s, "error.completionStatus")).isEmpty();
  }

  @Test
  void theTransportCitesAtMostFourLinesOfNetworkAndChannels() {
    FactSet s = facts("gpu-a:11:11 [0] NCCL INFO Using network IB",
        "gpu-b:12:12 [0] NCCL INFO Using network IB",
        "gpu-c:13:13 [0] NCCL INFO Using network IB",
        "gpu-a:11:20 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA",
        "gpu-b:12:21 [0] NCCL INFO Channel 00/0 : 8[0] -> 16[0] [send] via NET/IB/0/GDRDMA",
        "gpu-c:13:22 [0] NCCL INFO Channel 00/0 : 16[0] -> 0[0] [send] via NET/IB/0/GDRDMA");
    assertThat(value(s, "net.transport")).contains("IB");
    assertThat(cited(s, "net.transport")).hasSize(4);
  }
}
