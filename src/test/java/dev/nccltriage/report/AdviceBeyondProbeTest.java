package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * An inconclusive verdict's "what would decide" is also its first advice: the reports for people
 * show it under "What would decide" (and beside its question), not a third time as advice; the JSON
 * keeps both fields for scripts.
 */
class AdviceBeyondProbeTest {
  private static final String LOG = "samples/corpus/nccl-226-aws-16node-socket-2.4.7/log.txt";

  @Test
  void textAndMarkdownShowTheProbeOnceAndJsonKeepsBoth() {
    CliRun json = CliRun.run("log", "-o", "json", CliRun.REPO.resolve(LOG).toString());
    String probe = json.json().at("/verdict/probe").asText();
    assertThat(probe).isNotEmpty();
    assertThat(json.json().at("/verdict/advice/0").asText()).isEqualTo(probe);
    String head = probe.substring(0, 40);
    for (String form : new String[] {"text", "markdown"}) {
      String out = CliRun.run("log", "-o", form, CliRun.REPO.resolve(LOG).toString()).stdout();
      assertThat(out).as(form).contains("What would decide").doesNotContain("between the candidates");
      // once beside its question in the tree, once under "What would decide", not again as advice
      assertThat(out.split(java.util.regex.Pattern.quote(head), -1)).as(form).hasSize(3);
      assertThat(out).as(form).doesNotContain("Advice");
    }
  }
}
