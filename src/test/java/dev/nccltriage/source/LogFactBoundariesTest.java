package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactValue;
import dev.nccltriage.facts.LogFactSet;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.Version;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the log's facts say at the edges rules depend on: a network plugin NCCL names but this
 * tool does not know leaves "RDMA?" unknown (not false, which would blame the plugin); a plugin
 * that exists but fails to load is an error, while one that is simply not installed is no
 * plugin; NCCL's version line is read with or without its "+cuda" suffix.
 */
class LogFactBoundariesTest {

  private static FactSet facts(String... lines) {
    return LogFactSet.from(parse(String.join("\n", lines) + "\n"), null);
  }

  private static Optional<Object> value(FactSet s, String name) {
    return s.get(name).map(FactValue::value);
  }

  @Test
  void anUnknownPluginLeavesRdmaUnknown() {
    FactSet s = facts("gpu-a:11:11 [0] NCCL INFO NET/Plugin: Loaded net plugin MyVendorNet (v8)",
        "gpu-a:11:11 [0] NCCL INFO Using network MyVendorNet");
    assertThat(value(s, "net.transport")).contains("MyVendorNet");
    assertThat(value(s, "net.rdma")).as("an unknown plugin's kind").isEmpty();
  }

  @Test
  void aKnownPluginDecidesRdma() {
    assertThat(value(facts("gpu-a:11:11 [0] NCCL INFO Using network IBext_v8"), "net.rdma")).contains(true);
    assertThat(value(facts("gpu-a:11:11 [0] NCCL INFO Using network Socket"), "net.rdma")).contains(false);
  }

  @Test
  void aPluginThatFailsToLoadIsAnError() {
    LogFacts f = parse("gpu-a:11:11 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: "
        + "undefined symbol: ncclNetPlugin_v8 : when loading libnccl-net.so\n"
        + "gpu-a:11:11 [0] NCCL INFO Using network Socket\n");
    assertThat(f.errors()).extracting(ErrorSignature::kind).contains("net_plugin_load");
    assertThat(value(LogFactSet.from(f, null), "error.net_plugin_load")).contains(true);
  }

  @Test
  void aPluginThatIsNotInstalledIsNoError() {
    LogFacts f = parse("gpu-a:11:11 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: "
        + "cannot open shared object file: No such file or directory : when loading libnccl-net.so\n"
        + "gpu-a:11:11 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation\n"
        + "gpu-a:11:11 [0] NCCL INFO Using network Socket\n");
    assertThat(f.errors()).extracting(ErrorSignature::kind).doesNotContain("net_plugin_load");
    assertThat(f.netPlugins()).isEmpty();
    assertThat(value(LogFactSet.from(f, null), "error.net_plugin_load")).isNotEqualTo(Optional.of(true));
  }

  @Test
  void aVersionLineWithoutCudaKeepsTheVersion() {
    FactSet s = facts("gpu-a:11:11 [0] NCCL INFO NCCL version 2.19.3",
        "gpu-a:11:11 [0] NCCL INFO Using network Socket");
    assertThat(value(s, "log.ncclVersion")).contains(new Version(2, 19, 3));
  }

  @Test
  void aVersionLineWithCudaGivesTheSameVersion() {
    FactSet s = facts("gpu-a:11:11 [0] NCCL INFO NCCL version 2.19.3+cuda12.2",
        "gpu-a:11:11 [0] NCCL INFO Using network Socket");
    assertThat(value(s, "log.ncclVersion")).contains(new Version(2, 19, 3));
  }

  @Test
  void theLowestVersionOfTheJobIsTheOneRulesSee() {
    FactSet s = facts("gpu-a:11:11 [0] NCCL INFO NCCL version 2.21.5",
        "gpu-b:22:22 [0] NCCL INFO NCCL version 2.9.9+cuda11.0");
    assertThat(value(s, "log.ncclVersion")).contains(new Version(2, 9, 9));
  }
}
