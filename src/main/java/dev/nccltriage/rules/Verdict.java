package dev.nccltriage.rules;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Difference;
import java.util.List;

/**
 * The argument the rules made: status, the layer that owes the fix, ranked candidates, the path
 * through the tree with evidence, the fix, the probe that would separate the candidates, findings
 * that stand alone, who differs from the rest of the job, and where the log and the container
 * disagree or the container rules a candidate out.
 */
public record Verdict(
    String status,
    String layer,
    String summary,
    List<Candidate> candidates,
    List<Answer> path,
    String fix,
    String probe,
    List<Finding> findings,
    List<Difference> differs,
    List<String> advice,
    List<Disagreement> disagreements,
    List<RuledOut> ruledOut) {

  /** A verdict without a second kind of evidence to weigh against the first. */
  public Verdict(String status, String layer, String summary, List<Candidate> candidates, List<Answer> path,
      String fix, String probe, List<Finding> findings, List<Difference> differs, List<String> advice) {
    this(status, layer, summary, candidates, path, fix, probe, findings, differs, advice, List.of(), List.of());
  }

  public record Candidate(String layer, String why, String rule, List<Evidence> evidence) {}

  public record Answer(String question, String ask, String answer, List<Evidence> evidence, String note) {}

  public record Finding(String rule, String severity, String layer, String message, String fix,
      List<Evidence> evidence) {}

  /**
   * Where the log and the container contradict each other: a question they answer yes and no, or a
   * cause the log names that the container refutes. {@code rule} is the question's or the cause's id.
   */
  public record Disagreement(String rule, String log, String container, List<Evidence> logEvidence,
      List<Evidence> containerEvidence) {}

  /** A candidate layer the log suggested and the container refutes, while another cause stands. */
  public record RuledOut(String layer, String rule, String why, String container, List<Evidence> evidence) {}
}
