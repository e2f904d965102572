package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import dev.nccltriage.rules.PromptAnswers;
import dev.nccltriage.rules.Rule;
import dev.nccltriage.rules.RuleLoader;
import java.util.List;
import java.util.Map;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class GuideCommandTest {
  /** The guide over a dumb terminal fed {@code answers}; returns exit code, terminal text, report. */
  record Walk(int code, String screen, String report) {}

  static Walk walk(String answers, String... args) throws IOException {
    ByteArrayOutputStream screen = new ByteArrayOutputStream();
    ByteArrayOutputStream report = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (Terminal t = new DumbTerminal("guide-test", Terminal.TYPE_DUMB,
            new ByteArrayInputStream(answers.getBytes(StandardCharsets.UTF_8)), screen, StandardCharsets.UTF_8);
        PrintStream out = new PrintStream(report, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      Context ctx = new Context(new ByteArrayInputStream(new byte[0]), out, e, CliRun.ENV, CliRun.REPO, false);
      int code = Specs.commandLine(new GuideCommand(ctx, t), CommandLine.defaultFactory()).execute(args);
      t.flush();
      return new Walk(code, screen.toString(StandardCharsets.UTF_8), report.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void emptyDevInfinibandEndsAtTheDevicePluginAfterOneQuestion() throws IOException {
    Walk w = walk("yes\n");
    assertThat(w.screen()).contains("Is /dev/infiniband empty in the Pod?")
        .contains("path: Q1-transport=no Q2-hca-count=n/a Q3-oob-interface=n/a Q4-gpudirect=n/a  -> problem (device-plugin)")
        .doesNotContain("Using network Socket");
    assertThat(w.report()).startsWith("nccl-triage guide: PROBLEM  layer: device-plugin");
    assertThat(w.code()).isEqualTo(ExitCode.PROBLEM.code());
  }

  @Test
  void walksEveryQuestionToAVerdictAndRepeatsABadAnswer() throws IOException {
    // devices present, RDMA network, 8 HCAs for 8 GPUs, OOB on net1, GDRDMA on all channels,
    // memlock unlimited: healthy (the capability question is still asked and answered)
    Walk w = walk("no\nno\nmaybe\n8\n8\nnet1\nall\nunlimited\nyes\n");
    assertThat(w.screen()).contains("answer one of: 1, 2, 4, 8, unknown")
        .contains("Q1-transport=yes Q2-hca-count=yes Q3-oob-interface=yes Q4-gpudirect=yes  -> healthy")
        .doesNotContain("ACTIVE") // Q1 was already answered by the log question
        .doesNotContain("nvidia_peermem"); // Q4 was answered by the channel lines
    assertThat(w.report()).startsWith("nccl-triage guide: HEALTHY");
    assertThat(w.code()).isEqualTo(ExitCode.HEALTHY.code());
  }

  @Test
  void aCountThatIsNegativeOrDoesNotFitIsAskedAgain() throws IOException {
    Walk w = walk("no\nno\n-8\n99999999999999999999\n8\n8\nnet1\nall\nunlimited\nyes\n");
    assertThat(w.screen().split("answer one of: 1, 2, 4, 8, unknown", -1)).hasSize(3);
    assertThat(w.report()).startsWith("nccl-triage guide: HEALTHY");
  }

  @Test
  void unknownAnswersAndEofGiveTheVerdictSoFar() throws IOException {
    Walk w = walk("unknown\nno\n");
    assertThat(w.screen()).contains("How many HCAs does the Pod see?");
    assertThat(w.report()).startsWith("nccl-triage guide: INCONCLUSIVE");
    assertThat(w.code()).isEqualTo(ExitCode.INCONCLUSIVE.code());
  }

  @Test
  void theLogAnswersItsQuestions() throws IOException {
    Walk w = walk("", "--log", "samples/logs/02-socket-no-device-k8s-2.19.3.log");
    assertThat(w.screen()).doesNotContain("Using network Socket");
    assertThat(w.report()).startsWith("nccl-triage guide: PROBLEM  layer: device-plugin");
  }

  @Test
  void anAnswerSetsOnlyWhatThePersonSaid() throws IOException {
    // "not empty" says nothing about how many uverbs devices there are or whether they open
    Walk w = walk("no\n");
    assertThat(w.report()).doesNotContain("8 uverbs").doesNotContain("8 openable")
        .doesNotContainPattern("\\d+ uverbs device").doesNotContainPattern("\\d+ openable");
    Walk all = walk("no\nno\n8\n8\nnet1\nall\nunlimited\nyes\n");
    assertThat(all.report()).doesNotContainPattern("\\d+ uverbs device").doesNotContainPattern("\\d+ of \\d+ port");
  }

  @Test
  void eachOfferedAnswerSetsOnlyTheFactsItsPromptNames() throws Exception {
    List<Rule.Prompt> prompts = new RuleLoader().loadBuiltInAnd(null).prompts();
    assertThat(prompts).extracting(Rule.Prompt::id).startsWith("G-dev-infiniband-empty");
    for (Rule.Prompt q : prompts) {
      for (String answer : q.completions()) {
        Map<String, Object> sets = PromptAnswers.interpret(q, answer).orElseThrow(() ->
            new AssertionError(q.id() + " offers '" + answer + "' and rejects it"));
        assertThat(q.facts()).as(q.id() + "=" + answer).containsAll(sets.keySet());
      }
    }
    // "not empty" is no count of devices
    assertThat(PromptAnswers.interpret(prompts.get(0), "no").orElseThrow()).containsOnlyKeys("pod.devInfinibandEmpty");
  }

  @Test
  void aLogAndACaptureThatContradictEachOtherAreNotResolvedByAsking() throws IOException {
    Walk w = walk("", "--log", "samples/logs/02-socket-no-device-k8s-2.19.3.log",
        "--root", "samples/captures/healthy-8hca-gdr-net1");
    assertThat(w.report()).startsWith("nccl-triage guide: INCONCLUSIVE").contains("The log and this container disagree");
    assertThat(w.code()).isEqualTo(ExitCode.INCONCLUSIVE.code());
  }

  @Test
  void withoutATerminalItExitsTwoWithOneLine() {
    CliRun r = CliRun.run("guide");
    assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(r.stderr()).isEqualTo("nccl-triage: guide needs a terminal; use check or log for scripts\n");
    assertThat(r.stdout()).isEmpty();
  }
}
