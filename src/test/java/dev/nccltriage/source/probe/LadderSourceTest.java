package dev.nccltriage.source.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.BuiltinRunner;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.CommandRunner;
import dev.nccltriage.host.HostRoot;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ladder's probes run together against one root: which commands a run costs (a plain-text form
 * only when its JSON form is unusable, and never to repeat a missing tool or a timeout), whose
 * environment it read, and that a hung command cannot keep the tool from exiting.
 */
class LadderSourceTest {
  private static final String IP_JSON = "[{\"ifindex\":1,\"ifname\":\"eth0\",\"flags\":[\"UP\"],\"operstate\":\"UP\","
      + "\"addr_info\":[{\"family\":\"inet\",\"local\":\"10.0.0.7\",\"prefixlen\":24}]}]";
  private static final String IP_TEXT = "1: eth0: <BROADCAST,UP,LOWER_UP> mtu 1500 state UP\n"
      + "    inet 10.0.0.7/24 scope global eth0\n";

  @TempDir Path dir;

  /** Answers from a table (anything else is missing), remembering what it ran and on which threads. */
  private static final class Runner implements CommandRunner {
    final Map<List<String>, CommandResult> answers = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<List<String>> ran = new ConcurrentLinkedQueue<>();
    final Map<List<String>, Boolean> daemon = new ConcurrentHashMap<>();

    Runner answer(List<String> argv, String status, String stdout) {
      answers.put(argv, new CommandResult(argv, status, status.equals("ok") ? 0 : 1, stdout, "", 1, 5000, false));
      return this;
    }

    @Override
    public CommandResult run(List<String> argv) {
      ran.add(argv);
      daemon.put(argv, Thread.currentThread().isDaemon());
      return answers.getOrDefault(argv, CommandResult.missing(argv));
    }

    long times(List<String> argv) {
      return ran.stream().filter(argv::equals).count();
    }
  }

  private PodFacts probe(Runner runner, Long pid) {
    return new LadderSource(new HostRoot(dir), runner, Map.of(), pid).probe();
  }

  @Test
  void aUsableJsonFormCostsNoTextForm() {
    Runner runner = new Runner().answer(LadderSource.IP_JSON, "ok", IP_JSON);
    PodFacts facts = probe(runner, null);

    assertThat(facts.interfaces().source()).isEqualTo("ip -j addr");
    assertThat(runner.times(LadderSource.IP)).isZero();
  }

  @Test
  void aMissingToolIsNotAskedAgainInTextForm() {
    Runner runner = new Runner();
    PodFacts facts = probe(runner, null);

    assertThat(facts.interfaces().source()).isEqualTo("java (ip missing)");
    assertThat(runner.times(LadderSource.IP)).isZero();
    assertThat(runner.times(LadderSource.RDMA_LINK)).isZero();
  }

  @Test
  void aRejectedJsonFormIsAnsweredByTheTextFormRunOnce() {
    Runner runner = new Runner().answer(LadderSource.IP_JSON, "failed", "").answer(LadderSource.IP, "ok", IP_TEXT);
    PodFacts facts = probe(runner, null);

    assertThat(facts.interfaces().source()).isEqualTo("ip addr");
    assertThat(facts.interfaces().interfaces()).extracting(PodFacts.Iface::name).containsExactly("eth0");
    assertThat(runner.times(LadderSource.IP)).isEqualTo(1);
  }

  @Test
  void theEnvironmentReadIsNamed() {
    assertThat(probe(new Runner(), null).envOf()).isEqualTo("this process");
    assertThat(probe(new Runner(), 4242L).envOf()).isEqualTo("pid 4242");
  }

  @Test
  void commandsRunOnDaemonThreadsSoAHungOneCannotKeepTheToolAlive() {
    Runner runner = new Runner();
    probe(runner, null);

    // the builtin interface listing is no external command: it runs in the caller's thread
    runner.daemon.remove(BuiltinRunner.INTERFACES);
    assertThat(runner.daemon).containsKeys(LadderSource.IBV_DEVINFO, LadderSource.TOPO, GidProbe.SHOW_GIDS);
    assertThat(runner.daemon.values()).containsOnly(true);
  }

  @Test
  void theEvidenceOfEveryProbeIsGathered() {
    PodFacts facts = probe(new Runner(), null);

    assertThat(facts.evidence().get("pod.uverbs"))
        .containsExactly(new Evidence("/dev/infiniband", 0, "missing: the container has no /dev/infiniband"));
  }
}
