package dev.nccltriage.rules;

import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactType;
import dev.nccltriage.facts.FactValue;
import dev.nccltriage.facts.FactVocabulary;
import dev.nccltriage.facts.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The closed condition language of the rules: a comparison of one fact, or all/any/not of
 * conditions. No expressions, no scripting: each operator is one of {@link Op}.
 */
public sealed interface Condition {
  Tri eval(FactSet facts);

  /** Fact names this condition reads, for evidence. */
  void facts(List<String> out);

  /**
   * Fact names that made this condition come out as it did: in an {@code any}, only the branches
   * that hold; elsewhere, every fact read. Evidence shows these, not every fact the rule mentions.
   */
  default void decisive(FactSet facts, List<String> out) {
    facts(out);
  }

  enum Op {
    IS("is"), IN("in"), KNOWN("known"), LT("lt"), LE("le"), GT("gt"), GE("ge"),
    MATCHES("matches"), CONTAINS("contains");

    final String key;

    Op(String key) {
      this.key = key;
    }

    static Optional<Op> of(String key) {
      for (Op o : values()) {
        if (o.key.equals(key)) {
          return Optional.of(o);
        }
      }
      return Optional.empty();
    }
  }

  record Compare(String fact, Op op, Object operand, Pattern regex) implements Condition {
    @Override
    public Tri eval(FactSet facts) {
      Optional<FactValue> v = facts.get(fact);
      if (op == Op.KNOWN) {
        return Tri.of(v.isPresent() == (Boolean) operand);
      }
      if (v.isEmpty()) {
        return Tri.UNKNOWN;
      }
      Object value = v.get().value();
      return switch (op) {
        case IS -> Tri.of(same(value, operand));
        case IN -> Tri.of(((List<?>) operand).stream().anyMatch(o -> same(value, o)));
        case LT, LE, GT, GE -> compare(value);
        case MATCHES -> Tri.of(value instanceof List<?> l
            ? l.stream().anyMatch(x -> regex.matcher(String.valueOf(x)).find())
            : regex.matcher(String.valueOf(value)).find());
        case CONTAINS -> Tri.of(value instanceof List<?> l && l.stream().anyMatch(x -> same(x, operand)));
        case KNOWN -> throw new IllegalStateException();
      };
    }

    private Tri compare(Object value) {
      int c;
      if (value instanceof Version v) {
        Version o = Version.parse(String.valueOf(operand));
        c = v.compareTo(o);
      } else {
        Double a = number(value);
        if (a == null) {
          return Tri.UNKNOWN;
        }
        c = Double.compare(a, number(operand));
      }
      return Tri.of(switch (op) {
        case LT -> c < 0;
        case LE -> c <= 0;
        case GT -> c > 0;
        default -> c >= 0;
      });
    }

    private static boolean same(Object value, Object operand) {
      if (value instanceof Number || operand instanceof Number) {
        Double a = number(value);
        Double b = number(operand);
        return a != null && a.equals(b);
      }
      return String.valueOf(value).equals(String.valueOf(operand));
    }

    private static Double number(Object o) {
      if (o instanceof Number n) {
        return n.doubleValue();
      }
      try {
        return Double.valueOf(String.valueOf(o).strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }

    @Override
    public void facts(List<String> out) {
      out.add(fact);
    }
  }

  record All(List<Condition> of) implements Condition {
    @Override
    public void decisive(FactSet facts, List<String> out) {
      of.forEach(c -> c.decisive(facts, out));
    }

    @Override
    public Tri eval(FactSet facts) {
      Tri r = Tri.TRUE;
      for (Condition c : of) {
        Tri t = c.eval(facts);
        if (t == Tri.FALSE) {
          return Tri.FALSE;
        }
        if (t == Tri.UNKNOWN) {
          r = Tri.UNKNOWN;
        }
      }
      return r;
    }

    @Override
    public void facts(List<String> out) {
      of.forEach(c -> c.facts(out));
    }
  }

  record Any(List<Condition> of) implements Condition {
    @Override
    public void decisive(FactSet facts, List<String> out) {
      boolean any = false;
      for (Condition c : of) {
        if (c.eval(facts) == Tri.TRUE) {
          c.decisive(facts, out);
          any = true;
        }
      }
      if (!any) {
        facts(out);
      }
    }

    @Override
    public Tri eval(FactSet facts) {
      Tri r = Tri.FALSE;
      for (Condition c : of) {
        Tri t = c.eval(facts);
        if (t == Tri.TRUE) {
          return Tri.TRUE;
        }
        if (t == Tri.UNKNOWN) {
          r = Tri.UNKNOWN;
        }
      }
      return r;
    }

    @Override
    public void facts(List<String> out) {
      of.forEach(c -> c.facts(out));
    }
  }

  record Not(Condition of) implements Condition {
    @Override
    public Tri eval(FactSet facts) {
      return of.eval(facts).not();
    }

    @Override
    public void facts(List<String> out) {
      of.facts(out);
    }
  }

  /** Parses a condition, rejecting unknown keys, unknown facts, bad regexes and type mismatches. */
  static Condition parse(YamlNode node) {
    Map<String, YamlNode> m = node.map("a condition");
    if (m.size() == 1) {
      Map.Entry<String, YamlNode> only = m.entrySet().iterator().next();
      switch (only.getKey()) {
        case "all", "any" -> {
          List<Condition> parts = new ArrayList<>();
          for (YamlNode n : only.getValue().list("'" + only.getKey() + "'")) {
            parts.add(parse(n));
          }
          if (parts.isEmpty()) {
            throw new RuleException(node.line(), "'" + only.getKey() + "' needs at least one condition");
          }
          return only.getKey().equals("all") ? new All(parts) : new Any(parts);
        }
        case "not" -> {
          return new Not(parse(only.getValue()));
        }
        default -> { }
      }
    }
    if (!m.containsKey("fact") || m.size() != 2) {
      throw new RuleException(node.line(),
          "a condition is {fact: NAME, OP: VALUE} or {all|any: [...]} or {not: ...}; got keys " + m.keySet());
    }
    YamlNode factNode = m.get("fact");
    String fact = factNode.text("'fact'");
    FactType type = FactVocabulary.type(fact);
    if (type == null) {
      throw new RuleException(factNode.line(), "unknown fact '" + fact + "' (see `nccl-triage rules --facts`)");
    }
    String opKey = null; // the one key beside "fact" (a loop: see RuleLoader.values)
    for (String k : m.keySet()) {
      if (!k.equals("fact")) {
        opKey = k;
        break;
      }
    }
    YamlNode arg = m.get(opKey);
    Op op = Op.of(opKey).orElse(null);
    if (op == null) {
      throw new RuleException(arg.line(),
          "unknown operator '" + opKey + "' (one of is, in, known, lt, le, gt, ge, matches, contains)");
    }
    return compare(fact, type, op, arg);
  }

  private static Condition compare(String fact, FactType type, Op op, YamlNode arg) {
    Object v = arg.value();
    switch (op) {
      case KNOWN -> {
        if (!(v instanceof Boolean)) {
          throw new RuleException(arg.line(), "'known' takes true or false");
        }
      }
      case IN -> {
        List<Object> values = new ArrayList<>();
        arg.list("'in'").forEach(n -> values.add(n.value()));
        v = List.copyOf(values);
      }
      case LT, LE, GT, GE -> {
        if (type == FactType.VERSION ? Version.parse(String.valueOf(v)) == null : !(v instanceof Number)) {
          throw new RuleException(arg.line(), "'" + op.key + "' on " + fact + " needs a "
              + (type == FactType.VERSION ? "version like \"2.21\"" : "number"));
        }
        if (Set.of(FactType.BOOL, FactType.LIST).contains(type)) {
          throw new RuleException(arg.line(), "'" + op.key + "' does not apply to " + type + " fact " + fact);
        }
      }
      case MATCHES -> {
        try {
          return new Compare(fact, op, v, Pattern.compile(arg.text("'matches'")));
        } catch (PatternSyntaxException e) {
          throw new RuleException(arg.line(), "bad regex for " + fact + ": " + e.getDescription());
        }
      }
      case CONTAINS -> {
        if (type != FactType.LIST) {
          throw new RuleException(arg.line(), "'contains' applies only to list facts; " + fact + " is " + type);
        }
      }
      case IS -> {
        if (type == FactType.BOOL && !(v instanceof Boolean)) {
          throw new RuleException(arg.line(), fact + " is true or false; got " + v);
        }
      }
    }
    return new Compare(fact, op, v, null);
  }
}
