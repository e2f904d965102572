package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.FactSet;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Details of the verdict the engine promises beyond the layer it names: the healthy summary's
 * counts, which probe and fix an inconclusive or a one-candidate verdict keeps, how a ladder
 * step's evidence is gathered, how numbers read in messages, and what the log-versus-container
 * summary says. Each is pinned with a small rule set written for the purpose.
 */
class EngineSurvivorsTest {

  private static Engine engine(String... yaml) throws RuleFileException {
    RuleSet.Builder b = new RuleSet.Builder();
    int i = 0;
    for (String y : yaml) {
      new RuleLoader().load("t" + i++ + ".yaml", new StringReader(y), b);
    }
    return new Engine(b.build());
  }

  private static Evidence line(int n) {
    return new Evidence("nccl.log", n, "line " + n);
  }

  // ---- the healthy summary -------------------------------------------------------------------

  /**
   * Q-net (problem) applies when the job uses the network; Q-dev (warn only) applies unless the
   * job is on one node. A warn "no" leaves the verdict healthy, with advice.
   */
  private static final String HEALTHY = """
      questions:
        - id: Q-net
          level: 1
          ask: "RDMA?"
          applies: {fact: net.usesNetwork, is: true}
          yes: {fact: net.rdma, is: true}
          no: {fact: net.rdma, is: false}
          severity: problem
          fix: "f"
          decide: "d"
          fallback:
            - {layer: fabric, why: "w", fix: "f"}
        - id: Q-dev
          level: 2
          ask: "Devices?"
          applies: {fact: job.singleNode, is: false}
          yes: {fact: ib.noDevice, is: false}
          no: {fact: ib.noDevice, is: true}
          severity: warn
          fix: "f"
          decide: "d"
          fallback:
            - {layer: topology, why: "w", fix: "f"}
      """;

  private static Verdict healthy(FactSet f) throws RuleFileException {
    Verdict v = engine(HEALTHY).evaluate(f, List.of());
    assertThat(v.status()).isEqualTo("healthy");
    return v;
  }

  @Test
  void aJobThatUsesNoNetworkIsHealthyForThatReason() throws RuleFileException {
    Verdict v = healthy(new FactSet().put("net.usesNetwork", false, List.of()).put("job.singleNode", true, List.of()));
    assertThat(v.path()).extracting(Verdict.Answer::answer).containsExactly("n/a", "n/a");
    assertThat(v.summary()).isEqualTo(
        "Nothing to fix in the network path: the job does not use the network between nodes.");
  }

  @Test
  void theHealthySummaryCountsTheYesAnswers() throws RuleFileException {
    Verdict v = healthy(new FactSet().put("net.usesNetwork", true, List.of()).put("job.singleNode", false, List.of())
        .put("net.rdma", true, List.of()).put("ib.noDevice", false, List.of()));
    assertThat(v.summary()).isEqualTo("No fallback that slows the job: 2 of 2 questions answered yes and none answered no.");
  }

  @Test
  void aYesBesideAnNotApplicableIsNotANetworkFreeJob() throws RuleFileException {
    Verdict v = healthy(new FactSet().put("net.usesNetwork", true, List.of()).put("job.singleNode", true, List.of())
        .put("net.rdma", true, List.of()));
    assertThat(v.path()).extracting(Verdict.Answer::answer).containsExactly("yes", "n/a");
    assertThat(v.summary()).isEqualTo("No fallback that slows the job: 1 of 2 questions answered yes and none answered no.");
  }

  @Test
  void aWarningNoIsCountedAndPointsToTheAdvice() throws RuleFileException {
    Verdict v = healthy(new FactSet().put("net.usesNetwork", true, List.of()).put("job.singleNode", false, List.of())
        .put("net.rdma", true, List.of()).put("ib.noDevice", true, List.of()));
    assertThat(v.summary()).isEqualTo(
        "No fallback that slows the job: 1 of 2 questions answered yes; 1 answered no with a warning only (see Advice).");
  }

  @Test
  void aWarningNoBesideAnNotApplicableIsNotANetworkFreeJob() throws RuleFileException {
    Verdict v = healthy(new FactSet().put("net.usesNetwork", false, List.of()).put("job.singleNode", false, List.of())
        .put("ib.noDevice", true, List.of()));
    assertThat(v.path()).extracting(Verdict.Answer::answer).containsExactly("n/a", "no");
    assertThat(v.summary()).isEqualTo(
        "No fallback that slows the job: 0 of 2 questions answered yes; 1 answered no with a warning only (see Advice).");
  }

  @Test
  void unknownAnswersNotNeededForHealthyDoNotMakeANetworkFreeJob() throws RuleFileException {
    // neither question is neededForHealthy, so unknowns leave the verdict healthy
    Verdict v = healthy(new FactSet().put("net.usesNetwork", true, List.of()).put("job.singleNode", false, List.of()));
    assertThat(v.path()).extracting(Verdict.Answer::answer).containsExactly("unknown", "unknown");
    assertThat(v.summary()).isEqualTo("No fallback that slows the job: 0 of 2 questions answered yes and none answered no.");
  }

  // ---- probe and fix --------------------------------------------------------------------------

  private static String guessQuestion(String id, int level, String ask, String probe, String... layers) {
    StringBuilder s = new StringBuilder("""
          - id: %s
            level: %d
            ask: "%s"
            yes: {fact: ib.noDevice, is: false}
            no: {fact: ib.noDevice, is: true}
            severity: problem
            fix: "f"
            decide: "d"
        """.formatted(id, level, ask));
    if (probe != null) {
      s.append("    probe: \"").append(probe).append("\"\n");
    }
    s.append("    fallback:\n");
    for (String l : layers) {
      s.append("      - {layer: ").append(l).append(", why: \"A guess: ").append(l).append(".\", fix: \"Fix ")
          .append(l).append(".\"}\n");
    }
    return s.toString();
  }

  @Test
  void aProbeIsKeptOnlyWhenThereAreCandidatesToTellApart() throws RuleFileException {
    FactSet f = new FactSet().put("ib.noDevice", true, List.of());
    Verdict two = engine("questions:\n" + guessQuestion("Q-g", 1, "Devices?", "Look at both.", "fabric", "topology"))
        .evaluate(f, List.of());
    assertThat(two.candidates()).hasSize(2);
    assertThat(two.probe()).isEqualTo("Look at both.");

    Verdict one = engine("questions:\n" + guessQuestion("Q-g", 1, "Devices?", "Look at both.", "fabric"))
        .evaluate(f, List.of());
    assertThat(one.candidates()).hasSize(1);
    assertThat(one.probe()).as("a single candidate needs no probe to pick it").isNull();
  }

  /** Q-first: the log answers yes and the container no, a disagreement; Q-guess: a "no" with fallbacks. */
  private static Verdict disagreeing(String guess) throws RuleFileException {
    String first = """
        questions:
          - id: Q-first
            level: 1
            ask: "RDMA?"
            yes: {fact: net.rdma, is: true}
            no: {fact: net.rdma, is: false}
            severity: problem
            fix: "f"
            decide: "d"
            fallback:
              - {layer: fabric, why: "w", fix: "f"}
        """;
    FactSet merged = new FactSet().put("net.rdma", true, List.of(line(1))).put("ib.noDevice", true, List.of(line(2)));
    FactSet container = new FactSet().put("net.rdma", false, List.of(new Evidence("probe", 0, "no RDMA here")));
    Verdict v = engine(first + guess).evaluate(merged, List.of(), container);
    assertThat(v.status()).isEqualTo("inconclusive");
    return v;
  }

  @Test
  void anInconclusiveVerdictKeepsTheFixAndProbeOfACandidateThatNamesNoLayer() throws RuleFileException {
    Verdict v = disagreeing(guessQuestion("Q-guess", 2, "Devices?", "Probe the devices.", "unknown"));
    assertThat(v.candidates()).extracting(Verdict.Candidate::layer).containsExactly("unknown");
    assertThat(v.fix()).isEqualTo("Fix unknown.");
    assertThat(v.probe()).isEqualTo("Probe the devices.");
  }

  @Test
  void anInconclusiveVerdictWhoseCandidateNamesNoLayerButHasNoProbeAsksToRunInThePod() throws RuleFileException {
    Verdict v = disagreeing(guessQuestion("Q-guess", 2, "Devices?", null, "unknown"));
    assertThat(v.fix()).isEqualTo("Fix unknown.");
    assertThat(v.probe()).isEqualTo(LogVersusContainer.PROBE);
  }

  @Test
  void anInconclusiveVerdictDropsTheFixAndProbeOfACandidateThatNamesALayer() throws RuleFileException {
    Verdict v = disagreeing(guessQuestion("Q-guess", 2, "Devices?", "Probe the devices.", "fabric"));
    assertThat(v.candidates()).extracting(Verdict.Candidate::layer).containsExactly("fabric");
    assertThat(v.fix()).isNull();
    assertThat(v.probe()).isEqualTo(LogVersusContainer.PROBE);
  }

  @Test
  void aDisagreementShowsWhatTheContainerShows() throws RuleFileException {
    Verdict v = disagreeing(guessQuestion("Q-guess", 2, "Devices?", null, "fabric"));
    assertThat(v.disagreements()).singleElement().satisfies(d -> {
      assertThat(d.rule()).isEqualTo("Q-first");
      assertThat(d.logEvidence()).containsExactly(line(1));
      assertThat(d.containerEvidence()).containsExactly(new Evidence("probe", 0, "no RDMA here"));
    });
  }

  // ---- the log-versus-container summary ---------------------------------------------------------

  @Test
  void theSummaryNamesTheFirstProblemDisagreementNotAWarningOne() throws RuleFileException {
    String yaml = """
        questions:
          - id: Q-warn
            level: 1
            ask: "Warned?"
            yes: {fact: gdr.noModule, is: false}
            no: {fact: gdr.noModule, is: true}
            severity: warn
            fix: "f"
            decide: "d"
            fallback:
              - {layer: fabric, why: "w", fix: "f"}
          - id: Q-one
            level: 2
            ask: "First problem?"
            yes: {fact: net.rdma, is: true}
            no: {fact: net.rdma, is: false}
            severity: problem
            fix: "f"
            decide: "d"
            fallback:
              - {layer: fabric, why: "w", fix: "f"}
          - id: Q-two
            level: 3
            ask: "Second problem?"
            yes: {fact: ib.noDevice, is: false}
            no: {fact: ib.noDevice, is: true}
            severity: problem
            fix: "f"
            decide: "d"
            fallback:
              - {layer: topology, why: "w", fix: "f"}
        """;
    FactSet merged = new FactSet().put("gdr.noModule", false, List.of()).put("net.rdma", true, List.of())
        .put("ib.noDevice", false, List.of());
    FactSet container = new FactSet().put("gdr.noModule", true, List.of()).put("net.rdma", false, List.of())
        .put("ib.noDevice", true, List.of());
    Verdict v = engine(yaml).evaluate(merged, List.of(), container);
    assertThat(v.disagreements()).extracting(Verdict.Disagreement::rule).containsExactly("Q-warn", "Q-one", "Q-two");
    assertThat(v.summary()).startsWith("The log and this container disagree. To \"First problem?\" the log answers yes"
        + " and this container no (see the ladder). The log may come from");
  }

  private static final String REFUTED_LINT = """
      lints:
        - id: L-nodev
          severity: problem
          layer: device-plugin
          when: {fact: ib.noDevice, is: true}
          message: "%s"
          fix: "f"
          refutedBy:
            when: {fact: pod.devInfiniband, is: true}
            says: "%s"
      """;

  private static Verdict refutedLint(String message, String says) throws RuleFileException {
    FactSet merged = new FactSet().put("ib.noDevice", true, List.of()).put("pod.devInfiniband", true, List.of());
    FactSet container = new FactSet().put("pod.devInfiniband", true, List.of());
    Verdict v = engine(REFUTED_LINT.formatted(message, says)).evaluate(merged, List.of(), container);
    assertThat(v.status()).isEqualTo("inconclusive");
    return v;
  }

  @Test
  void aRefutedLintIsQuotedAsSentencesCapitalisedAndEndedOnce() throws RuleFileException {
    assertThat(refutedLint("no device in the log", "/dev/infiniband is here.").summary())
        .startsWith("The log and this container disagree. The log says: No device in the log. This container shows:"
            + " /dev/infiniband is here. The log may come from");
    assertThat(refutedLint("no device?", "devices are here").summary())
        .contains("The log says: No device? This container shows: Devices are here. The log may");
  }

  // ---- lints, ladder steps, rendering ---------------------------------------------------------

  @Test
  void aLintThatNamesALayerOutranksAHeavierOneThatNamesNone() throws RuleFileException {
    String yaml = """
        lints:
          - id: L-unnamed
            severity: problem
            layer: unknown
            weight: 90
            when: {fact: ib.noDevice, is: true}
            message: "Something failed."
            fix: "Find out."
          - id: L-named
            severity: problem
            layer: nccl-env
            weight: 10
            when: {fact: ib.noDevice, is: true}
            message: "The env is wrong."
            fix: "Fix the env."
        """;
    Verdict v = engine(yaml).evaluate(new FactSet().put("ib.noDevice", true, List.of()), List.of());
    assertThat(v.layer()).isEqualTo("nccl-env");
    assertThat(v.summary()).isEqualTo("The env is wrong.");
    assertThat(v.findings()).extracting(Verdict.Finding::rule).containsExactly("L-named", "L-unnamed");
  }

  private static final String LINT = """
      lints:
        - id: L-env
          severity: warn
          layer: nccl-env
          when: {fact: env.NCCL_IB_DISABLE, is: "1"}
          message: "IB is disabled ({env.NCCL_IB_DISABLE})."
          fix: "Unset it ({env.NCCL_IB_DISABLE})."
      """;

  @Test
  void lintFindingsAreRenderedUnlessTheCallerHidesThem() throws RuleFileException {
    Engine e = engine(LINT);
    FactSet f = new FactSet().put("env.NCCL_IB_DISABLE", "1", List.of());
    assertThat(e.lints(f, l -> true)).singleElement().satisfies(x -> {
      assertThat(x.message()).isEqualTo("IB is disabled (1).");
      assertThat(x.fix()).isEqualTo("Unset it (1).");
    });
    assertThat(e.lints(f, l -> true, id -> false)).singleElement().satisfies(x -> {
      assertThat(x.message()).as("a hidden finding is only counted").isNull();
      assertThat(x.fix()).isNull();
    });
  }

  private static final String STEP = """
      steps:
        - id: S-dev
          step: 1
          name: "Devices"
          fail: {all: [{fact: pod.uverbs, is: 0}, {fact: pod.uverbsOpenable, is: 0}, {fact: pod.rdmaCm, is: false},
                       {fact: pod.devInfiniband, is: false}]}
          pass: {all: [{fact: pod.uverbs, gt: 0}, {fact: pod.hcas, gt: 0}, {fact: pod.ports, gt: 0},
                       {fact: pod.portsActive, gt: 0}]}
          observed: "{pod.uverbs} uverbs devices"
          skipped: "not probed"
      """;

  @Test
  void aStepShowsEachPieceOfEvidenceOnceAndAtMostSix() throws RuleFileException {
    FactSet f = new FactSet().put("pod.uverbs", 2L, List.of(line(1))).put("pod.uverbsOpenable", 2L, List.of(line(2)))
        .put("pod.rdmaCm", true, List.of(line(3))).put("pod.devInfiniband", true, List.of(line(4)))
        .put("pod.hcas", 2L, List.of(line(5))).put("pod.ports", 2L, List.of(line(6)))
        .put("pod.portsActive", 2L, List.of(line(7)));
    LadderStep s = engine(STEP).steps(f).get(0);
    assertThat(s.status()).isEqualTo("pass");
    // pod.uverbs is read by both conditions: its line is shown once; line 7 is past the cap
    assertThat(s.evidence()).containsExactly(line(1), line(2), line(3), line(4), line(5), line(6));
  }

  @Test
  void aSkippedStepSaysWhyOnlyWhenSkipped() throws RuleFileException {
    Engine e = engine(STEP);
    assertThat(e.steps(new FactSet()).get(0)).satisfies(s -> {
      assertThat(s.status()).isEqualTo("skip");
      assertThat(s.observed()).isEqualTo("not probed");
    });
    FactSet passing = new FactSet().put("pod.uverbs", 2L, List.of()).put("pod.hcas", 2L, List.of())
        .put("pod.ports", 2L, List.of()).put("pod.portsActive", 2L, List.of());
    assertThat(e.steps(passing).get(0)).satisfies(s -> {
      assertThat(s.status()).isEqualTo("pass");
      assertThat(s.observed()).isEqualTo("2 uverbs devices");
    });
    Engine noSkipped = engine(STEP.replace("    skipped: \"not probed\"\n", ""));
    assertThat(noSkipped.steps(new FactSet()).get(0).observed()).isEqualTo("unknown uverbs devices");
  }

  @Test
  void numbersInMessagesAreWholeWithoutDecimalsElseTwoDecimals() {
    String t = "{ib.hcaPerGpu} HCA per GPU";
    assertThat(Engine.render(t, new FactSet().put("ib.hcaPerGpu", 2.0, List.of()))).isEqualTo("2 HCA per GPU");
    assertThat(Engine.render(t, new FactSet().put("ib.hcaPerGpu", 0.5, List.of()))).isEqualTo("0.50 HCA per GPU");
    assertThat(Engine.render(t, new FactSet().put("ib.hcaPerGpu", 1.0 / 3, List.of()))).isEqualTo("0.33 HCA per GPU");
  }
}
