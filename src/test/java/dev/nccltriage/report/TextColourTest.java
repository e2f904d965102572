package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The text report is coloured on a terminal only, and never with NO_COLOR or TERM=dumb. */
class TextColourTest {
  private static final String ESC = "\u001b[";

  private static String text(Map<String, String> env, boolean terminal, String log) {
    CliRun run = CliRun.run(new byte[0], env, terminal, "log", "samples/logs/" + log);
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout()).contains("nccl-triage log: ");
    return run.stdout();
  }

  @ParameterizedTest
  @ValueSource(strings = {"01-healthy-ib-gdr-2.21.5.log", "11-one-node-fell-back-mixed-2.21.5.log"})
  void colourOnATerminal(String log) {
    String out = text(Map.of("COLUMNS", "100"), true, log);
    assertThat(out).contains(ESC).contains(ESC + "0m");
    // colour codes never leak into the words: stripped, it is the plain report
    assertThat(out.replaceAll("\u001b\\[[0-9;]*m", ""))
        .isEqualTo(text(Map.of("COLUMNS", "100"), false, log));
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "0", "false"})
  void noColourWithNoColorSetToAnyValue(String value) {
    String out =
        text(Map.of("COLUMNS", "100", "NO_COLOR", value), true, "01-healthy-ib-gdr-2.21.5.log");
    assertThat(out).doesNotContain("\u001b");
  }

  @org.junit.jupiter.api.Test
  void anEmptyNoColorIsNotSet() {
    // no-color.org: "when present and not an empty string"
    String out = text(Map.of("COLUMNS", "100", "NO_COLOR", ""), true, "01-healthy-ib-gdr-2.21.5.log");
    assertThat(out).contains("\u001b");
  }

  @ParameterizedTest
  @ValueSource(strings = {"01-healthy-ib-gdr-2.21.5.log", "11-one-node-fell-back-mixed-2.21.5.log"})
  void noColourWhenNotATerminal(String log) {
    assertThat(text(Map.of("COLUMNS", "100"), false, log)).doesNotContain("\u001b");
  }

  @ParameterizedTest
  @ValueSource(strings = {"01-healthy-ib-gdr-2.21.5.log"})
  void noColourOnADumbTerminal(String log) {
    assertThat(text(Map.of("COLUMNS", "100", "TERM", "dumb"), true, log)).doesNotContain("\u001b");
  }
}
