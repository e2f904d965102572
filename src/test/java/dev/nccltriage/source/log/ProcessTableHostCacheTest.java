package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The process table finds a known host's evidence by its name's bytes (a cache of its host map):
 * it must answer as the map does. A host the sample evicted is no longer known (a non-ASCII name
 * skips the sample's hash test and reaches the cache), and two byte strings that decode to one name
 * are one host, as the map has them.
 */
class ProcessTableHostCacheTest {

  private static ProcessState get(ProcessTable t, byte[] host, long pid) {
    return t.get(host, 0, host.length, pid, false);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String nonAscii(boolean keptAtLevelOne, int from) {
    return IntStream.range(from, from + 10000).mapToObj(i -> "nœud-" + i)
        .filter(n -> ProcessTable.kept(n, 1) == keptAtLevelOne).findFirst().orElseThrow();
  }

  @Test
  void aHostTheSampleEvictedIsNotFoundAgainThroughItsBytes() {
    ProcessTable t = new ProcessTable(new ProcessTable.Limits(2, 1 << 20, 0));
    byte[] evicted = utf8(nonAscii(false, 0));
    byte[] kept = utf8(nonAscii(true, 0));
    byte[] third = utf8(nonAscii(true, 20000));
    assertThat(get(t, evicted, 1).host).isEqualTo(new String(evicted, StandardCharsets.UTF_8));
    get(t, kept, 1);
    get(t, third, 1); // a third host: the table samples, and the first one leaves
    assertThat(t.keeps(new String(evicted, StandardCharsets.UTF_8))).isFalse();
    ProcessState again = get(t, evicted, 2);
    assertThat(again.host).as("another process of the evicted host").isNull();
    assertThat(get(t, kept, 2).host).isEqualTo(new String(kept, StandardCharsets.UTF_8));
  }

  @Test
  void twoSpellingsOfOneDecodedNameAreOneHostAsInTheMap() {
    ProcessTable t = new ProcessTable();
    byte[] a = {'h', 'o', 's', 't', (byte) 0xff};
    byte[] b = {'h', 'o', 's', 't', (byte) 0xfe};
    ProcessState first = get(t, a, 1);
    ProcessState second = get(t, b, 2);
    ProcessState third = get(t, b, 3);
    ProcessState fourth = get(t, a, 4);
    assertThat(second.evidence).isSameAs(first.evidence);
    assertThat(third.evidence).isSameAs(first.evidence);
    assertThat(fourth.evidence).isSameAs(first.evidence);
    assertThat(t.hosts()).hasSize(1);
  }

  @Test
  void everyRankOfAKnownHostSharesItsEvidence() {
    ProcessTable t = new ProcessTable();
    for (int h = 0; h < 5000; h++) {
      for (int pid = 1; pid <= 8; pid++) {
        ProcessState p = get(t, utf8("host-" + h), pid);
        assertThat(p.evidence).isSameAs(get(t, utf8("host-" + h), 1).evidence);
      }
    }
    assertThat(t.hosts()).hasSize(5000);
  }
}
