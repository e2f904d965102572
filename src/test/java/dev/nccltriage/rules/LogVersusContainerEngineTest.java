package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nccltriage.facts.FactSet;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The engine's weighing of log against container, over hand-made facts and the built-in rules. */
class LogVersusContainerEngineTest {
  private static final RuleSet RULES = load();

  private static RuleSet load() {
    try {
      return new RuleLoader().loadBuiltInAnd(null);
    } catch (RuleFileException e) {
      throw new IllegalStateException(e);
    }
  }

  private static FactSet facts(Map<String, Object> m) {
    FactSet s = new FactSet();
    m.forEach((k, v) -> s.put(k, v, List.of()));
    return s;
  }

  @Test
  void aTcpxPluginNeedsNoUverbsSoAContainerWithoutThemDoesNotContradictIt() {
    Map<String, Object> container = Map.of("net.transport", "GPUDirectTCPX_v7", "pod.uverbs", 0L,
        "pod.uverbsOpenable", 0L, "pod.devInfiniband", false);
    FactSet merged = facts(Map.of("net.transport", "GPUDirectTCPX_v7", "net.usesNetwork", true, "net.rdma", false,
        "pod.uverbs", 0L, "pod.uverbsOpenable", 0L, "pod.devInfiniband", false));
    Verdict v = new Engine(RULES).evaluate(merged, List.of(), facts(container));
    assertThat(v.disagreements()).extracting(Verdict.Disagreement::rule).doesNotContain("Q1-transport");
  }

  @Test
  void aLogThatUsedIbBesideAContainerWithoutDevicesDisagrees() {
    FactSet merged = facts(Map.of("net.transport", "IB", "net.usesNetwork", true, "net.rdma", true,
        "gdr.receiveChannels", "all", "pod.uverbs", 0L, "pod.uverbsOpenable", 0L));
    FactSet container = facts(Map.of("net.transport", "IB", "net.rdmaSeen", true, "pod.uverbs", 0L,
        "pod.uverbsOpenable", 0L, "pod.hcasOnNode", 0L, "pod.rdmaHardware", false));
    Verdict v = new Engine(RULES).evaluate(merged, List.of(), container);
    assertThat(v.status()).isEqualTo("inconclusive");
    assertThat(v.layer()).isEqualTo("unknown");
    assertThat(v.disagreements()).extracting(Verdict.Disagreement::rule).containsExactly("Q1-transport");
  }

  @Test
  void withoutContainerFactsTheSameLogIsHealthy() {
    FactSet merged = facts(Map.of("net.transport", "IB", "net.usesNetwork", true, "net.rdma", true,
        "gdr.receiveChannels", "all", "ib.hcaPerGpu", 1.0, "net.oobInterface", "ib0"));
    Verdict v = new Engine(RULES).evaluate(merged, List.of(), null);
    assertThat(v.status()).isEqualTo("healthy");
    assertThat(v.disagreements()).isEmpty();
  }

  @Test
  void aRefutationMayReadOnlyContainerFacts() {
    String yaml = """
        lints:
          - id: X-self-refuting
            severity: problem
            layer: nccl-env
            when: {fact: ib.noDevice, is: true}
            message: "w"
            fix: "f"
            refutedBy:
              when: {fact: net.rdma, is: true}
              says: "s"
        """;
    assertThatThrownBy(() -> new RuleLoader().load("x.yaml", new StringReader(yaml), new RuleSet.Builder()))
        .isInstanceOf(RuleFileException.class)
        .hasMessageContaining("x.yaml:9").hasMessageContaining("only container facts (pod.*), not 'net.rdma'");
  }

  @Test
  void aRuleWithRefutedByNeedsARefutedCase() throws RuleFileException {
    String yaml = """
        lints:
          - id: X-no-refuted-case
            severity: problem
            layer: nccl-env
            when: {fact: ib.noDevice, is: true}
            message: "w"
            fix: "f"
            refutedBy:
              when: {fact: pod.portsActive, gt: 0}
              says: "s"
            cases:
              - {facts: {ib.noDevice: true}, expect: fires}
              - {facts: {ib.noDevice: false}, expect: quiet}
        """;
    RuleSet.Builder b = new RuleSet.Builder();
    new RuleLoader().load("x.yaml", new StringReader(yaml), b);
    Rule r = b.build().lints().stream().filter(c -> c.id().equals("X-no-refuted-case")).findFirst().orElseThrow();
    assertThat(RuleCasesTest.coverageProblems(r)).singleElement().asString().contains("refuted");
    assertThat(Engine.outcome(r, facts(Map.of("ib.noDevice", true, "pod.portsActive", 8L)))).isEqualTo("refuted");
  }
}
