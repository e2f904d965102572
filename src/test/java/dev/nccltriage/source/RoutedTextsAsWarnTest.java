package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A family's text (once per process, its meaning held with the text) printed once as a WARN line as
 * well, before or after its INFO lines (a hostile or garbled log): the WARN line is read by its
 * family as an INFO line of the text would be (and counted as a WARN), whichever line of the text
 * came first, i.e. whether the family or the error classifier first kept an answer with it.
 */
class RoutedTextsAsWarnTest {
  static Stream<String> texts() {
    return Stream.of(
        "NCCL version 2.21.5+cuda12.4",
        "Bootstrap : Using eth0:10.0.0.1<0>",
        "NET/Plugin: Loaded net plugin NCCL RDMA Plugin (v6)",
        "NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
        "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB eth0:10.0.0.1<0>",
        "NET/Socket : Using [0]eth0:10.0.0.1<0>",
        "NCCL_IB_GID_INDEX set by environment to 3.",
        "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
        "GPU Direct RDMA Enabled for GPU 0 / HCA 0 (distance 5 <= 5), read 1 mode Default",
        "NET/OFI Selected Provider is efa (found 4 nics)",
        "NET/IB : [0] mlx5_0:1/IB",
        "NET : Using interface eth0:10.0.0.1<0>");
  }

  private static String line(int host, String level, String text) {
    return "node-" + host + ":1" + host + ":1 [0] NCCL " + level + " " + text + "\n";
  }

  private static String infos(String text) {
    StringBuilder log = new StringBuilder();
    for (int h = 0; h < 3; h++) {
      log.append(line(h, "INFO", text)).append(line(h, "INFO", "NET/IB : No device found."));
    }
    return log.toString();
  }

  /** What the INFO lines of the texts above make of a log (not the evidence: a cited line says WARN). */
  private static List<Object> infoFacts(LogFacts f) {
    return List.of(f.ncclVersions(), String.valueOf(f.hcas()), String.valueOf(f.oob()), String.valueOf(f.bootstrap()),
        String.valueOf(f.socketInterfaces()), f.env(), String.valueOf(f.gdr()), 
        f.gdrDecisions().stream().map(d -> d.enabled() + "/" + d.reason() + "/" + d.distance() + "/" + d.count())
            .toList(),
        f.netPlugins(), f.relaxedOrdering(), f.processes(), String.valueOf(f.nodes()));
  }

  @ParameterizedTest
  @MethodSource("texts")
  void aWarnOfTheTextAfterItsInfoLinesIsReadAsItsInfoLineIs(String text) {
    String info = infos(text);
    LogFacts plain = Logs.parse(info + line(1, "INFO", text) + info);
    LogFacts warned = Logs.parse(info + line(1, "WARN", text) + info);
    assertThat(infoFacts(warned)).isEqualTo(infoFacts(plain));
    assertThat(warned.signals().warnings()).isEqualTo(plain.signals().warnings() + 1);
  }

  @ParameterizedTest
  @MethodSource("texts")
  void aWarnOfTheTextBeforeItsInfoLinesIsReadAsItsInfoLineIs(String text) {
    String info = infos(text);
    LogFacts plain = Logs.parse(line(1, "INFO", text) + info + info);
    LogFacts warned = Logs.parse(line(1, "WARN", text) + info + info);
    assertThat(infoFacts(warned)).isEqualTo(infoFacts(plain));
    assertThat(warned.signals().warnings()).isEqualTo(plain.signals().warnings() + 1);
  }
}
