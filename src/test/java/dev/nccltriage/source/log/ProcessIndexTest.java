package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The index keeps each entry's name hash beside its pid and reads the host's bytes only when both
 * match: names whose hashes collide (String.hashCode's "Aa"/"BB" family, what a hostile log would
 * send) must still be told apart, across growth, and the no-host key apart from an empty name.
 */
class ProcessIndexTest {
  private static final EvidenceBudget BUDGET = new EvidenceBudget();

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static ProcessState state(long pid) {
    return new ProcessState(pid, false, new HostEvidence("h", ascii("h"), BUDGET));
  }

  /** All 2^n names of n "Aa"/"BB" pairs: one String.hashCode, distinct bytes. */
  private static List<String> colliding(int n) {
    List<String> names = new ArrayList<>(List.of(""));
    for (int i = 0; i < n; i++) {
      List<String> next = new ArrayList<>();
      for (String s : names) {
        next.add(s + "Aa");
        next.add(s + "BB");
      }
      names = next;
    }
    return names;
  }

  private static ProcessState find(ProcessIndex index, String host, long pid) {
    byte[] line = ascii("x " + host + ":" + pid);
    int hs = 2;
    int he = hs + ascii(host).length;
    return index.find(line, hs, he, ProcessIndex.nameHash(line, hs, he), pid);
  }

  @Test
  void namesWithOneHashAreToldApartByTheirBytesAcrossGrowth() {
    List<String> names = colliding(8); // 256 names, one hash
    assertThat(names.stream().map(String::hashCode).distinct()).hasSize(1);
    ProcessIndex index = new ProcessIndex(4);
    List<ProcessState> states = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      for (long pid : new long[] {7, 8}) {
        ProcessState s = state(pid);
        states.add(s);
        index.put(ascii(names.get(i)), pid, s);
        while (states.size() * 2 > index.capacity()) {
          index.grow();
        }
      }
    }
    int k = 0;
    for (String name : names) {
      assertThat(find(index, name, 7)).as(name).isSameAs(states.get(k++));
      assertThat(find(index, name, 8)).as(name).isSameAs(states.get(k++));
      assertThat(find(index, name, 9)).as(name).isNull();
    }
    assertThat(find(index, "AaAaAaAaAaAaAaA", 7)).isNull();
  }

  @Test
  void namesWithOneStringHashGetTheirOwnTableHash() {
    // the table probes by its own hash: with String.hashCode's, a log of such names (2^15 of them
    // from 15 pairs) made every lookup walk every one of them (60000 lines took 14 s)
    List<String> names = colliding(12);
    long distinct = names.stream().map(n -> {
      byte[] b = ascii(n);
      return ProcessIndex.nameHash(b, 0, b.length) >>> 32;
    }).distinct().count();
    assertThat(distinct).isGreaterThan(names.size() - 8);
  }

  @Test
  void noHostIsNotAnEmptyNameAndANonAsciiNameIsFlagged() {
    ProcessIndex index = new ProcessIndex(8);
    ProcessState none = state(1);
    ProcessState empty = state(1);
    index.put(ProcessIndex.NO_HOST, 1, none);
    index.put(new byte[0], 1, empty);
    byte[] line = ascii("x :1");
    assertThat(index.find(line, -1, -1, ProcessIndex.nameHash(line, -1, -1), 1)).isSameAs(none);
    assertThat(index.find(line, 2, 2, ProcessIndex.nameHash(line, 2, 2), 1)).isSameAs(empty);

    byte[] utf8 = ascii("nöde-1");
    assertThat(ProcessIndex.nameHash(utf8, 0, utf8.length) & ProcessIndex.NOT_ASCII).isNotZero();
    byte[] plain = ascii("node-1");
    long h = ProcessIndex.nameHash(plain, 0, plain.length);
    assertThat(h & ProcessIndex.NOT_ASCII).isZero();
    assertThat((int) h).as("the sample keys on String.hashCode").isEqualTo("node-1".hashCode());
  }
}
