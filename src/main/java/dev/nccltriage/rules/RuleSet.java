package dev.nccltriage.rules;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The registry of loaded rules: ids are unique, causes explain questions that exist. */
public record RuleSet(List<Rule.Gate> gates, List<Rule.Question> questions, List<Rule.Cause> causes,
    List<Rule.Lint> lints, List<Rule.Step> steps, List<Rule.Prompt> prompts) {

  public List<Rule> all() {
    List<Rule> l = new ArrayList<>(gates);
    l.addAll(questions);
    l.addAll(causes);
    l.addAll(lints);
    l.addAll(steps);
    l.addAll(prompts);
    return l;
  }

  public static final class Builder {
    private final Map<String, Rule> byId = new LinkedHashMap<>();

    public void add(Rule r, int line) {
      Rule old = byId.putIfAbsent(r.id(), r);
      if (old != null) {
        throw new RuleException(line, "duplicate rule id '" + r.id() + "' (first defined at " + old.origin() + ")");
      }
    }

    /** The rules added so far, in order. */
    public List<Rule> rules() {
      return List.copyOf(byId.values());
    }

    public RuleSet build() throws RuleFileException {
      List<Rule.Gate> gates = new ArrayList<>();
      List<Rule.Question> questions = new ArrayList<>();
      List<Rule.Cause> causes = new ArrayList<>();
      List<Rule.Lint> lints = new ArrayList<>();
      List<Rule.Step> steps = new ArrayList<>();
      List<Rule.Prompt> prompts = new ArrayList<>();
      for (Rule r : byId.values()) {
        if (r instanceof Rule.Gate g) {
          gates.add(g);
        } else if (r instanceof Rule.Question q) {
          questions.add(q);
        } else if (r instanceof Rule.Cause c) {
          causes.add(c);
        } else if (r instanceof Rule.Lint l) {
          lints.add(l);
        } else if (r instanceof Rule.Step st) {
          steps.add(st);
        } else if (r instanceof Rule.Prompt p) {
          prompts.add(p);
        }
      }
      questions.sort(Comparator.comparingInt(Rule.Question::level));
      for (int i = 1; i < questions.size(); i++) {
        if (questions.get(i).level() == questions.get(i - 1).level()) {
          throw new RuleFileException(questions.get(i).origin() + ": level " + questions.get(i).level()
              + " is also used by " + questions.get(i - 1).id());
        }
      }
      for (Rule.Cause c : causes) {
        if (questions.stream().noneMatch(q -> q.id().equals(c.explains()))) {
          throw new RuleFileException(c.origin() + ": cause " + c.id() + " explains unknown question '" + c.explains() + "'");
        }
      }
      for (Rule.Prompt p : prompts) {
        if (p.feeds() != null && questions.stream().noneMatch(q -> q.id().equals(p.feeds()))) {
          throw new RuleFileException(p.origin() + ": prompt " + p.id() + " feeds unknown question '" + p.feeds() + "'");
        }
      }
      causes.sort(Comparator.comparingInt(Rule.Cause::weight).reversed());
      lints.sort(Comparator.comparingInt(Rule.Lint::weight).reversed());
      steps.sort(Comparator.comparingInt(Rule.Step::step));
      return new RuleSet(List.copyOf(gates), List.copyOf(questions), List.copyOf(causes), List.copyOf(lints),
          List.copyOf(steps), List.copyOf(prompts));
    }
  }
}
