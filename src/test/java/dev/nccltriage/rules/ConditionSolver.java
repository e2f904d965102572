package dev.nccltriage.rules;

import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactType;
import dev.nccltriage.facts.FactVocabulary;
import dev.nccltriage.facts.Version;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds facts that give a condition tree chosen truths: each comparison is a literal wanted true
 * or false (never unknown, so that every all/any comes out definite), and a fact's value is picked
 * from candidates derived from the comparisons on it and the values the rules' own cases use.
 */
final class ConditionSolver {
  /**
   * What a condition must come out as: true, false, or (where a branch beside it only must not
   * decide) not true or not false, which an unknown fact also satisfies.
   */
  enum Want {
    T, F, NT, NF;

    Want flip() {
      return switch (this) {
        case T -> F;
        case F -> T;
        case NT -> NF;
        case NF -> NT;
      };
    }

    boolean holds(Tri t) {
      return switch (this) {
        case T -> t == Tri.TRUE;
        case F -> t == Tri.FALSE;
        case NT -> t != Tri.TRUE;
        case NF -> t != Tri.FALSE;
      };
    }
  }

  /** A comparison wanted to come out one way. */
  record Lit(Condition.Compare c, Want want) {}

  private static final Object ABSENT = new Object();
  private static final int CAP = 48;
  private final Map<String, Set<Object>> pool;

  /** {@code pool}: values each fact takes in the rules' cases, tried as candidates. */
  ConditionSolver(Map<String, Set<Object>> pool) {
    this.pool = pool;
  }

  static List<List<Lit>> alts(Condition c, boolean want) {
    return alts(c, want ? Want.T : Want.F);
  }

  /** Alternatives (each a conjunction of literals) that make {@code c} come out as wanted. */
  static List<List<Lit>> alts(Condition c, Want want) {
    if (c instanceof Condition.Compare k) {
      return List.of(List.of(new Lit(k, want)));
    }
    if (c instanceof Condition.Not n) {
      return alts(n.of(), want.flip());
    }
    List<Condition> kids = c instanceof Condition.All a ? a.of() : ((Condition.Any) c).of();
    boolean every = c instanceof Condition.All == (want == Want.T || want == Want.NF);
    if (every) {
      List<List<List<Lit>>> parts = new ArrayList<>();
      kids.forEach(k -> parts.add(alts(k, want)));
      return product(parts);
    }
    List<List<Lit>> out = new ArrayList<>();
    for (Condition k : kids) {
      for (List<Lit> l : alts(k, want)) {
        if (out.size() < CAP) {
          out.add(l);
        }
      }
    }
    return out;
  }

  /**
   * Alternatives for {@code root} where every sibling on the way down to {@code target} holds the
   * value that lets the target decide (true beside it in an all; {@code besideAny}, false or not
   * true, in an any) and the target's children come out as {@code childWant}.
   */
  static List<List<Lit>> pinned(Condition root, Condition target, Want[] childWant, Want besideAny) {
    if (root == target) {
      List<Condition> kids = kids(target);
      List<List<List<Lit>>> parts = new ArrayList<>();
      for (int i = 0; i < kids.size(); i++) {
        parts.add(alts(kids.get(i), childWant[i]));
      }
      return product(parts);
    }
    if (root instanceof Condition.Not n) {
      return pinned(n.of(), target, childWant, besideAny);
    }
    if (root instanceof Condition.Compare) {
      return List.of();
    }
    List<List<List<Lit>>> parts = new ArrayList<>();
    boolean found = false;
    for (Condition k : kids(root)) {
      if (contains(k, target)) {
        parts.add(pinned(k, target, childWant, besideAny));
        found = true;
      } else {
        parts.add(alts(k, root instanceof Condition.All ? Want.T : besideAny));
      }
    }
    return found ? product(parts) : List.of();
  }

  static List<Condition> kids(Condition c) {
    return c instanceof Condition.All a ? a.of() : c instanceof Condition.Any y ? y.of() : List.of();
  }

  static boolean contains(Condition c, Condition target) {
    if (c == target) {
      return true;
    }
    if (c instanceof Condition.Not n) {
      return contains(n.of(), target);
    }
    return kids(c).stream().anyMatch(k -> contains(k, target));
  }

  /** Every all/any node of a tree, in document order, by identity. */
  static List<Condition> junctions(Condition c) {
    List<Condition> out = new ArrayList<>();
    walk(c, out, new IdentityHashMap<>());
    return out;
  }

  private static void walk(Condition c, List<Condition> out, IdentityHashMap<Condition, Boolean> seen) {
    if (c instanceof Condition.Not n) {
      walk(n.of(), out, seen);
    } else if (!(c instanceof Condition.Compare) && seen.put(c, true) == null) {
      out.add(c);
      kids(c).forEach(k -> walk(k, out, seen));
    }
  }

  static List<List<Lit>> product(List<List<List<Lit>>> parts) {
    List<List<Lit>> acc = new ArrayList<>();
    acc.add(List.of());
    for (List<List<Lit>> p : parts) {
      List<List<Lit>> next = new ArrayList<>();
      for (List<Lit> a : acc) {
        for (List<Lit> b : p) {
          if (next.size() < CAP * 4) {
            List<Lit> l = new ArrayList<>(a);
            l.addAll(b);
            next.add(l);
          }
        }
      }
      acc = next;
    }
    return acc;
  }

  /** The first alternative whose literals some values satisfy together: the fact values, in order. */
  Optional<Map<String, Object>> solve(List<List<Lit>> alternatives) {
    for (List<Lit> alt : alternatives) {
      Map<String, List<Lit>> byFact = new LinkedHashMap<>();
      alt.forEach(l -> byFact.computeIfAbsent(l.c().fact(), f -> new ArrayList<>()).add(l));
      Map<String, Object> values = new LinkedHashMap<>();
      boolean ok = true;
      for (Map.Entry<String, List<Lit>> e : byFact.entrySet()) {
        Optional<Object> v = value(e.getKey(), e.getValue());
        if (v.isEmpty()) {
          ok = false;
          break;
        }
        if (v.get() != ABSENT) {
          values.put(e.getKey(), v.get());
        }
      }
      if (ok) {
        return Optional.of(values);
      }
    }
    return Optional.empty();
  }

  static FactSet factSet(Map<String, Object> values) {
    FactSet s = new FactSet();
    values.forEach((k, v) -> s.put(k, v, List.of()));
    return s;
  }

  private Optional<Object> value(String fact, List<Lit> lits) {
    for (Object cand : candidates(fact, lits)) {
      FactSet s = new FactSet();
      if (cand != ABSENT) {
        s.put(fact, cand, List.of());
      }
      if (lits.stream().allMatch(l -> l.want().holds(l.c().eval(s)))) {
        return Optional.of(cand);
      }
    }
    return Optional.empty();
  }

  private List<Object> candidates(String fact, List<Lit> lits) {
    FactType type = FactVocabulary.type(fact);
    Set<Object> out = new LinkedHashSet<>();
    out.add(ABSENT);
    for (Lit l : lits) {
      Object op = l.c().operand();
      switch (l.c().op()) {
        case IN -> ((List<?>) op).forEach(o -> out.addAll(near(type, o)));
        case MATCHES -> out.addAll(typed(type, RegexSample.of(l.c().regex().pattern())));
        case KNOWN -> { }
        default -> out.addAll(near(type, op));
      }
    }
    for (Object p : pool.getOrDefault(fact, Set.of())) {
      out.add(RuleCase.typed(fact, p));
    }
    switch (type) {
      case BOOL -> out.addAll(List.of(true, false));
      case NUMBER -> out.addAll(List.of(0L, 1L, 8L, -1L, 1000L));
      case VERSION -> out.addAll(List.of(new Version(2, 18, 1), new Version(2, 27, 0), new Version(6, 8, 0)));
      case TEXT -> out.addAll(List.of("zz-none", ""));
      case LIST -> out.addAll(List.of(List.of(), List.of("zz-none")));
      default -> { }
    }
    return new ArrayList<>(out);
  }

  /** The operand and values just beside it, as the fact's type holds them. */
  private static List<Object> near(FactType type, Object op) {
    List<Object> out = new ArrayList<>();
    switch (type) {
      case NUMBER -> {
        double d = op instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(op));
        for (double x : new double[] {d, d - 1, d + 1, d - 0.5, d + 0.5}) {
          out.add(x == Math.rint(x) ? (Object) (long) x : (Object) x);
        }
      }
      case VERSION -> {
        Version v = Version.parse(String.valueOf(op));
        out.add(v);
        out.add(new Version(v.major(), v.minor(), v.patch() + 1));
        if (v.patch() > 0) {
          out.add(new Version(v.major(), v.minor(), v.patch() - 1));
        }
        if (v.minor() > 0) {
          out.add(new Version(v.major(), v.minor() - 1, 99));
        }
        out.add(new Version(v.major(), v.minor() + 1, 0));
      }
      case BOOL -> {
        out.add(op);
        out.add(op instanceof Boolean b ? !b : op);
      }
      case LIST -> {
        out.add(List.of(String.valueOf(op)));
        out.add(List.of());
      }
      default -> {
        out.add(String.valueOf(op));
        out.add(op + "-zz");
      }
    }
    return out;
  }

  private static List<Object> typed(FactType type, List<String> samples) {
    List<Object> out = new ArrayList<>();
    for (String s : samples) {
      if (type == FactType.LIST) {
        out.add(List.of(s));
      } else if (type == FactType.NUMBER) {
        try {
          out.add(Long.parseLong(s));
        } catch (NumberFormatException e) {
          // not a number: no candidate
        }
      } else if (type == FactType.VERSION) {
        Version v = Version.parse(s);
        if (v != null) {
          out.add(v);
        }
      } else if (type == FactType.TEXT) {
        out.add(s);
      }
    }
    return out;
  }
}
