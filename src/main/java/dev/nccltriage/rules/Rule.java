package dev.nccltriage.rules;

import java.util.List;

/**
 * The closed set of rule templates. Every rule has a stable id, the file and line it came from,
 * and test cases (facts plus the expected outcome) that the build checks.
 */
public sealed interface Rule {
  String id();

  String origin();

  List<RuleCase> cases();

  /**
   * A question of the decision tree, asked in {@code level} order. {@code decide} says what evidence
   * would answer it when the answer is unknown; {@code probe}, what would pick between its fallback
   * candidates when it is "no" and the log names no cause. {@code decideWhen} replaces {@code decide}
   * by the first entry whose condition holds: an unknown has more than one reason.
   */
  record Question(String id, String origin, int level, String ask, Condition applies, Condition yes,
      Condition no, String severity, boolean neededForHealthy, String fix, String decide, String probe,
      List<Fallback> fallback, List<Decide> decideWhen, List<RuleCase> cases) implements Rule {
    public Question {
      decideWhen = decideWhen == null ? List.of() : List.copyOf(decideWhen);
    }
  }

  /** Why a question is unknown, when its condition holds. */
  record Decide(Condition when, String decide) {}

  /** A layer that explains a "no" to one question, when its condition holds. */
  record Cause(String id, String origin, String explains, Layer layer, int weight, Condition when,
      String why, String fix, String probe, Refutation refutedBy, List<RuleCase> cases) implements Rule {}

  /** A finding that stands on its own: an env misuse, an error signature, a risky choice. */
  record Lint(String id, String origin, String severity, Layer layer, int weight, Condition when,
      String message, String fix, Refutation refutedBy, List<RuleCase> cases) implements Rule {}

  /**
   * What the container would show if a cause read from the log were false: when {@code when} (over
   * container facts only) holds, the container refutes the cause, and {@code says} is what it shows.
   * A cause without one is one no container fact can refute (the job's own env, a remote peer).
   */
  record Refutation(Condition when, String says) {}

  /** Stops the tree early with a fixed status, e.g. a log with no NCCL lines. */
  record Gate(String id, String origin, String status, Condition when, String message, String advice,
      List<RuleCase> cases) implements Rule {}

  /**
   * One rung of the in-Pod ladder: its status is error, fail, warn or pass by the first condition
   * that holds, else skip; {@code observed} says what was seen, from the facts.
   */
  record Step(String id, String origin, int step, String name, Condition error, Condition fail, Condition warn,
      Condition pass, String observed, String skipped, List<RuleCase> cases) implements Rule {}

  /**
   * What {@code guide} asks a person when the evidence leaves the tree question {@code feeds} open
   * (null: asked regardless). An answer sets only the facts listed for it: a {@code choice} maps each
   * allowed answer to constant facts; a {@code count}, {@code size} or {@code name} sets each fact of
   * {@code sets} to the value typed (a number fact to the number, a text fact to the text). It is
   * not asked once any fact of {@code sets}, the choices or {@code skipIfKnown} is known. Cases give
   * an answer and the facts it sets, or "rejected".
   */
  record Prompt(String id, String origin, String ask, String feeds, String kind,
      java.util.Map<String, java.util.Map<String, Object>> choices, List<String> sets, List<String> skipIfKnown,
      List<String> completions, List<RuleCase> cases) implements Rule {
    public static final List<String> KINDS = List.of("choice", "count", "size", "name");

    /** Every fact an answer may set, and those that make the prompt moot. */
    public List<String> facts() {
      List<String> out = new java.util.ArrayList<>(sets);
      choices.values().forEach(m -> m.keySet().stream().filter(f -> !out.contains(f)).forEach(out::add));
      skipIfKnown.stream().filter(f -> !out.contains(f)).forEach(out::add);
      return out;
    }
  }

  /** A candidate layer a question names when no cause rule explains its "no". */
  record Fallback(Layer layer, String why, String fix) {}
}
