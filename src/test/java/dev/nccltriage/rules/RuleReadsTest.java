package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.FactSet;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a rule reads and what the loader and rule set promise about it: a refutation may read only
 * container facts however deep its condition nests; the evidence of an {@code any} is the branches
 * that held, or every fact when none did; a comparison over a value that is no number is unknown;
 * steps come in ladder order; a prompt lists each fact it may set once.
 */
class RuleReadsTest {

  private static RuleSet load(String yaml) throws RuleFileException {
    RuleSet.Builder b = new RuleSet.Builder();
    new RuleLoader().load("r.yaml", new StringReader(yaml), b);
    return b.build();
  }

  private static Evidence line(int n) {
    return new Evidence("nccl.log", n, "line " + n);
  }

  // ---- refutations read only container facts -------------------------------------------------

  private static String lintRefutedBy(String when) {
    return """
        lints:
          - id: L-x
            severity: problem
            layer: device-plugin
            when: {fact: ib.noDevice, is: true}
            message: "m"
            fix: "f"
            refutedBy:
              when: %s
              says: "s"
        """.formatted(when);
  }

  @Test
  void aRefutationReadingALogFactInsideAllAnyOrNotIsRefused() {
    for (String when : List.of(
        "{all: [{fact: pod.devInfiniband, is: true}, {fact: net.rdma, is: true}]}",
        "{any: [{fact: pod.devInfiniband, is: true}, {fact: net.rdma, is: true}]}",
        "{not: {fact: net.rdma, is: true}}")) {
      assertThatThrownBy(() -> load(lintRefutedBy(when))).as(when).isInstanceOf(RuleFileException.class)
          .hasMessageContaining("refutedBy reads only container facts (pod.*), not 'net.rdma'");
    }
  }

  @Test
  void aRefutationReadingOnlyContainerFactsLoads() throws RuleFileException {
    assertThat(load(lintRefutedBy("{all: [{fact: pod.devInfiniband, is: true}, {not: {fact: pod.uverbs, is: 0}}]}"))
        .lints()).hasSize(1);
  }

  // ---- evidence of any/not ---------------------------------------------------------------------

  private static final String QUESTION = """
      questions:
        - id: Q-x
          level: 1
          ask: "RDMA?"
          applies: {any: [{fact: net.usesNetwork, is: true}, {fact: job.singleNode, is: false}]}
          yes: {any: [{fact: net.rdma, is: true}, {fact: ib.initLogged, is: true}]}
          no: {not: {fact: net.rdma, is: true}}
          severity: problem
          fix: "f"
          decide: "d"
          fallback:
            - {layer: fabric, why: "w", fix: "f"}
      """;

  private static Verdict.Answer answer(FactSet f) throws RuleFileException {
    return new Engine(load(QUESTION)).evaluate(f, List.of()).path().get(0);
  }

  @Test
  void theEvidenceOfAnAnyThatHoldsIsOnlyTheBranchesThatHold() throws RuleFileException {
    Verdict.Answer a = answer(new FactSet().put("net.usesNetwork", true, List.of(line(1)))
        .put("net.rdma", true, List.of(line(2))).put("ib.initLogged", false, List.of(line(3))));
    assertThat(a.answer()).isEqualTo("yes");
    assertThat(a.evidence()).containsExactly(line(2));
  }

  @Test
  void theEvidenceOfAnAnyThatFailsIsEveryFactItRead() throws RuleFileException {
    Verdict.Answer a = answer(new FactSet().put("net.usesNetwork", false, List.of(line(1)))
        .put("job.singleNode", true, List.of(line(2))));
    assertThat(a.answer()).isEqualTo("n/a");
    assertThat(a.evidence()).containsExactly(line(1), line(2));
  }

  @Test
  void theEvidenceOfANotIsTheFactItNegates() throws RuleFileException {
    Verdict.Answer a = answer(new FactSet().put("net.usesNetwork", true, List.of(line(1)))
        .put("net.rdma", false, List.of(line(2))));
    assertThat(a.answer()).isEqualTo("no");
    assertThat(a.evidence()).containsExactly(line(2));
  }

  // ---- comparisons over values that are no number -------------------------------------------------

  private static FactSet notANumber() {
    return new FactSet().put("env.NCCL_IB_TIMEOUT", "abc", List.of());
  }

  private static Condition timeout(Condition.Op op, long operand) {
    return new Condition.Compare("env.NCCL_IB_TIMEOUT", op, operand, null);
  }

  @Test
  void anOrderingOverAValueThatIsNoNumberIsUnknownAndStaysUnknownUnderNotAndAll() {
    Condition lt = timeout(Condition.Op.LT, 30);
    assertThat(lt.eval(notANumber())).isEqualTo(Tri.UNKNOWN);
    assertThat(new Condition.Not(lt).eval(notANumber())).isEqualTo(Tri.UNKNOWN);
    Condition known = new Condition.Compare("env.NCCL_IB_TIMEOUT", Condition.Op.KNOWN, true, null);
    assertThat(new Condition.All(List.of(known, lt)).eval(notANumber())).isEqualTo(Tri.UNKNOWN);
  }

  @Test
  void aValueThatIsNoNumberIsNotEqualToZero() {
    assertThat(timeout(Condition.Op.IS, 0).eval(notANumber())).isEqualTo(Tri.FALSE);
    assertThat(timeout(Condition.Op.GE, -1).eval(notANumber())).isEqualTo(Tri.UNKNOWN);
  }

  // ---- loader and rule set -----------------------------------------------------------------------

  @Test
  void anUnknownKeyErrorListsTheAllowedKeysAlphabetically() {
    String yaml = """
        lints:
          - id: L-x
            severity: warn
            layer: nccl-env
            when: {fact: ib.noDevice, is: true}
            message: "m"
            fix: "f"
            colour: red
        """;
    assertThatThrownBy(() -> load(yaml)).isInstanceOf(RuleFileException.class).hasMessageContaining(
        "unknown key 'colour' (allowed: cases, fix, id, layer, message, refutedBy, severity, weight, when)");
  }

  @Test
  void stepsComeInLadderOrderWhateverTheFileOrder() throws RuleFileException {
    String yaml = """
        steps:
          - {id: S-two, step: 2, name: "Two", pass: {fact: pod.hcas, gt: 0}, observed: "o"}
          - {id: S-one, step: 1, name: "One", pass: {fact: pod.uverbs, gt: 0}, observed: "o"}
        """;
    RuleSet rules = load(yaml);
    assertThat(rules.steps()).extracting(Rule::id).containsExactly("S-one", "S-two");
    assertThat(new Engine(rules).steps(new FactSet())).extracting(LadderStep::step).containsExactly(1, 2);
  }

  @Test
  void aPromptThatFeedsAQuestionThatDoesNotExistIsRefused() {
    // a question exists, but not the one the prompt feeds
    String yaml = QUESTION + """
        prompts:
          - id: G-x
            ask: "How many?"
            kind: count
            feeds: Q-none
            sets: [pod.hcas]
        """;
    assertThatThrownBy(() -> load(yaml)).isInstanceOf(RuleFileException.class)
        .hasMessageContaining("prompt G-x feeds unknown question 'Q-none'");
  }

  // ---- prompts -------------------------------------------------------------------------------------

  @Test
  void aPromptListsEachFactItMaySetOrThatMakesItMootOnce() {
    Map<String, Map<String, Object>> choices = new LinkedHashMap<>();
    choices.put("yes", Map.of("pod.ipcLock", true));
    choices.put("no", Map.of("pod.ipcLock", false));
    Rule.Prompt choice = new Rule.Prompt("G-c", "o", "?", null, "choice", choices, List.of(),
        List.of("pod.ipcLock", "pod.memlockBytes"), List.of(), List.of());
    assertThat(choice.facts()).containsExactly("pod.ipcLock", "pod.memlockBytes");

    Rule.Prompt count = new Rule.Prompt("G-n", "o", "?", null, "count", Map.of(), List.of("pod.hcas"),
        List.of("pod.hcas", "pod.hcasOnNode"), List.of(), List.of());
    assertThat(count.facts()).containsExactly("pod.hcas", "pod.hcasOnNode");
  }

  @Test
  void aChoiceThatSetsAListFactSetsItsItems() throws RuleFileException {
    String yaml = """
        prompts:
          - id: G-l
            ask: "Link layer?"
            kind: choice
            answers:
              roce: {pod.linkLayers: [Ethernet]}
        """;
    Rule.Prompt p = load(yaml).prompts().get(0);
    assertThat(PromptAnswers.interpret(p, "roce")).hasValue(Map.of("pod.linkLayers", List.of("Ethernet")));
  }

  @Test
  void aCountOfUpToAMillionIsAccepted() {
    Rule.Prompt p = new Rule.Prompt("G-n", "o", "?", null, "count", Map.of(), List.of("pod.hcas"), List.of(),
        List.of(), List.of());
    assertThat(PromptAnswers.interpret(p, "1000000")).hasValue(Map.of("pod.hcas", 1_000_000L));
    assertThat(PromptAnswers.interpret(p, "1000001")).isEmpty();
  }
}
