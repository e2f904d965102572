package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in rule carries its own test cases: at least one positive and one negative, and each
 * yields the outcome it expects when evaluated by {@link Engine#outcome}.
 */
class RuleCasesTest {

  static Stream<Named<Rule>> builtInRules() throws RuleFileException {
    return new RuleLoader().loadBuiltInAnd(null).all().stream().map(r -> Named.of(r.id(), r));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("builtInRules")
  void ruleHasPositiveAndNegativeCases(Rule rule) {
    assertThat(coverageProblems(rule)).as("case coverage of %s (%s)", rule.id(), rule.origin()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("builtInRules")
  void everyCaseYieldsItsExpectedOutcome(Rule rule) {
    assertThat(mismatches(rule)).as("cases of %s (%s)", rule.id(), rule.origin()).isEmpty();
  }

  @Test
  void builtInSetIsNotEmptyAndHasEveryKind() throws RuleFileException {
    RuleSet set = new RuleLoader().loadBuiltInAnd(null);
    assertThat(set.gates()).isNotEmpty();
    assertThat(set.questions()).extracting(Rule.Question::level).containsExactly(1, 2, 3, 4);
    assertThat(set.causes()).isNotEmpty();
    assertThat(set.lints()).isNotEmpty();
    assertThat(set.steps()).extracting(Rule.Step::step).containsExactly(1, 2, 3, 4, 5, 6, 7);
    assertThat(set.all()).extracting(Rule::id).doesNotHaveDuplicates();
  }

  /** The two checks above must be able to fail: feed them rules whose cases are wrong or missing. */
  @Test
  void checksDetectWrongAndMissingCases() throws RuleFileException {
    String yaml = """
        lints:
          - id: X-wrong-case
            severity: warn
            layer: nccl-env
            when: {fact: env.NCCL_IB_DISABLE, is: "1"}
            message: "m"
            fix: "f"
            cases:
              - {facts: {env.NCCL_IB_DISABLE: "1"}, expect: quiet}
              - {facts: {env.NCCL_IB_DISABLE: "0"}, expect: quiet}
          - id: X-no-cases
            severity: warn
            layer: nccl-env
            when: {fact: env.NCCL_IB_DISABLE, is: "1"}
            message: "m"
            fix: "f"
        """;
    RuleSet.Builder b = new RuleSet.Builder();
    new RuleLoader().load("x.yaml", new StringReader(yaml), b);
    RuleSet set = b.build();
    Rule wrong = set.lints().stream().filter(l -> l.id().equals("X-wrong-case")).findFirst().orElseThrow();
    Rule none = set.lints().stream().filter(l -> l.id().equals("X-no-cases")).findFirst().orElseThrow();
    assertThat(mismatches(wrong)).singleElement().asString().contains("x.yaml").contains("fires");
    assertThat(coverageProblems(wrong)).singleElement().asString().contains("fires");
    assertThat(coverageProblems(none)).isNotEmpty();
  }

  static List<String> coverageProblems(Rule rule) {
    Set<String> expects = rule.cases().stream().map(RuleCase::expect).collect(Collectors.toSet());
    List<String> out = new ArrayList<>();
    if (rule instanceof Rule.Question) {
      if (!expects.contains("yes")) {
        out.add("no case expecting \"yes\"");
      }
      if (!expects.contains("no")) {
        out.add("no case expecting \"no\"");
      }
    } else if (rule instanceof Rule.Prompt) {
      if (!expects.contains("sets")) {
        out.add("no case of an answer and the facts it sets");
      }
      if (!expects.contains("rejected")) {
        out.add("no case of an answer it rejects");
      }
    } else if (rule instanceof Rule.Step) {
      if (!expects.contains("pass")) {
        out.add("no case expecting \"pass\"");
      }
      if (!expects.contains("fail") && !expects.contains("warn")) {
        out.add("no case expecting \"fail\" or \"warn\"");
      }
    } else {
      if (!expects.contains("fires")) {
        out.add("no case expecting \"fires\"");
      }
      if (!expects.contains("quiet")) {
        out.add("no case expecting \"quiet\"");
      }
      Rule.Refutation r = rule instanceof Rule.Cause c ? c.refutedBy() : rule instanceof Rule.Lint l ? l.refutedBy() : null;
      if (r != null && !expects.contains("refuted")) {
        out.add("no case expecting \"refuted\" (the rule has refutedBy)");
      }
    }
    return out;
  }

  /** Numbers compared by value (YAML gives Integer, an answer Long), in name order. */
  private static String normal(java.util.Map<String, Object> m) {
    java.util.Map<String, Object> out = new java.util.TreeMap<>();
    m.forEach((k, v) -> out.put(k, v instanceof Number n ? (Object) n.longValue() : v));
    return out.toString();
  }

  static List<String> mismatches(Rule rule) {
    List<String> out = new ArrayList<>();
    String file = rule.origin().replaceFirst(":\\d+$", "");
    if (rule instanceof Rule.Prompt p) {
      for (RuleCase c : p.cases()) {
        String got = PromptAnswers.interpret(p, c.answer()).map(m -> "sets " + normal(m)).orElse("rejected");
        String want = c.expect().equals("rejected") ? "rejected" : "sets " + normal(c.facts());
        if (!got.equals(want)) {
          out.add(file + ":" + c.line() + ": answer '" + c.answer() + "' expects " + want + " but got " + got);
        }
      }
      return out;
    }
    for (RuleCase c : rule.cases()) {
      String got = Engine.outcome(rule, c.factSet());
      if (!got.equals(c.expect())) {
        out.add(file + ":" + c.line() + ": facts " + c.facts() + " expect " + c.expect() + " but got " + got);
      }
    }
    return out;
  }
}
