package dev.nccltriage.cli;

import dev.nccltriage.report.JsonReport;
import dev.nccltriage.rules.Rule;
import dev.nccltriage.rules.RuleFileException;
import dev.nccltriage.rules.RuleLoader;
import dev.nccltriage.rules.RuleSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Work a command will need whatever its options say: the built-in rules (YAML, ~70 ms when the JVM
 * is cold) and the JSON writer (Jackson's generator classes: 20 ms less on a small log's wall than made
 * on first use). Started from {@link Main} before picocli builds the command
 * line, they run on a core that is idle during start-up instead of competing with the parse later.
 * Started on first use otherwise (tests, other commands). Each is made at most once.
 */
final class Preload {
  /** Commands that evaluate the built-in rules. */
  private static final Set<String> RULES = Set.of("log", "check", "preflight", "lint", "bw");

  private Background<List<Rule>> rules;
  private Background<JsonReport> json;

  /** Nothing started: each piece starts when a command first asks for it. */
  static Preload lazy() {
    return new Preload();
  }

  /**
   * Starts what the command named first in {@code args} will ask for. A guess from the raw
   * arguments can only start work early or not: the command still asks, and gets the same.
   */
  static Preload forArgs(String... args) {
    Preload p = new Preload();
    if (args.length > 0 && RULES.contains(args[0])) {
      p.rules();
      if (args[0].equals("preflight") || wantsJson(args)) {
        p.json();
      }
    }
    return p;
  }

  private static boolean wantsJson(String[] args) {
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.equals("-ojson") || a.equals("--output=json")
          || (a.equals("-o") || a.equals("--output")) && i + 1 < args.length && args[i + 1].equals("json")) {
        return true;
      }
    }
    return false;
  }

  /** The built-in rules; a broken built-in file is a usage error when they are asked for. */
  synchronized Background<List<Rule>> rules() {
    if (rules == null) {
      rules = Background.start("rules", () -> {
        try {
          return new RuleLoader().loadBuiltIn();
        } catch (RuleFileException e) {
          throw new NcclTriage.UsageError(e.getMessage());
        }
      });
    }
    return rules;
  }

  /** The built-in rules and those of {@code extraDir} (null: none); a bad rule file is a usage error. */
  RuleSet ruleSet(Path extraDir) {
    try {
      return new RuleLoader().loadOnto(rules().get(), extraDir);
    } catch (RuleFileException e) {
      throw new NcclTriage.UsageError(e.getMessage());
    }
  }

  synchronized boolean started(boolean rulesOrJson) {
    return (rulesOrJson ? rules : json) != null;
  }

  synchronized Background<JsonReport> json() {
    if (json == null) {
      json = Background.start("json", JsonReport::new);
    }
    return json;
  }
}
