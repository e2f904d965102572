package dev.nccltriage.rules;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.FactSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Weighs the log against the container when both were given. The log may come from another node,
 * Pod or image, or from before the Pod changed; then the two contradict each other, and a layer
 * named from either alone would be a confident wrong answer. Three shapes of contradiction:
 * a question the log answers yes and the container no; a "no" whose every logged cause the
 * container refutes; a "no" the log leaves unexplained while the container (with the job's
 * environment) answers yes. A refuted cause beside one that stands is only ruled out.
 */
final class LogVersusContainer {
  static final String PROBE = "Run `nccl-triage check --log` in the Pod that wrote the log (its node and"
      + " image), with --pid of the training process so that the environment is the job's; or give the log"
      + " of the Pod this check ran in (kubectl logs POD).";
  private static final String MAY = "The log may come from another node, Pod or image, or the Pod changed"
      + " after the log was written.";

  /** A cause (or problem lint) the log fired and the container refuted. */
  record Refuted(String rule, String layer, String why, List<Evidence> logEvidence, String container,
      List<Evidence> containerEvidence) {}

  private final FactSet containerOnly;
  private final List<Verdict.Disagreement> disagreements = new ArrayList<>();
  private final List<Verdict.RuledOut> ruledOut = new ArrayList<>();
  private boolean decisive;
  private String summary;

  /** {@code containerOnly}: what the container alone shows, or null when only one kind of evidence exists. */
  LogVersusContainer(FactSet containerOnly) {
    this.containerOnly = containerOnly;
  }

  /**
   * A question answered "no" over both kinds of evidence: {@code refuted} are the causes the
   * container refuted, {@code explained} whether a cause named a layer that stands.
   */
  void weigh(Rule.Question q, List<Refuted> refuted, boolean explained, List<Evidence> logEvidence) {
    boolean problem = q.severity().equals("problem");
    if (!refuted.isEmpty() && explained) {
      refuted.forEach(r -> ruledOut.add(new Verdict.RuledOut(r.layer(), r.rule(), r.why(), r.container(),
          r.containerEvidence())));
      return;
    }
    if (!refuted.isEmpty()) {
      String layers = String.join(", ", refuted.stream().map(Refuted::layer).distinct().toList());
      refuted.forEach(r -> add(new Verdict.Disagreement(r.rule(), r.why(), r.container(),
          r.logEvidence(), r.containerEvidence()), problem, "To \"" + q.ask() + "\" the log answers no, and"
          + " this container refutes every cause the log points to (" + layers + "; see below)."));
      return;
    }
    if (!explained && containerAnswer(q).equals("yes")) {
      add(new Verdict.Disagreement(q.id(), "The log answers no to: " + q.ask() + " (and shows no cause)",
          "This container answers yes: with the job's environment, NCCL would find what it needs here.",
          logEvidence, Engine.evidenceOf(q.yes(), containerOnly)), problem,
          "To \"" + q.ask() + "\" the log answers no, naming no cause, and this container answers yes.");
    }
  }

  private void add(Verdict.Disagreement d, boolean problem, String sentence) {
    disagreements.add(d);
    if (problem && !decisive) {
      summary = sentence;
    }
    decisive |= problem;
  }

  /** A question answered "yes" over both kinds of evidence. */
  void weighYes(Rule.Question q, List<Evidence> logEvidence) {
    if (containerAnswer(q).equals("no")) {
      add(new Verdict.Disagreement(q.id(), "The log answers yes to: " + q.ask(),
          "This container answers no (see the ladder).", logEvidence, Engine.evidenceOf(q.no(), containerOnly)),
          q.severity().equals("problem"),
          "To \"" + q.ask() + "\" the log answers yes and this container no (see the ladder).");
    }
  }

  /** A problem lint (a logged error's explanation) that the container refutes. */
  void refutedLint(Rule.Lint l, String message, List<Evidence> logEvidence, String container,
      List<Evidence> containerEvidence) {
    add(new Verdict.Disagreement(l.id(), message, container, logEvidence, containerEvidence),
        l.severity().equals("problem"), "The log says: " + sentence(message) + " This container shows: "
            + sentence(container));
  }

  private String containerAnswer(Rule.Question q) {
    return containerOnly == null ? "unknown" : Engine.answer(q, containerOnly);
  }

  /** Whether a contradiction touches a problem: then the verdict names no layer. */
  boolean decisive() {
    return decisive;
  }

  String summary() {
    return "The log and this container disagree. " + summary + " " + MAY;
  }

  private static String sentence(String s) {
    String t = s.strip();
    t = t.isEmpty() ? t : Character.toUpperCase(t.charAt(0)) + t.substring(1);
    return t.endsWith(".") || t.endsWith("?") ? t : t + ".";
  }

  List<Verdict.Disagreement> disagreements() {
    return List.copyOf(disagreements);
  }

  List<Verdict.RuledOut> ruledOut() {
    return List.copyOf(ruledOut);
  }
}
