package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The condition-coverage meta-test: every condition of every built-in rule (a question's applies,
 * yes and no and its decideWhen entries; the when of causes, lints and gates; their refutedBy; a
 * step's error, fail, warn and pass) is driven from its tree. For each {@code all}, facts where
 * every condition but one holds, for each in turn, must leave it false (the rule quiet, the answer
 * changed); for each {@code any}, facts where exactly one branch holds must make it true. Each
 * pair also comes out as a different outcome of the rule ({@link Engine#outcome}) where the
 * rule's other conditions allow it.
 *
 * <p>The facts built are kept in {@code src/test/resources/condition-coverage.tsv} with the truth
 * each gave: a condition dropped from an {@code all} (or a branch from an {@code any}) changes
 * the truth of a line there, and {@link #everyRecordedProbeKeepsItsTruth} fails naming the rule.
 * A rule changed on purpose is re-recorded with
 * {@code mvn -o -Dcoverage.update=true -Dtest=ConditionCoverageTest test} (review the diff: each
 * line is facts and whether the condition holds). Guide prompts have no condition and are checked
 * by their own cases ({@link RuleCasesTest}).
 */
class ConditionCoverageTest {
  static final Path RECORD = Path.of("src/test/resources/condition-coverage.tsv");
  private static final boolean UPDATE = Boolean.getBoolean("coverage.update");
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Conditions no facts can drive, each with why: every probe that cannot be built must be listed
   * here, and a listed one that can be built fails the test. Each is an equivalent mutant: without
   * the condition the rule decides the same, so no test can catch its removal.
   */
  private static final String IMPLIED = "implied by the comparison beside it: a comparison of an absent fact is "
      + "unknown, never true, so the all cannot hold without the fact being known";
  static final Map<String, String> CANNOT_DRIVE = Map.of(
      "Q3-oob-interface yes: all #2, all but {net.oobInterface known true}", IMPLIED,
      "C1-no-libibverbs refutedBy: all #1, all but {pod.libibverbs known true}", IMPLIED,
      "L-env-ib-hca-prefix when: all #1, all but {env.NCCL_IB_HCA known true}", IMPLIED,
      "S2-hcas-ports warn: all #1, all but {pod.portsActive known true}", IMPLIED,
      "L-env-ib-timeout-low when: all #3, all but {log.ncclVersion lt 2.23}",
      "from 2.23 the third branch (timeout below 20) already fires for every timeout below 18, so the "
          + "second branch's upper bound changes nothing; it is there for the reader");

  private static RuleSet rules;
  private static ConditionSolver solver;
  private static Run generated;

  record Slot(String name, Condition cond, List<Condition> mustHold, List<Condition> mustFail) {}

  record Probe(String rule, String slot, Tri truth, Map<String, Object> facts) {
    String line() {
      try {
        Map<String, Object> out = new LinkedHashMap<>();
        facts.forEach((k, v) -> out.put(k, v instanceof Version ver ? ver.toString() : v));
        return rule + "\t" + slot + "\t" + truth + "\t" + JSON.writeValueAsString(out);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @BeforeAll
  static void load() throws RuleFileException {
    rules = new RuleLoader().loadBuiltInAnd(null);
    Map<String, Set<Object>> pool = new LinkedHashMap<>();
    for (Rule r : rules.all()) {
      for (RuleCase c : r.cases()) {
        c.facts().forEach((k, v) -> pool.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(v));
      }
    }
    solver = new ConditionSolver(pool);
    generated = generate();
  }

  static List<Slot> slots(Rule r) {
    List<Slot> out = new ArrayList<>();
    if (r instanceof Rule.Gate g) {
      out.add(new Slot("when", g.when(), List.of(), List.of()));
    } else if (r instanceof Rule.Cause c) {
      whenAndRefutation(out, c.when(), c.refutedBy());
    } else if (r instanceof Rule.Lint l) {
      whenAndRefutation(out, l.when(), l.refutedBy());
    } else if (r instanceof Rule.Question q) {
      List<Condition> applies = q.applies() == null ? List.of() : List.of(q.applies());
      if (q.applies() != null) {
        out.add(new Slot("applies", q.applies(), List.of(), List.of()));
      }
      out.add(new Slot("yes", q.yes(), applies, List.of()));
      out.add(new Slot("no", q.no(), applies, List.of(q.yes())));
      List<Condition> earlier = new ArrayList<>();
      for (int i = 0; i < q.decideWhen().size(); i++) {
        Condition w = q.decideWhen().get(i).when();
        out.add(new Slot("decideWhen[" + i + "]", w, List.of(), List.copyOf(earlier)));
        earlier.add(w);
      }
    } else if (r instanceof Rule.Step s) {
      List<Condition> before = new ArrayList<>();
      String[] names = {"error", "fail", "warn", "pass"};
      Condition[] conds = {s.error(), s.fail(), s.warn(), s.pass()};
      for (int i = 0; i < 4; i++) {
        if (conds[i] != null) {
          out.add(new Slot(names[i], conds[i], List.of(), List.copyOf(before)));
          before.add(conds[i]);
        }
      }
    }
    return out;
  }

  private static void whenAndRefutation(List<Slot> out, Condition when, Rule.Refutation refutedBy) {
    out.add(new Slot("when", when, List.of(), refutedBy == null ? List.of() : List.of(refutedBy.when())));
    if (refutedBy != null) {
      out.add(new Slot("refutedBy", refutedBy.when(), List.of(when), List.of()));
    }
  }

  /** One pair of fact sets that differ in one child of one all/any (or in the whole condition). */
  record Pair(String where, List<List<ConditionSolver.Lit>> a, List<List<ConditionSolver.Lit>> b) {}

  /**
   * The pairs of one condition: the whole of it true and false; then for each child of each
   * all/any, the child alone changed (an all's other children true, an any's other branches
   * false). {@code lenient}: the other branches of an any need only not be true, for "unknown or
   * true" branches, where a comparison of an absent fact cannot be false.
   */
  static List<Pair> pairs(Condition root, boolean lenient) {
    ConditionSolver.Want off = lenient ? ConditionSolver.Want.NT : ConditionSolver.Want.F;
    ConditionSolver.Want on = ConditionSolver.Want.T;
    List<Pair> out = new ArrayList<>();
    out.add(new Pair("the whole condition", ConditionSolver.alts(root, on), ConditionSolver.alts(root, off)));
    List<Condition> junctions = ConditionSolver.junctions(root);
    for (int j = 0; j < junctions.size(); j++) {
      Condition n = junctions.get(j);
      List<Condition> kids = ConditionSolver.kids(n);
      boolean all = n instanceof Condition.All;
      for (int i = 0; i < kids.size(); i++) {
        ConditionSolver.Want[] a = new ConditionSolver.Want[kids.size()];
        ConditionSolver.Want[] b = new ConditionSolver.Want[kids.size()];
        for (int k = 0; k < kids.size(); k++) {
          a[k] = all || k == i ? on : off; // all: every child; any: this branch alone
          b[k] = all && k != i ? on : off; // all: every child but this one; any: none
        }
        String where = (all ? "all" : "any") + " #" + (j + 1) + ", " + (all ? "all but " : "only ") + show(kids.get(i));
        out.add(new Pair(where, ConditionSolver.pinned(root, n, a, off), ConditionSolver.pinned(root, n, b, off)));
      }
    }
    return out;
  }

  static String show(Condition c) {
    if (c instanceof Condition.Compare k) {
      return "{" + k.fact() + " " + k.op().name().toLowerCase() + " " + k.operand() + "}";
    }
    if (c instanceof Condition.Not n) {
      return "not " + show(n.of());
    }
    List<String> parts = ConditionSolver.kids(c).stream().map(ConditionCoverageTest::show).toList();
    return (c instanceof Condition.All ? "all" : "any") + parts;
  }

  /** The alternatives with the slot's context: the conditions that must hold and fail beside it. */
  static List<List<ConditionSolver.Lit>> withContext(List<List<ConditionSolver.Lit>> core, Slot s) {
    List<List<List<ConditionSolver.Lit>>> parts = new ArrayList<>();
    parts.add(core);
    s.mustHold().forEach(c -> parts.add(ConditionSolver.alts(c, true)));
    s.mustFail().forEach(c -> parts.add(ConditionSolver.alts(c, false)));
    return ConditionSolver.product(parts);
  }

  static String outcome(Rule r, Slot s, FactSet f) {
    if (s.name().startsWith("decideWhen")) {
      return Engine.decide((Rule.Question) r, f);
    }
    return Engine.outcome(r, f);
  }

  /** Everything the generator builds, and the problems it found, for the assertions below. */
  record Run(List<Probe> probes, List<String> problems, Set<String> undriven) {}

  static Run generate() {
    List<Probe> probes = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Set<String> undriven = new LinkedHashSet<>();
    for (Rule r : rules.all()) {
      for (Slot s : slots(r)) {
        String key = r.id() + " " + s.name();
        List<Pair> strict = pairs(s.cond(), false);
        List<Pair> lenient = pairs(s.cond(), true);
        for (int n = 0; n < strict.size(); n++) {
          Pair p = strict.get(n);
          boolean inContext = true;
          Optional<Map<String, Object>> a = Optional.empty();
          Optional<Map<String, Object>> b = Optional.empty();
          for (Pair q : List.of(p, lenient.get(n))) {
            if (a.isEmpty() || b.isEmpty()) {
              a = solver.solve(withContext(q.a(), s));
              b = solver.solve(withContext(q.b(), s));
            }
          }
          if (a.isEmpty() || b.isEmpty()) {
            inContext = false;
            for (Pair q : List.of(p, lenient.get(n))) {
              if (a.isEmpty() || b.isEmpty()) {
                a = solver.solve(q.a());
                b = solver.solve(q.b());
              }
            }
          }
          if (a.isEmpty() || b.isEmpty()) {
            undriven.add(key + ": " + p.where());
            if (!CANNOT_DRIVE.containsKey(key + ": " + p.where())) {
              problems.add(r.origin() + " " + key + ": cannot build facts for " + p.where()
                  + (a.isEmpty() ? " (holding)" : " (failing)"));
            }
            continue;
          }
          FactSet fa = ConditionSolver.factSet(a.get());
          FactSet fb = ConditionSolver.factSet(b.get());
          Tri ta = s.cond().eval(fa);
          Tri tb = s.cond().eval(fb);
          if ((ta == Tri.TRUE) == (tb == Tri.TRUE)) {
            problems.add(r.origin() + " " + key + ": " + p.where() + " gives " + ta + " and " + tb
                + " (facts " + a.get() + " / " + b.get() + ")");
            continue;
          }
          if (inContext && outcome(r, s, fa).equals(outcome(r, s, fb)) && !(s.name().startsWith("decideWhen"))) {
            problems.add(r.origin() + " " + key + ": " + p.where() + " leaves the rule's outcome "
                + outcome(r, s, fa) + " (facts " + a.get() + " / " + b.get() + ")");
          }
          probes.add(new Probe(r.id(), s.name(), ta, a.get()));
          probes.add(new Probe(r.id(), s.name(), tb, b.get()));
        }
      }
    }
    return new Run(probes, problems, undriven);
  }

  @Test
  void everyAllAndAnyOfEveryRuleDecidesItsCondition() throws IOException {
    Run run = generated;
    assertThat(run.problems()).as("conditions the generated facts do not drive").isEmpty();
    assertThat(CANNOT_DRIVE.keySet()).as("allow-listed conditions that can now be driven (remove them)")
        .isSubsetOf(run.undriven());
    List<String> lines = new ArrayList<>(new LinkedHashSet<>(run.probes().stream().map(Probe::line).toList()));
    if (UPDATE) {
      Files.writeString(RECORD, "# rule\tslot\ttruth\tfacts (ConditionCoverageTest; -Dcoverage.update=true rewrites)\n"
          + String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
      return;
    }
    Set<String> recorded = new LinkedHashSet<>(recorded());
    List<String> missing = lines.stream().filter(l -> !recorded.contains(l)).toList();
    assertThat(missing).as("probes not in %s (a new or changed condition: if intended, "
        + "mvn -o -Dcoverage.update=true -Dtest=ConditionCoverageTest test, and review the diff)", RECORD).isEmpty();
  }

  @Test
  void everyRuleWithAConditionIsDriven() {
    Set<String> driven = new LinkedHashSet<>();
    generated.probes().forEach(p -> driven.add(p.rule()));
    List<String> conditioned = rules.all().stream().filter(r -> !(r instanceof Rule.Prompt)).map(Rule::id).toList();
    assertThat(conditioned).isNotEmpty();
    List<String> notDriven = conditioned.stream().filter(id -> !driven.contains(id)).toList();
    assertThat(notDriven).isEmpty();
  }

  /** The recorded facts still give each condition the truth it had: a dropped condition changes one. */
  @Test
  void everyRecordedProbeKeepsItsTruth() throws IOException {
    if (UPDATE) {
      return;
    }
    Map<String, Rule> byId = new LinkedHashMap<>();
    rules.all().forEach(r -> byId.put(r.id(), r));
    List<String> wrong = new ArrayList<>();
    List<String> lines = recorded();
    assertThat(lines).hasSizeGreaterThan(rules.all().size());
    for (String line : lines) {
      String[] f = line.split("\t", 4);
      Rule r = byId.get(f[0]);
      Optional<Slot> slot = r == null ? Optional.empty() : slots(r).stream().filter(s -> s.name().equals(f[1])).findFirst();
      if (slot.isEmpty()) {
        wrong.add(f[0] + " " + f[1] + ": no such rule or condition any more (re-record if intended)");
        continue;
      }
      Map<String, Object> raw = JSON.readValue(f[3], new TypeReference<LinkedHashMap<String, Object>>() {});
      FactSet facts = new FactSet();
      raw.forEach((k, v) -> facts.put(k, RuleCase.typed(k, v), List.of()));
      Tri got = slot.get().cond().eval(facts);
      if (!got.name().equals(f[2])) {
        wrong.add(r.origin() + " " + f[0] + " " + f[1] + ": facts " + raw + " made it " + f[2] + ", now " + got
            + " (a condition dropped or changed?)");
      }
    }
    assertThat(wrong).as("recorded probes whose truth changed; if the rule changed on purpose: "
        + "mvn -o -Dcoverage.update=true -Dtest=ConditionCoverageTest test").isEmpty();
  }

  private static List<String> recorded() throws IOException {
    assertThat(RECORD).as("record missing: mvn -o -Dcoverage.update=true -Dtest=ConditionCoverageTest test").exists();
    return Files.readAllLines(RECORD, StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
  }
}
