package dev.nccltriage.rules;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Difference;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactValue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates the rules over the facts. The policy is fixed here and the knowledge is in the rules:
 * gates first; then the questions in level order; the first "no" of problem severity names the
 * layer through its causes (or its fallbacks); problem lints add candidates; a needed question left
 * unknown makes the verdict inconclusive, and so does a "doubt" lint where the verdict would
 * otherwise be healthy (what the log shows may be the job's failure, but does not say so).
 */
public final class Engine {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z][\\w.<>*-]*)}");
  private final RuleSet rules;

  public Engine(RuleSet rules) {
    this.rules = rules;
  }

  public RuleSet rules() {
    return rules;
  }

  public Verdict evaluate(FactSet facts, List<Difference> differs) {
    return evaluate(facts, differs, null);
  }

  /**
   * As {@link #evaluate(FactSet, List)} over the log's and the container's facts together, weighing
   * one against the other: {@code containerOnly} holds what the container alone shows (with the
   * job's environment as the log printed it), null when there is only one kind of evidence. A
   * question the two answer yes and no, or a log's cause the container refutes with no other cause
   * standing, is a disagreement: the verdict then names no layer.
   */
  public Verdict evaluate(FactSet facts, List<Difference> differs, FactSet containerOnly) {
    for (Rule.Gate g : rules.gates()) {
      if (g.when().eval(facts) == Tri.TRUE) {
        return new Verdict(g.status(), g.status().equals("healthy") ? "none" : "unknown",
            render(g.message(), facts), List.of(), List.of(), null, null, List.of(), differs,
            List.of(render(g.advice(), facts)));
      }
    }
    List<Verdict.Answer> path = new ArrayList<>();
    List<Failure> failures = new ArrayList<>();
    List<String> advice = new ArrayList<>();
    Rule.Question firstUnknown = null;
    LogVersusContainer versus = new LogVersusContainer(containerOnly);
    for (Rule.Question q : rules.questions()) {
      String answer = answer(q, facts);
      Condition decided = answer.equals("yes") ? q.yes() : answer.equals("no") ? q.no()
          : answer.equals("n/a") ? q.applies() : null;
      String note = answer.equals("unknown") ? render(decide(q, facts), facts) : null;
      path.add(new Verdict.Answer(q.id(), q.ask(), answer, evidence(decided, facts), note));
      if (answer.equals("unknown") && q.neededForHealthy() && firstUnknown == null) {
        firstUnknown = q;
      }
      if (answer.equals("no")) {
        Failure f = explain(q, facts);
        versus.weigh(q, f.refuted, !f.candidates.isEmpty() && f.logged, evidence(q.no(), facts));
        if (f.candidates.isEmpty()) {
          continue; // every cause the log named is refuted: a disagreement, not a candidate
        }
        if (q.severity().equals("problem")) {
          failures.add(f);
        } else {
          advice.add(f.candidates.get(0).why() + " " + f.fix);
        }
      } else if (answer.equals("yes")) {
        versus.weighYes(q, evidence(q.yes(), facts));
      }
    }
    // The first "no" whose cause the log shows names the layer; a "no" explained only by the
    // question's fallbacks (a guess) names it only when no logged cause exists.
    Failure primary = failures.stream().filter(f -> f.logged).findFirst()
        .orElse(failures.isEmpty() ? null : failures.get(0));
    List<Verdict.Candidate> candidates = new ArrayList<>();
    String fix = null;
    String probe = null;
    String summary = null;
    if (primary != null) {
      candidates.addAll(primary.candidates);
      fix = primary.fix;
      probe = primary.probe;
      summary = primary.candidates.get(0).why();
      failures.stream().filter(f -> f != primary).forEach(f -> candidates.addAll(f.candidates));
    }
    List<Verdict.Finding> findings = new ArrayList<>();
    Rule.Lint topProblemLint = null;
    Verdict.Finding firstDoubt = null; // the heaviest "doubt" lint that fired: no verdict of healthy
    // lints run in weight order; one that names no layer (a failure whose cause the log does not
    // show) never outranks one that does
    List<Rule.Lint> lints = new ArrayList<>(rules.lints());
    lints.sort(java.util.Comparator.comparing((Rule.Lint l) -> l.layer() == Layer.UNKNOWN));
    for (Rule.Lint l : lints) {
      if (l.when().eval(facts) != Tri.TRUE) {
        continue;
      }
      List<Evidence> ev = evidence(l.when(), facts);
      if (refutes(l.refutedBy(), facts)) {
        versus.refutedLint(l, render(l.message(), facts), ev, render(l.refutedBy().says(), facts),
            evidence(l.refutedBy().when(), facts));
        continue;
      }
      Verdict.Finding finding = new Verdict.Finding(l.id(), l.severity(), l.layer().id(), render(l.message(), facts),
          render(l.fix(), facts), ev);
      findings.add(finding);
      if (l.severity().equals("doubt") && firstDoubt == null) {
        firstDoubt = finding;
      }
      if (l.severity().equals("problem")) {
        candidates.add(new Verdict.Candidate(l.layer().id(), render(l.message(), facts), l.id(), ev));
        if (topProblemLint == null && (l.layer() != Layer.UNKNOWN || primary == null)) {
          topProblemLint = l;
        }
      }
    }
    if (topProblemLint != null && (primary == null || !primary.logged)) {
      // a problem the log states outranks a "no" that only the question's fallbacks explain
      String lintId = topProblemLint.id();
      // moved by index: remove(Object) would compare records, and the first equals of a record
      // type links its ObjectMethods bootstrap (10-30 ms of a cold JVM, on every failing log)
      int at = 0;
      while (!candidates.get(at).rule().equals(lintId)) {
        at++;
      }
      candidates.add(0, candidates.remove(at));
      summary = render(topProblemLint.message(), facts);
      fix = render(topProblemLint.fix(), facts);
      probe = primary == null ? null : primary.probe;
    }
    List<Verdict.Candidate> ranked = dedupe(candidates);
    if (versus.decisive()) {
      // no layer: a fix survives only from a cause that names none (it says how to decide)
      boolean undecided = !ranked.isEmpty() && ranked.get(0).layer().equals(Layer.UNKNOWN.id());
      return new Verdict("inconclusive", "unknown", versus.summary(), ranked, path, undecided ? fix : null,
          undecided && probe != null ? probe : LogVersusContainer.PROBE, findings, differs, advice,
          versus.disagreements(), versus.ruledOut());
    }
    if (!ranked.isEmpty()) {
      if (ranked.size() < 2) {
        probe = null;
      }
      return new Verdict("problem", ranked.get(0).layer(), summary, ranked, path, fix, probe, findings,
          differs, advice, versus.disagreements(), versus.ruledOut());
    }
    if (firstUnknown != null) {
      String decide = render(decide(firstUnknown, facts), facts);
      advice.add(0, decide);
      if (firstDoubt != null) {
        advice.add(1, firstDoubt.message() + " " + firstDoubt.fix());
      }
      // check without --log judges what the container shows: no log was asked
      boolean noLog = facts.get("log.present").map(v -> Boolean.FALSE.equals(v.value())).orElse(false);
      return new Verdict("inconclusive", "unknown",
          (noLog ? "What this container shows does not answer: " : "The log does not answer: ") + firstUnknown.ask(),
          List.of(), path, null, decide, findings, differs, advice, versus.disagreements(), versus.ruledOut());
    }
    if (firstDoubt != null) {
      // every question answered yes, but the log holds what may be the job's end: not "healthy"
      advice.add(0, firstDoubt.fix());
      return new Verdict("inconclusive", "unknown", firstDoubt.message(), List.of(), path, null, firstDoubt.fix(),
          findings, differs, advice, versus.disagreements(), versus.ruledOut());
    }
    return new Verdict("healthy", "none", healthySummary(path), List.of(), path, null, null, findings,
        differs, advice, versus.disagreements(), versus.ruledOut());
  }

  private static boolean refutes(Rule.Refutation r, FactSet facts) {
    return r != null && r.when().eval(facts) == Tri.TRUE;
  }

  /**
   * Only the lints that {@code which} selects, each that fires as a finding (for {@code lint}, which
   * runs no tree). Evidence is in the order of the facts in the rule's condition.
   */
  public List<Verdict.Finding> lints(FactSet facts, java.util.function.Predicate<Rule.Lint> which) {
    return lints(facts, which, id -> true);
  }

  /**
   * As {@link #lints(FactSet, java.util.function.Predicate)}, but the message and fix of a finding are
   * left null unless {@code shown} accepts its rule id: a report that only counts a rule's findings past
   * a cap need not render them (on a cluster's worth of YAML that was a fifth of the time).
   */
  public List<Verdict.Finding> lints(FactSet facts, java.util.function.Predicate<Rule.Lint> which,
      java.util.function.Predicate<String> shown) {
    List<Verdict.Finding> out = new ArrayList<>();
    for (Rule.Lint l : rules.lints()) {
      if (which.test(l) && l.when().eval(facts) == Tri.TRUE) {
        boolean show = shown.test(l.id());
        out.add(new Verdict.Finding(l.id(), l.severity(), l.layer().id(), show ? render(l.message(), facts) : null,
            show ? render(l.fix(), facts) : null, evidence(l.when(), facts)));
      }
    }
    return out;
  }

  /**
   * The candidates for a "no" and the causes the container refuted; {@code candidates} is empty
   * when causes fired and the container refuted them all.
   */
  private record Failure(List<Verdict.Candidate> candidates, String fix, String probe, boolean logged,
      List<LogVersusContainer.Refuted> refuted) {}

  /** The candidates for a "no": the causes whose conditions hold, else the question's fallbacks. */
  private Failure explain(Rule.Question q, FactSet facts) {
    List<Verdict.Candidate> mine = new ArrayList<>();
    List<LogVersusContainer.Refuted> refuted = new ArrayList<>();
    String fix = null;
    String probe = null;
    for (Rule.Cause c : rules.causes()) {
      if (c.explains().equals(q.id()) && c.when().eval(facts) == Tri.TRUE) {
        if (refutes(c.refutedBy(), facts)) {
          refuted.add(new LogVersusContainer.Refuted(c.id(), c.layer().id(), render(c.why(), facts),
              evidence(c.when(), facts), render(c.refutedBy().says(), facts), evidence(c.refutedBy().when(), facts)));
          continue;
        }
        mine.add(new Verdict.Candidate(c.layer().id(), render(c.why(), facts), c.id(), evidence(c.when(), facts)));
        if (fix == null) {
          fix = render(c.fix(), facts);
          probe = c.probe() == null ? null : render(c.probe(), facts);
        }
      }
    }
    if (!mine.isEmpty()) {
      // causes that name no layer are no better than a fallback guess: a lint naming one outranks them
      boolean named = mine.stream().anyMatch(c -> !c.layer().equals(Layer.UNKNOWN.id()));
      return new Failure(mine, fix, probe, named, refuted);
    }
    if (!refuted.isEmpty()) {
      return new Failure(List.of(), null, null, false, refuted);
    }
    List<Evidence> ev = evidence(q.no(), facts);
    for (Rule.Fallback f : q.fallback()) {
      // the evidence is the question's, shown once with the first candidate
      mine.add(new Verdict.Candidate(f.layer().id(), render(f.why(), facts), q.id(), mine.isEmpty() ? ev : List.of()));
    }
    return new Failure(mine, render(q.fallback().get(0).fix(), facts), render(q.probe(), facts), false, List.of());
  }

  /** The ladder: one status per step rule, in step order. */
  public List<LadderStep> steps(FactSet facts) {
    List<LadderStep> out = new ArrayList<>();
    for (Rule.Step s : rules.steps()) {
      String status = stepStatus(s, facts);
      List<Evidence> ev = new ArrayList<>();
      // a step that did not run (its skipped text says why) shows no other step's facts as its own
      boolean notRun = status.equals("skip") && s.skipped() != null;
      for (Condition c : notRun ? new Condition[0] : new Condition[] {s.error(), s.fail(), s.warn(), s.pass()}) {
        if (c != null) {
          for (Evidence e : evidence(c, facts)) {
            if (!ev.contains(e) && ev.size() < 6) {
              ev.add(e);
            }
          }
        }
      }
      String observed = status.equals("skip") && s.skipped() != null ? s.skipped() : s.observed();
      out.add(new LadderStep(s.step(), s.id(), s.name(), status, render(observed, facts), ev));
    }
    return out;
  }

  static String stepStatus(Rule.Step s, FactSet facts) {
    if (s.error() != null && s.error().eval(facts) == Tri.TRUE) {
      return "error";
    }
    if (s.fail() != null && s.fail().eval(facts) == Tri.TRUE) {
      return "fail";
    }
    if (s.warn() != null && s.warn().eval(facts) == Tri.TRUE) {
      return "warn";
    }
    return s.pass().eval(facts) == Tri.TRUE ? "pass" : "skip";
  }

  /** What one rule says about the facts: fires/quiet, yes/no/unknown/n/a, or a step status. */
  public static String outcome(Rule rule, FactSet facts) {
    if (rule instanceof Rule.Question q) {
      return answer(q, facts);
    }
    if (rule instanceof Rule.Step s) {
      return stepStatus(s, facts);
    }
    Condition when = rule instanceof Rule.Cause c ? c.when()
        : rule instanceof Rule.Lint l ? l.when() : ((Rule.Gate) rule).when();
    Rule.Refutation r = rule instanceof Rule.Cause c ? c.refutedBy() : rule instanceof Rule.Lint l ? l.refutedBy() : null;
    if (when.eval(facts) != Tri.TRUE) {
      return "quiet";
    }
    return refutes(r, facts) ? "refuted" : "fires";
  }

  /** What would decide an unknown answer: the first decideWhen entry that holds, else decide. */
  static String decide(Rule.Question q, FactSet facts) {
    for (Rule.Decide d : q.decideWhen()) {
      if (d.when().eval(facts) == Tri.TRUE) {
        return d.decide();
      }
    }
    return q.decide();
  }

  static String answer(Rule.Question q, FactSet facts) {
    if (q.applies() != null && q.applies().eval(facts) == Tri.FALSE) {
      return "n/a";
    }
    if (q.yes().eval(facts) == Tri.TRUE) {
      return "yes";
    }
    if (q.no().eval(facts) == Tri.TRUE) {
      return "no";
    }
    return "unknown";
  }

  private static String healthySummary(List<Verdict.Answer> path) {
    long yes = path.stream().filter(a -> a.answer().equals("yes")).count();
    long no = path.stream().filter(a -> a.answer().equals("no")).count();
    long na = path.stream().filter(a -> a.answer().equals("n/a")).count();
    if (yes == 0 && no == 0 && na > 0) {
      return "Nothing to fix in the network path: the job does not use the network between nodes.";
    }
    String s = "No fallback that slows the job: " + yes + " of " + path.size() + " questions answered yes";
    return no == 0 ? s + " and none answered no." : s + "; " + no + " answered no with a warning only (see Advice).";
  }

  private static List<Verdict.Candidate> dedupe(List<Verdict.Candidate> all) {
    Set<String> seen = new LinkedHashSet<>();
    List<Verdict.Candidate> out = new ArrayList<>();
    for (Verdict.Candidate c : all) {
      if (seen.add(c.layer())) {
        out.add(c);
      }
    }
    return out;
  }

  static List<Evidence> evidenceOf(Condition c, FactSet facts) {
    return facts == null ? List.of() : evidence(c, facts);
  }

  private static List<Evidence> evidence(Condition c, FactSet facts) {
    if (c == null) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    c.decisive(facts, names);
    Set<Evidence> out = new LinkedHashSet<>();
    for (String n : new LinkedHashSet<>(names)) {
      facts.get(n).ifPresent(v -> out.addAll(v.evidence()));
    }
    return List.copyOf(out).subList(0, Math.min(out.size(), 4));
  }

  /** Replaces {fact} placeholders with the fact's value ("unknown" when the fact is unknown). */
  public static String render(String template, FactSet facts) {
    if (template == null || template.indexOf('{') < 0) {
      return template;
    }
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      Optional<FactValue> v = facts.get(m.group(1));
      m.appendReplacement(sb, Matcher.quoteReplacement(v.map(x -> show(x.value())).orElse("unknown")));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  // A fact's value may come from the input: a hostile line's 60 KB interface name, or thousands of
  // them, would be the whole message. Past what any real host or log holds, it is cut and counted:
  // a word (no space in it) past SHOWN_WORD characters, a value past SHOWN_LENGTH (a fact the tool
  // composes, a step's summary, is a sentence of short words and stays whole), a list past SHOWN_ITEMS.
  private static final int SHOWN_WORD = 160;
  private static final int SHOWN_LENGTH = 1000;
  private static final int SHOWN_ITEMS = 32;

  private static String show(Object v) {
    if (v instanceof Double d) {
      return d == Math.rint(d) ? String.valueOf(d.longValue()) : String.format(Locale.ROOT, "%.2f", d);
    }
    if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        return "none";
      }
      List<String> shown = l.stream().limit(SHOWN_ITEMS).map(x -> clip(String.valueOf(x))).toList();
      return String.join(", ", shown) + (l.size() > SHOWN_ITEMS ? " (+" + (l.size() - SHOWN_ITEMS) + " more)" : "");
    }
    return clip(String.valueOf(v));
  }

  /** The value with each word past SHOWN_WORD characters cut, and the whole past SHOWN_LENGTH. */
  static String clip(String s) {
    if (s.length() <= SHOWN_WORD) {
      return s;
    }
    StringBuilder out = new StringBuilder();
    int word = 0;
    int i = 0;
    for (; i < s.length() && out.length() < SHOWN_LENGTH; i++) {
      char c = s.charAt(i);
      word = c == ' ' ? 0 : word + 1;
      if (word <= SHOWN_WORD) {
        out.append(c);
      } else if (word == SHOWN_WORD + 1) {
        out.setCharAt(out.length() - 1, '…');
      }
    }
    return i == s.length() ? out.toString() : out.substring(0, SHOWN_LENGTH - 1) + "…";
  }
}
