package dev.nccltriage.rules;

import dev.nccltriage.facts.FactVocabulary;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Loads rule files strictly: an unknown key, unknown fact, duplicate id, bad regex or bad value is
 * an error naming the file and line. The built-in rules are the jar's {@code rules/} folder (listed
 * in {@code rules/INDEX}); {@code --rules DIR} adds every *.yaml in DIR.
 */
public final class RuleLoader {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z][\\w.<>*-]*)}");
  // compiled once: String.matches compiles its expression on every call (~150 rules a start-up)
  private static final Pattern RULE_ID = Pattern.compile("[A-Za-z][A-Za-z0-9-]*");
  private static final Pattern ANSWER = Pattern.compile("[a-z][a-z0-9-]*");
  private static final Set<String> SEVERITIES = Set.of("problem", "doubt", "warn", "info");
  private static final Set<String> STATUSES = Set.of("healthy", "problem", "inconclusive");

  public RuleSet loadBuiltInAnd(Path extraDir) throws RuleFileException {
    return loadOnto(loadBuiltIn(), extraDir);
  }

  /** The rules packaged in the jar, in file order (a command may load them ahead of need). */
  public List<Rule> loadBuiltIn() throws RuleFileException {
    return BuiltInRules.load(this, BuiltInRules.OWN);
  }

  /** The built-in rules from {@link #loadBuiltIn} and those of {@code extraDir} (null: none). */
  public RuleSet loadOnto(List<Rule> builtIn, Path extraDir) throws RuleFileException {
    RuleSet.Builder set = new RuleSet.Builder();
    builtIn.forEach(r -> set.add(r, 0)); // unique: loadBuiltIn checked them
    if (extraDir != null) {
      loadDir(extraDir, set);
    }
    return set.build();
  }

  private void loadDir(Path dir, RuleSet.Builder set) throws RuleFileException {
    if (!Files.isDirectory(dir)) {
      throw new RuleFileException(dir + ": --rules needs a directory of *.yaml rule files");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new RuleFileException(dir + ": " + e.getMessage());
    }
    for (Path f : files) {
      try (Reader r = Files.newBufferedReader(f)) {
        load(f.toString(), r, set);
      } catch (IOException e) {
        throw new RuleFileException(f + ": " + e.getMessage());
      }
    }
  }

  /** Loads one file into the set; visible for tests that feed broken rules. */
  public void load(String file, Reader reader, RuleSet.Builder set) throws RuleFileException {
    YamlNode root;
    try {
      root = YamlNode.read(reader);
    } catch (RuleException e) {
      throw new RuleFileException(file + ":" + e.line() + ": " + e.getMessage());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      // the reader's own failure, wrapped by the parsers: said in a person's words, not a class name
      for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
        if (c instanceof java.nio.charset.CharacterCodingException) {
          throw new RuleFileException(file + ": not UTF-8 text (a rule file is YAML in UTF-8)");
        }
        if (c instanceof IOException io && !(io instanceof com.fasterxml.jackson.core.JsonProcessingException)) {
          throw new RuleFileException(file + ": cannot read it: " + (io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage()));
        }
      }
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      String why = e.getOriginalMessage().lines().findFirst().orElse("").replaceAll(", from `[^`]*`", "");
      throw new RuleFileException(file + (line > 0 ? ":" + line : "") + ": not valid YAML: " + why);
    } catch (IOException e) {
      throw new RuleFileException(file + ": " + e.getMessage());
    }
    loadTree(file, root, set);
  }

  void loadTree(String file, YamlNode root, RuleSet.Builder set) throws RuleFileException {
    try {
      Map<String, YamlNode> top = root.map("a rule file");
      for (Map.Entry<String, YamlNode> e : top.entrySet()) {
        for (YamlNode n : e.getValue().list("'" + e.getKey() + "'")) {
          String origin = file + ":" + n.line();
          Rule r = switch (e.getKey()) {
            case "questions" -> question(n, origin);
            case "causes" -> cause(n, origin);
            case "lints" -> lint(n, origin);
            case "gates" -> gate(n, origin);
            case "steps" -> step(n, origin);
            case "prompts" -> prompt(n, origin);
            default -> throw new RuleException(e.getValue().line(),
                "unknown section '" + e.getKey() + "' (questions, causes, lints, gates, steps, prompts)");
          };
          set.add(r, n.line());
        }
      }
    } catch (RuleException e) {
      throw new RuleFileException(file + ":" + e.line() + ": " + e.getMessage());
    }
  }

  private static Map<String, YamlNode> fields(YamlNode n, Set<String> required, Set<String> optional) {
    Map<String, YamlNode> m = n.map("a rule");
    for (String k : m.keySet()) {
      if (!required.contains(k) && !optional.contains(k)) {
        throw new RuleException(m.get(k).line(), "unknown key '" + k + "' (allowed: "
            + String.join(", ", union(required, optional)) + ")");
      }
    }
    for (String k : required) {
      if (!m.containsKey(k)) {
        throw new RuleException(n.line(), "missing key '" + k + "'");
      }
    }
    return m;
  }

  private static List<String> union(Set<String> a, Set<String> b) {
    List<String> l = new ArrayList<>(a);
    l.addAll(b);
    l.sort(null);
    return l;
  }

  private static Rule question(YamlNode n, String origin) {
    Map<String, YamlNode> m = fields(n, Set.of("id", "level", "ask", "yes", "no", "severity", "fix", "decide", "fallback"),
        Set.of("applies", "neededForHealthy", "probe", "decideWhen", "cases"));
    List<Rule.Decide> decideWhen = new ArrayList<>();
    if (m.containsKey("decideWhen")) {
      for (YamlNode d : m.get("decideWhen").list("'decideWhen'")) {
        Map<String, YamlNode> dm = fields(d, Set.of("when", "decide"), Set.of());
        decideWhen.add(new Rule.Decide(Condition.parse(dm.get("when")), text(dm.get("decide"))));
      }
    }
    List<Rule.Fallback> fallback = new ArrayList<>();
    for (YamlNode f : m.get("fallback").list("'fallback'")) {
      Map<String, YamlNode> fm = fields(f, Set.of("layer", "why", "fix"), Set.of());
      fallback.add(new Rule.Fallback(layer(fm.get("layer")), text(fm.get("why")), text(fm.get("fix"))));
    }
    if (fallback.isEmpty()) {
      throw new RuleException(m.get("fallback").line(), "a question needs at least one fallback candidate");
    }
    return new Rule.Question(id(m), origin, (int) m.get("level").number("'level'"), text(m.get("ask")),
        m.containsKey("applies") ? Condition.parse(m.get("applies")) : null,
        Condition.parse(m.get("yes")), Condition.parse(m.get("no")), severity(m.get("severity")),
        m.containsKey("neededForHealthy") && Boolean.TRUE.equals(m.get("neededForHealthy").value()),
        text(m.get("fix")), text(m.get("decide")), m.containsKey("probe") ? text(m.get("probe")) : null, fallback,
        decideWhen, cases(m.get("cases"), Set.of("yes", "no", "unknown", "n/a")));
  }

  private static Rule cause(YamlNode n, String origin) {
    Map<String, YamlNode> m = fields(n, Set.of("id", "explains", "layer", "weight", "when", "why", "fix"),
        Set.of("probe", "refutedBy", "cases"));
    Rule.Refutation refuted = refutation(m.get("refutedBy"));
    return new Rule.Cause(id(m), origin, m.get("explains").text("'explains'"), layer(m.get("layer")),
        (int) m.get("weight").number("'weight'"), Condition.parse(m.get("when")), text(m.get("why")),
        text(m.get("fix")), m.containsKey("probe") ? text(m.get("probe")) : null, refuted,
        cases(m.get("cases"), refuted == null ? Set.of("fires", "quiet") : Set.of("fires", "quiet", "refuted")));
  }

  private static Rule lint(YamlNode n, String origin) {
    Map<String, YamlNode> m = fields(n, Set.of("id", "severity", "layer", "when", "message", "fix"),
        Set.of("weight", "refutedBy", "cases"));
    Rule.Refutation refuted = refutation(m.get("refutedBy"));
    return new Rule.Lint(id(m), origin, severity(m.get("severity")), layer(m.get("layer")),
        m.containsKey("weight") ? (int) m.get("weight").number("'weight'") : 50,
        Condition.parse(m.get("when")), text(m.get("message")), text(m.get("fix")), refuted,
        cases(m.get("cases"), refuted == null ? Set.of("fires", "quiet") : Set.of("fires", "quiet", "refuted")));
  }

  /**
   * A cause's refutation reads only what the container shows (pod.*): it is the other kind of
   * evidence, and a log fact there would let the log refute itself.
   */
  private static Rule.Refutation refutation(YamlNode n) {
    if (n == null) {
      return null;
    }
    Map<String, YamlNode> m = fields(n, Set.of("when", "says"), Set.of());
    Condition when = Condition.parse(m.get("when"));
    List<String> names = new ArrayList<>();
    when.facts(names);
    for (String f : names) {
      if (!f.startsWith("pod.")) {
        throw new RuleException(m.get("when").line(),
            "refutedBy reads only container facts (pod.*), not '" + f + "'");
      }
    }
    return new Rule.Refutation(when, text(m.get("says")));
  }

  private static Rule gate(YamlNode n, String origin) {
    Map<String, YamlNode> m = fields(n, Set.of("id", "status", "when", "message", "advice"), Set.of("cases"));
    String status = m.get("status").text("'status'");
    if (!STATUSES.contains(status)) {
      throw new RuleException(m.get("status").line(), "status must be one of " + STATUSES);
    }
    return new Rule.Gate(id(m), origin, status, Condition.parse(m.get("when")), text(m.get("message")),
        text(m.get("advice")), cases(m.get("cases"), Set.of("fires", "quiet")));
  }

  private static Rule step(YamlNode n, String origin) {
    Map<String, YamlNode> m = fields(n, Set.of("id", "step", "name", "pass", "observed"),
        Set.of("error", "fail", "warn", "skipped", "cases"));
    int number = (int) m.get("step").number("'step'");
    if (number < 1 || number > 7) {
      throw new RuleException(m.get("step").line(), "step must be 1..7 (the ladder of DESIGN.md)");
    }
    return new Rule.Step(id(m), origin, number, text(m.get("name")),
        m.containsKey("error") ? Condition.parse(m.get("error")) : null,
        m.containsKey("fail") ? Condition.parse(m.get("fail")) : null,
        m.containsKey("warn") ? Condition.parse(m.get("warn")) : null,
        Condition.parse(m.get("pass")), text(m.get("observed")),
        m.containsKey("skipped") ? text(m.get("skipped")) : null,
        cases(m.get("cases"), Set.of("pass", "warn", "fail", "error", "skip")));
  }

  private static Rule prompt(YamlNode n, String origin) {
    Map<String, YamlNode> m = fields(n, Set.of("id", "ask", "kind"),
        Set.of("feeds", "answers", "sets", "skipIfKnown", "completions", "cases"));
    String kind = m.get("kind").text("'kind'");
    if (!Rule.Prompt.KINDS.contains(kind)) {
      throw new RuleException(m.get("kind").line(), "kind must be one of " + Rule.Prompt.KINDS);
    }
    Map<String, Map<String, Object>> choices = new LinkedHashMap<>();
    List<String> sets = new ArrayList<>();
    if (kind.equals("choice")) {
      if (!m.containsKey("answers") || m.containsKey("sets")) {
        throw new RuleException(n.line(), "a choice prompt maps each answer to facts under 'answers' (no 'sets')");
      }
      for (Map.Entry<String, YamlNode> a : m.get("answers").map("'answers'").entrySet()) {
        if (!ANSWER.matcher(a.getKey()).matches() || a.getKey().equals("unknown")) {
          throw new RuleException(a.getValue().line(), "answer '" + a.getKey()
              + "' must be a lower-case word other than 'unknown' (always allowed, it sets nothing)");
        }
        choices.put(a.getKey(), factValues(a.getValue()));
      }
    } else {
      if (!m.containsKey("sets") || m.containsKey("answers")) {
        throw new RuleException(n.line(), "a " + kind + " prompt lists under 'sets' the facts its value sets (no 'answers')");
      }
      for (YamlNode f : m.get("sets").list("'sets'")) {
        String name = f.text("a fact name");
        if (!FactVocabulary.isKnown(name)) {
          throw new RuleException(f.line(), "unknown fact '" + name + "'");
        }
        sets.add(name);
      }
    }
    List<String> skip = new ArrayList<>();
    if (m.containsKey("skipIfKnown")) {
      for (YamlNode f : m.get("skipIfKnown").list("'skipIfKnown'")) {
        String name = f.text("a fact name");
        if (!FactVocabulary.isKnown(name)) {
          throw new RuleException(f.line(), "unknown fact '" + name + "'");
        }
        skip.add(name);
      }
    }
    List<String> completions = new ArrayList<>(choices.keySet());
    if (m.containsKey("completions")) {
      for (YamlNode c : m.get("completions").list("'completions'")) {
        completions.add(String.valueOf(c.value()));
      }
    }
    List<RuleCase> cases = new ArrayList<>();
    if (m.containsKey("cases")) {
      for (YamlNode c : m.get("cases").list("'cases'")) {
        Map<String, YamlNode> cm = fields(c, Set.of("answer"), Set.of("sets", "expect"));
        String answer = String.valueOf(cm.get("answer").value());
        if (cm.containsKey("sets") == cm.containsKey("expect")) {
          throw new RuleException(c.line(), "a prompt case has either 'sets' (the facts the answer sets) or 'expect: rejected'");
        }
        if (cm.containsKey("expect") && !"rejected".equals(cm.get("expect").text("'expect'"))) {
          throw new RuleException(cm.get("expect").line(), "expect must be 'rejected' (else give 'sets')");
        }
        cases.add(new RuleCase(cm.containsKey("sets") ? factValues(cm.get("sets")) : Map.of(),
            cm.containsKey("sets") ? "sets" : "rejected", c.line(), answer));
      }
    }
    return new Rule.Prompt(id(m), origin, text(m.get("ask")), m.containsKey("feeds") ? m.get("feeds").text("'feeds'") : null,
        kind, choices, sets, skip, completions, cases);
  }

  /** A map of fact names to constant values, each of the fact's type. */
  private static Map<String, Object> factValues(YamlNode n) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, YamlNode> f : n.map("facts").entrySet()) {
      if (!FactVocabulary.isKnown(f.getKey())) {
        throw new RuleException(f.getValue().line(), "unknown fact '" + f.getKey() + "'");
      }
      Object v = f.getValue().value();
      if (v instanceof List<?> l) {
        v = values(l);
      }
      out.put(f.getKey(), RuleCase.typed(f.getKey(), v));
    }
    return out;
  }

  /**
   * The values of a list of nodes (nulls kept). Loops, not streams, here and in {@link Condition#parse}:
   * every cold start runs them for each of ~150 rules, interpreted, where a stream's first use and
   * each pipeline cost far more than the loop.
   */
  private static List<Object> values(List<?> nodes) {
    List<Object> out = new ArrayList<>(nodes.size());
    for (Object x : nodes) {
      out.add(((YamlNode) x).value());
    }
    return java.util.Collections.unmodifiableList(out);
  }

  private static String id(Map<String, YamlNode> m) {
    String id = m.get("id").text("'id'");
    if (!RULE_ID.matcher(id).matches()) {
      throw new RuleException(m.get("id").line(), "rule id '" + id + "' must be letters, digits and '-'");
    }
    return id;
  }

  private static Layer layer(YamlNode n) {
    String s = n.text("'layer'");
    Layer layer = Layer.of(s).orElse(null);
    if (layer == null) {
      throw new RuleException(n.line(), "unknown layer '" + s + "'");
    }
    return layer;
  }

  private static String severity(YamlNode n) {
    String s = n.text("'severity'");
    if (!SEVERITIES.contains(s)) {
      throw new RuleException(n.line(), "severity must be one of " + SEVERITIES);
    }
    return s;
  }

  /** Text shown to people; {placeholders} must name facts of the vocabulary. */
  private static String text(YamlNode n) {
    String s = n.text("a text field");
    Matcher m = PLACEHOLDER.matcher(s);
    while (m.find()) {
      if (!FactVocabulary.isKnown(m.group(1))) {
        throw new RuleException(n.line(), "placeholder {" + m.group(1) + "} is not a known fact");
      }
    }
    return s;
  }

  private static List<RuleCase> cases(YamlNode n, Set<String> outcomes) {
    List<RuleCase> out = new ArrayList<>();
    if (n == null) {
      return out;
    }
    for (YamlNode c : n.list("'cases'")) {
      Map<String, YamlNode> m = fields(c, Set.of("facts", "expect"), Set.of());
      String expect = m.get("expect").text("'expect'");
      if (!outcomes.contains(expect)) {
        throw new RuleException(m.get("expect").line(), "expect must be one of " + outcomes);
      }
      Map<String, Object> facts = new LinkedHashMap<>();
      for (Map.Entry<String, YamlNode> f : m.get("facts").map("'facts'").entrySet()) {
        if (!FactVocabulary.isKnown(f.getKey())) {
          throw new RuleException(f.getValue().line(), "unknown fact '" + f.getKey() + "' in a case");
        }
        Object v = f.getValue().value();
        if (v instanceof List<?> l) {
          v = values(l);
        }
        facts.put(f.getKey(), v);
      }
      out.add(new RuleCase(facts, expect, c.line()));
    }
    return out;
  }
}
