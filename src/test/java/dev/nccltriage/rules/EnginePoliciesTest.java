package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactVocabulary;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The policies {@link Engine} and {@link RuleLoader} document, each pinned by a small rule set
 * written for the purpose: a cause the log shows outranks a question's fallback guess; causes
 * rank by weight, not by their order in the file; a cause must explain a question that exists;
 * the vocabulary knows only the error kinds NCCL logs.
 */
class EnginePoliciesTest {

  /** Two problem questions: Q-first (level 1) has no cause; Q-second (level 2) has the causes below. */
  private static final String QUESTIONS = """
      questions:
        - id: Q-first
          level: 1
          ask: "First?"
          yes: {fact: net.rdma, is: true}
          no: {fact: net.rdma, is: false}
          severity: problem
          fix: "Fix the first."
          decide: "Look at the first."
          fallback:
            - layer: fabric
              why: "A guess: the fabric."
              fix: "Check the fabric."
        - id: Q-second
          level: 2
          ask: "Second?"
          yes: {fact: ib.noDevice, is: false}
          no: {fact: ib.noDevice, is: true}
          severity: problem
          fix: "Fix the second."
          decide: "Look at the second."
          fallback:
            - layer: topology
              why: "A guess: the topology."
              fix: "Check the topology."
      """;

  /** Written lightest first, so that file order and weight order disagree. */
  private static final String CAUSES = """
      causes:
        - id: C-light
          explains: Q-second
          layer: nccl-env
          weight: 10
          when: {fact: ib.noDevice, is: true}
          why: "The light cause."
          fix: "Fix the env."
        - id: C-heavy
          explains: Q-second
          layer: device-plugin
          weight: 90
          when: {fact: ib.noDevice, is: true}
          why: "The heavy cause."
          fix: "Fix the device plugin."
      """;

  private static Engine engine(String... yaml) throws RuleFileException {
    RuleSet.Builder b = new RuleSet.Builder();
    int i = 0;
    for (String y : yaml) {
      new RuleLoader().load("t" + i++ + ".yaml", new StringReader(y), b);
    }
    return new Engine(b.build());
  }

  private static FactSet facts(boolean rdma, boolean noDevice) {
    return new FactSet().put("net.rdma", rdma, List.of()).put("ib.noDevice", noDevice, List.of());
  }

  @Test
  void aLoggedCauseOutranksAnEarlierQuestionsFallbackGuess() throws RuleFileException {
    Verdict v = engine(QUESTIONS, CAUSES).evaluate(facts(false, true), List.of());
    assertThat(v.status()).isEqualTo("problem");
    assertThat(v.layer()).as("the layer of the cause the log shows, not Q-first's guess").isEqualTo("device-plugin");
    assertThat(v.summary()).isEqualTo("The heavy cause.");
    assertThat(v.fix()).isEqualTo("Fix the device plugin.");
    assertThat(v.candidates()).extracting(Verdict.Candidate::layer).contains("fabric");
  }

  @Test
  void withoutALoggedCauseTheFirstNoNamesTheLayer() throws RuleFileException {
    Verdict v = engine(QUESTIONS).evaluate(facts(false, true), List.of());
    assertThat(v.layer()).isEqualTo("fabric");
    assertThat(v.candidates()).extracting(Verdict.Candidate::layer).containsExactly("fabric", "topology");
  }

  @Test
  void causesRankByWeightNotByFileOrder() throws RuleFileException {
    Verdict v = engine(QUESTIONS, CAUSES).evaluate(facts(true, true), List.of());
    assertThat(v.layer()).isEqualTo("device-plugin");
    assertThat(v.candidates()).extracting(Verdict.Candidate::rule).containsExactly("C-heavy", "C-light");
    assertThat(v.fix()).as("the fix of the heaviest cause").isEqualTo("Fix the device plugin.");
  }

  @Test
  void lintsRankByWeightNotByFileOrder() throws RuleFileException {
    String lints = """
        lints:
          - id: L-light
            severity: problem
            layer: nccl-env
            weight: 5
            when: {fact: env.NCCL_IB_DISABLE, is: "1"}
            message: "light"
            fix: "f"
          - id: L-heavy
            severity: problem
            layer: pod-network
            weight: 95
            when: {fact: env.NCCL_IB_DISABLE, is: "1"}
            message: "heavy"
            fix: "f"
        """;
    Engine e = engine(lints);
    FactSet f = new FactSet().put("env.NCCL_IB_DISABLE", "1", List.of());
    assertThat(e.lints(f, l -> true)).extracting(Verdict.Finding::rule).containsExactly("L-heavy", "L-light");
    assertThat(e.evaluate(f, List.of()).layer()).isEqualTo("pod-network");
  }

  @Test
  void builtInCausesAreEvaluatedHeaviestFirst() throws RuleFileException {
    List<Integer> weights = new RuleLoader().loadBuiltInAnd(null).causes().stream().map(Rule.Cause::weight).toList();
    assertThat(weights).isSortedAccordingTo(java.util.Comparator.reverseOrder());
  }

  @Test
  void aCauseOfAQuestionThatDoesNotExistIsRefused() {
    String orphan = CAUSES.replace("explains: Q-second", "explains: Q-none");
    assertThatThrownBy(() -> engine(QUESTIONS, orphan)).isInstanceOf(RuleFileException.class)
        .hasMessageContaining("C-light").hasMessageContaining("Q-none");
  }

  @Test
  void theVocabularyKnowsOnlyTheErrorKindsNcclLogs() {
    assertThat(FactVocabulary.type("error.completion_error")).isEqualTo(dev.nccltriage.facts.FactType.BOOL);
    assertThat(FactVocabulary.type("error.completion_error.detail")).isEqualTo(dev.nccltriage.facts.FactType.TEXT);
    assertThat(FactVocabulary.isKnown("error.no_such_kind")).isFalse();
    assertThat(FactVocabulary.isKnown("error.no_such_kind.detail")).isFalse();
    assertThat(FactVocabulary.isKnown("error.")).isFalse();
    assertThat(FactVocabulary.isKnown("error.<kind>")).as("the table's placeholder is no fact").isFalse();
  }

  @Test
  void aRuleOnAnUnknownErrorKindIsRefused() {
    String lint = """
        lints:
          - id: L-bogus
            severity: warn
            layer: fabric
            when: {fact: error.no_such_kind, is: true}
            message: "m"
            fix: "f"
        """;
    assertThatThrownBy(() -> engine(lint)).isInstanceOf(RuleFileException.class)
        .hasMessageContaining("t0.yaml:5").hasMessageContaining("unknown fact 'error.no_such_kind'");
    assertThatThrownBy(() -> new FactSet().put("error.no_such_kind", true, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A "doubt" lint that fires: what would be healthy is inconclusive, and what is a problem stays one. */
  @Test
  void aDoubtTurnsHealthyIntoInconclusiveAndLeavesAProblemAlone() throws RuleFileException {
    String doubt = """
        lints:
          - id: L-maybe
            severity: doubt
            layer: unknown
            weight: 2
            when: {fact: log.pythonException, is: true}
            message: "Maybe the job ended."
            fix: "See how it ended."
        """;
    Engine e = engine(QUESTIONS, CAUSES, doubt);
    Verdict clean = e.evaluate(facts(true, false).put("log.pythonException", false, List.of()), List.of());
    assertThat(clean.status()).isEqualTo("healthy");
    Verdict doubted = e.evaluate(facts(true, false).put("log.pythonException", true, List.of()), List.of());
    assertThat(doubted.status()).isEqualTo("inconclusive");
    assertThat(doubted.layer()).isEqualTo("unknown");
    assertThat(doubted.summary()).isEqualTo("Maybe the job ended.");
    assertThat(doubted.probe()).isEqualTo("See how it ended.");
    assertThat(doubted.candidates()).isEmpty();
    Verdict problem = e.evaluate(facts(true, true).put("log.pythonException", true, List.of()), List.of());
    assertThat(problem.status()).isEqualTo("problem");
    assertThat(problem.layer()).isEqualTo("device-plugin");
    assertThat(problem.findings()).extracting(Verdict.Finding::rule).contains("L-maybe");
  }
}
