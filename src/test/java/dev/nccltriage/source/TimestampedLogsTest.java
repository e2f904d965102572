package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A timestamp before every line (kubectl --timestamps, a container runtime's log file) changes no
 * fact the rules read: the lines of a thread are found again after it (the prefix cache keys them
 * from where the record starts), and each line is still its own.
 */
class TimestampedLogsTest {
  static Stream<Path> logs() throws Exception {
    return Logs.allLogs().stream();
  }

  private static String stamped(String log, String after) {
    StringBuilder b = new StringBuilder();
    int n = 0;
    for (String line : log.split("\n", -1)) {
      n++;
      b.append(String.format("2026-05-01T10:%02d:%02d.%09dZ ", n / 3600 % 60, n / 60 % 60, n)).append(after)
          .append(line).append('\n');
    }
    return b.toString();
  }

  /** What the rules read of a log, without its evidence (whose cited lines carry the timestamps). */
  private static List<Object> facts(LogFacts f) {
    return List.of(String.valueOf(f.transport()), String.valueOf(f.rdma()), String.valueOf(f.ranks()), f.processes(),
        String.valueOf(f.nodes()), String.valueOf(f.netChannels()), String.valueOf(f.hcas()), String.valueOf(f.gdr()),
        f.errors().stream().map(e -> e.kind() + "/" + e.detail() + "/" + e.count() + "/" + e.hosts()).toList(),
        f.nodeDetails().stream().map(n -> n.host() + "/" + n.transport() + "/" + n.netChannels()).toList(),
        f.ncclLines(), String.valueOf(f.bootstrap()), String.valueOf(f.socketInterfaces()), f.env());
  }

  @ParameterizedTest
  @MethodSource("logs")
  void aTimestampBeforeEveryLineChangesNoFact(Path log) throws Exception {
    String text = Files.readString(log);
    List<Object> plain = facts(Logs.parse(text));

    assertThat(facts(Logs.parse(stamped(text, "")))).as("kubectl --timestamps").isEqualTo(plain);
    assertThat(facts(Logs.parse(stamped(text, "stdout F ")))).as("CRI log file").isEqualTo(plain);
  }
}
