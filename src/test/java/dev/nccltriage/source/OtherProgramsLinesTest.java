package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A line of another program that starts like a message NCCL prints without its prefix is tried
 * by the message families; when no family takes it, it adds no process (the report listed an
 * empty "host: null" node for each such log).
 */
class OtherProgramsLinesTest {
  @ParameterizedTest
  @ValueSource(strings = {
      "100%|##########| 5/5 [00:01<00:00,  3.2it/s]",
      "2026-05-01 10:00:00,118 20811 INFO     Initializing process group (nccl), world size 8",
      "comm 0x55d052e6b430 freed by the allocator",
      "worker exited; comm 0x55d052e6b430 was never initialised",
      "Using network "})
  void aLineNoFamilyTakesAddsNoProcess(String line) {
    LogFacts f = Logs.parse("trainer-0:1:1 [0] NCCL INFO Using network IB\n" + line + "\n");

    assertThat(f.processes()).isEqualTo(1);
    assertThat(f.nodeDetails()).extracting(n -> n.host()).containsExactly("trainer-0");
  }
}
