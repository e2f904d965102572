package dev.nccltriage.cli;

import dev.nccltriage.facts.FactVocabulary;
import dev.nccltriage.rules.Rule;
import dev.nccltriage.rules.RuleSet;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code nccl-triage rules}: lists the rules and prints the decision tree (or the fact vocabulary). */
final class RulesCommand implements Callable<Integer>, Specs.Modelled {
  private final Context ctx;
  Path rulesDir;
  boolean facts;

  RulesCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public CommandSpec model() {
    CommandSpec spec = Specs.command(this, "rules",
        "Lists the loaded rules and prints the decision tree; --facts prints the fact vocabulary.");
    spec.addOption(Specs.rules(rulesDir, v -> rulesDir = v));
    spec.addOption(Specs.flag(v -> facts = v, "--facts").description("Print the facts rule conditions may use.").build());
    return spec;
  }

  @Override
  public Integer call() {
    PrintStream out = ctx.out();
    if (facts) {
      if (rulesDir != null) {
        ctx.preload().ruleSet(ctx.cwd().resolve(rulesDir)); // the facts are the same; a broken DIR is still said
      }
      FactVocabulary.entries().values().forEach(e ->
          out.printf("%-26s %-8s %s%n", e.name(), e.type().name().toLowerCase(java.util.Locale.ROOT), e.meaning()));
      return 0;
    }
    RuleSet set = ctx.preload().ruleSet(rulesDir == null ? null : ctx.cwd().resolve(rulesDir));
    out.println("Decision tree, asked in order. A 'no' of severity problem makes the verdict a problem; the first");
    out.println("'no' whose cause the log shows names the layer, and a problem lint outranks a 'no' that only a");
    out.println("fallback explains.");
    for (Rule.Question q : set.questions()) {
      out.printf("%n  Q%d %s [%s]%n      %s%n", q.level(), q.id(), q.severity(), q.ask());
      for (Rule.Cause c : set.causes()) {
        if (c.explains().equals(q.id())) {
          out.printf("      no <- %-26s %-18s (weight %d)%n", c.id(), c.layer().id(), c.weight());
        }
      }
      for (Rule.Fallback f : q.fallback()) {
        out.printf("      no, no cause logged -> %s%n", f.layer().id());
      }
    }
    out.printf("%nGates:%n");
    set.gates().forEach(g -> out.printf("  %-28s -> %s%n", g.id(), g.status()));
    out.printf("%nLints:%n");
    set.lints().forEach(l -> out.printf("  %-32s %-8s %-18s %s%n", l.id(), l.severity(), l.layer().id(), l.origin()));
    out.printf("%nGuide prompts (asked in order while their question is open):%n");
    set.prompts().forEach(p -> out.printf("  %-26s %-7s %-18s %s%n", p.id(), p.kind(),
        p.feeds() == null ? "-" : p.feeds(), p.ask()));
    out.printf("%n%d rules: %d gates, %d questions, %d causes, %d lints, %d steps, %d prompts%n", set.all().size(),
        set.gates().size(), set.questions().size(), set.causes().size(), set.lints().size(), set.steps().size(),
        set.prompts().size());
    return 0;
  }
}
