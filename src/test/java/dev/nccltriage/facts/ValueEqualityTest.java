package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Evidence and Iface write out the equals and hashCode a record would have (see Evidence#equals):
 * every component takes part, nulls are values, and the hash is the record's (31 * h + c from 0),
 * so that hash-ordered collections iterate as they did when the record made them.
 */
class ValueEqualityTest {
  private static final String[] TEXTS = {null, "", "net1", "10.0.0.1<0>", "host:1:2 [0] NCCL INFO x"};
  private static final long[] LINES = {0, 1, -1, 1L << 40};

  @Test
  void evidenceEqualsByEveryComponentAndHashesAsARecord() {
    for (String source : TEXTS) {
      for (long line : LINES) {
        for (String text : TEXTS) {
          Evidence e = new Evidence(source, line, text);
          Evidence same = new Evidence(source == null ? null : new String(source), line, text == null ? null : new String(text));
          assertThat(e).isEqualTo(same).hasSameHashCodeAs(same);
          assertThat(e.hashCode())
              .isEqualTo(31 * (31 * Objects.hashCode(source) + Long.hashCode(line)) + Objects.hashCode(text));
          assertThat(e).isNotEqualTo(new Evidence(source + "x", line, text))
              .isNotEqualTo(new Evidence(source, line + 1, text))
              .isNotEqualTo(new Evidence(source, line, text + "x"))
              .isNotEqualTo(null)
              .isNotEqualTo(source);
        }
      }
    }
  }

  @Test
  void ifaceEqualsByEveryComponentAndHashesAsARecord() {
    for (String name : TEXTS) {
      for (String address : TEXTS) {
        Iface f = new Iface(name, address);
        Iface same = new Iface(name == null ? null : new String(name), address == null ? null : new String(address));
        assertThat(f).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(f.hashCode()).isEqualTo(31 * Objects.hashCode(name) + Objects.hashCode(address));
        assertThat(f).isNotEqualTo(new Iface(name + "x", address))
            .isNotEqualTo(new Iface(name, address + "x"))
            .isNotEqualTo(null)
            .isNotEqualTo(name);
      }
    }
  }
}
