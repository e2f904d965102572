package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 2.23+'s "Bootstrap timings total ..." line is not decoded (RareMessages.mayMatch declines it when
 * it holds no guard word): the facts must be what decoding it gives. That is had by spelling it
 * "Bootstrap Timings", which every test of the decoding path reads alike and which turns the
 * shortcut off. Tails that hold an error signature must be read as errors either way.
 */
class BootstrapTimingsTest {
  private static final String[] TAILS = {
    "", " Call to ibv_reg_mr failed with error Cannot allocate memory", " bootstrap.cc:%d -> 3",
    " Got completion from peer 10.0.0.2<4567> with error 12", " connect to 10.0.0.2<4567> failed : Connection refused",
    " remote process exited or there was a network error", " gid index failed", " No IP interface found.",
  };

  private static String log(boolean shortcut) {
    Random r = new Random(11);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      String text = String.format("Bootstrap %s total %.6f (create %.6f, send %.6f, recv %.6f, ring %.6f, delay %.6f)",
          shortcut ? "timings" : "Timings", r.nextDouble(), r.nextDouble(), r.nextDouble(), r.nextDouble(),
          r.nextDouble(), r.nextDouble()) + String.format(TAILS[r.nextInt(TAILS.length)], r.nextInt(900));
      int host = r.nextInt(4);
      b.append("node-").append(host).append(':').append(100 + host).append(':').append(100 + host).append(" [0] NCCL ")
          .append(r.nextInt(10) == 0 ? "WARN" : "INFO").append(' ').append(text).append('\n');
    }
    return b.toString();
  }

  private static List<Object> facts(LogFacts f) {
    return List.of(f.processes(), f.ncclLines(), f.signals().failed(), f.signals().warnings(),
        f.errors().stream().map(e -> e.kind() + "/" + e.detail() + "/" + e.status() + "/" + e.count() + "/" + e.hosts()).toList(),
        f.nodeDetails().stream().map(n -> n.host() + "/" + n.transport() + "/" + n.bootstrap()).toList(),
        String.valueOf(f.bootstrap()));
  }

  @Test
  void aTimingsLineMeansWhatDecodingItGives() {
    LogFacts fast = Logs.parse(log(true));
    assertThat(facts(fast)).isEqualTo(facts(Logs.parse(log(false))));
    assertThat(fast.errors()).as("the tails that are errors were read as such").hasSizeGreaterThan(3);
  }
}
