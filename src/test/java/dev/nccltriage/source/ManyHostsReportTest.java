package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A job of more nodes than a report lists says so, in text and JSON, with the exact count: before,
 * the nodes past the 64 listed were dropped without a word.
 */
class ManyHostsReportTest {
  /** 200 nodes on IB, one of them (host-00150) on sockets. */
  private static byte[] log() {
    StringBuilder b = new StringBuilder();
    for (int h = 0; h < 200; h++) {
      String net = h == 150 ? "Socket" : "IB";
      b.append(String.format("host-%05d:7:7 [0] NCCL INFO Using network %s%n", h, net));
      b.append(String.format("host-%05d:7:7 [0] NCCL INFO Channel 00/0 : %d[0] -> %d[0] [send] via NET/%s%n",
          h, h, (h + 1) % 200, h == 150 ? "Socket/0" : "IB/0/GDRDMA"));
    }
    return b.toString().getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void textSaysHowManyHostsAndHowManyAreListed() {
    Logs.CliResult r = Logs.cli(Path.of("."), log(), "log", "-");
    Logs.assertCleanExit(r, "200 hosts");
    assertThat(r.out()).contains("left out: 200 hosts; the first 64 are listed by node.");
    assertThat(r.out()).contains("host-00150");
  }

  @Test
  void jsonSaysHowManyHostsAndHowManyAreListed() throws Exception {
    Logs.CliResult r = Logs.cli(Path.of("."), log(), "log", "-o", "json", "-");
    Logs.assertCleanExit(r, "200 hosts");
    JsonNode log = new ObjectMapper().readTree(r.out()).get("log");
    assertThat(log.get("byNode")).hasSize(64);
    JsonNode left = log.get("leftOut");
    assertThat(left.get("hosts").asLong()).isEqualTo(200);
    assertThat(left.get("nodesListed").asInt()).isEqualTo(64);
    assertThat(left.get("hostsSampled").asBoolean()).isFalse();
    assertThat(left.get("differsFound").asInt()).isEqualTo(left.get("differsListed").asInt()).isPositive();
  }
}
