package dev.nccltriage.rules;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Difference;
import java.util.List;

/**
 * The argument the rules made: status, the layer that owes the fix, ranked candidates, the path
 * through the tree with evidence, the fix, the probe that would separate the candidates, findings
 * that stand alone, and who differs from the rest of the job.
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
    List<String> advice) {

  public record Candidate(String layer, String why, String rule, List<Evidence> evidence) {}

  public record Answer(String question, String ask, String answer, List<Evidence> evidence, String note) {}

  public record Finding(String rule, String severity, String layer, String message, String fix,
      List<Evidence> evidence) {}
}
