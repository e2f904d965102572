package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A glued host resolves to what its definition says, the first real process in table order of the
 * same pid whose host name ends the glued one (or is it without its leading digits), whether a pid
 * has a few processes (scanned) or many (looked up by the glued name's suffixes).
 */
class GluedHostsTest {
  private static ProcessState proc(String host, long pid, boolean glued) {
    return new ProcessState(pid, glued, new HostEvidence(host, host.getBytes(StandardCharsets.UTF_8), null));
  }

  /** The definition, as one pass over every process. */
  private static ProcessState reference(List<ProcessState> all, ProcessState p) {
    return all.stream()
        .filter(q -> q != p && !q.hostOnlyAfterOtherBytes && q.host != null && q.pid == p.pid
            && (p.host.endsWith(q.host) || p.host.equals(q.host.replaceFirst("^[0-9]+", ""))))
        .findFirst().orElse(null);
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 64, 65, 500})
  void resolvesAsTheDefinitionSays(int realsPerPid) {
    Random rnd = new Random(realsPerPid);
    List<ProcessState> all = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < realsPerPid; i++) {
      // names that end one another ("a", "node-a", "x-node-a"), and unrelated ones
      // and container ids that start with digits ("09b7e0", "b7e0": a glued line lost the digits)
      String name = switch (i % 5) {
        case 0 -> "n" + i;
        case 1 -> "node-n" + (i - 1);
        case 2 -> "x-node-n" + (i - 2);
        case 3 -> "09b7e" + i;
        default -> "b7e" + (i - 1);
      };
      names.add(name);
      all.add(proc(name, 12, false));
      all.add(proc(name, 13 + i % 2, false));
    }
    List<ProcessState> glued = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      String tail = names.get(rnd.nextInt(names.size()));
      String junk = rnd.nextBoolean() ? "nvm" : rnd.nextBoolean() ? "" : "q";
      String name = rnd.nextInt(4) == 0 ? tail.replaceFirst("^[0-9]+", "") : junk + tail;
      ProcessState g = proc(name + (i % 7 == 0 ? "z" : ""), i % 5 == 0 ? 99 : 12, true);
      glued.add(g);
      all.add(rnd.nextInt(all.size()), g);
    }
    GluedHosts hosts = new GluedHosts(all);
    for (ProcessState g : glued) {
      assertThat(hosts.of(g)).as(g.host + ":" + g.pid).isSameAs(reference(all, g));
    }
    assertThat(glued).anySatisfy(g -> assertThat(reference(all, g)).isNotNull());
    assertThat(glued).anySatisfy(g -> assertThat(reference(all, g)).isNull());
  }
}
