package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Guide prompts are rules: loaded strictly, each answer kind interpreted the same way everywhere. */
class PromptRulesTest {
  private static final String OK = """
      prompts:
        - id: G-x
          ask: "How many?"
          kind: count
          sets: [pod.hcas]
          cases:
            - {answer: "2", sets: {pod.hcas: 2}}
            - {answer: "x", expect: rejected}
      """;

  private static RuleSet.Builder load(String yaml) throws RuleFileException {
    RuleSet.Builder b = new RuleSet.Builder();
    new RuleLoader().load("g.yaml", new StringReader(yaml), b);
    return b;
  }

  @Test
  void aWellFormedPromptLoads() throws RuleFileException {
    Rule.Prompt p = load(OK).build().prompts().get(0);
    assertThat(p.sets()).containsExactly("pod.hcas");
    assertThat(PromptAnswers.interpret(p, " 2 ")).hasValueSatisfying(m -> assertThat(m).containsEntry("pod.hcas", 2L));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "unknown kind      | kind: count | kind: number | kind must be one of",
      "unknown fact      | sets: [pod.hcas] | sets: [pod.nics] | unknown fact 'pod.nics'",
      "choice with sets  | kind: count | kind: choice | a choice prompt maps each answer",
      "case both ways    | {answer: \"x\", expect: rejected} | {answer: \"x\", expect: rejected, sets: {pod.hcas: 1}} | either 'sets'",
      "bad expect        | expect: rejected} | expect: fires} | expect must be 'rejected'",
  })
  void aMalformedPromptIsRejectedWithFileAndLine(String name, String from, String to, String message) {
    String yaml = OK.replace(from.strip(), to.strip());
    assertThat(yaml).isNotEqualTo(OK);
    assertThatThrownBy(() -> load(yaml)).isInstanceOf(RuleFileException.class)
        .hasMessageStartingWith("g.yaml:").hasMessageContaining(message);
  }

  @Test
  void aPromptMustFeedAQuestionThatExists() throws RuleFileException {
    RuleSet.Builder b = load(OK.replace("kind: count", "kind: count\n    feeds: Q9-none"));
    assertThatThrownBy(b::build).isInstanceOf(RuleFileException.class).hasMessageContaining("feeds unknown question 'Q9-none'");
  }

  @Test
  void unknownIsNeverAChoice() {
    String yaml = """
        prompts:
          - id: G-y
            ask: "?"
            kind: choice
            answers:
              unknown: {pod.ipcLock: false}
        """;
    assertThatThrownBy(() -> load(yaml)).isInstanceOf(RuleFileException.class)
        .hasMessageContaining("other than 'unknown'");
  }

  @ParameterizedTest
  @CsvSource({"unknown", "?", " Unknown "})
  void unknownIsAlwaysAllowed(String typed) {
    assertThat(PromptAnswers.unknown(typed)).isTrue();
  }
}
