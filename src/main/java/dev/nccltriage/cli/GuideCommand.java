package dev.nccltriage.cli;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Expectations;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.LogFactSet;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.PodFactSet;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.IoProblems;
import dev.nccltriage.report.Input;
import dev.nccltriage.report.LogSection;
import dev.nccltriage.report.Report;
import dev.nccltriage.report.TextReport;
import dev.nccltriage.rules.Engine;
import dev.nccltriage.rules.PromptAnswers;
import dev.nccltriage.rules.Rule;
import dev.nccltriage.rules.Verdict;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.concurrent.Callable;
import org.jline.reader.Completer;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.completer.StringsCompleter;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code nccl-triage guide}: asks a person at a terminal what the given evidence (log, capture)
 * does not answer, re-evaluates the tree after each answer and ends with the report of check.
 */
final class GuideCommand implements Callable<Integer>, Specs.Modelled {
  static final String NO_TTY = "guide needs a terminal; use check or log for scripts";

  private final Context ctx;
  private final Terminal injected;

  String log;
  Path root;
  Path capture;
  Integer expectHcas;

  GuideCommand(Context ctx) {
    this(ctx, null);
  }

  /** Tests inject a terminal built over piped streams. */
  GuideCommand(Context ctx, Terminal terminal) {
    this.ctx = ctx;
    this.injected = terminal;
  }

  @Override
  public CommandSpec model() {
    CommandSpec spec = Specs.exitCodes(Specs.command(this, "guide",
        "Asks, at a terminal, only what the given evidence (--log, --root/--capture) does not answer,"
            + " shows the decision-tree path after each answer and ends with the same report as check."
            + " Tab completes answers; 'unknown' is always allowed; Ctrl-D ends with the verdict so far."),
        "0:healthy", "1:problem found", "2:usage error (or no terminal)", "3:inconclusive", "4:internal error");
    spec.addOption(Specs.option(String.class, log, v -> log = v, "--log").paramLabel("FILE")
        .description("The job's NCCL_DEBUG=INFO log.").build());
    spec.addOption(Specs.option(Path.class, root, v -> root = v, "--root").paramLabel("DIR")
        .description("A capture folder to read the Pod's facts from.").build());
    spec.addOption(Specs.option(Path.class, capture, v -> capture = v, "--capture").paramLabel("FILE.tar.gz|DIR")
        .description("A capture (archive or folder) made by `nccl-triage capture`.").build());
    spec.addOption(Specs.option(Integer.class, expectHcas, v -> expectHcas = v, "--expect-hcas").paramLabel("N")
        .description("HCA ports the Pod should have.").build());
    return spec;
  }

  @Override
  public Integer call() throws Exception {
    Terminal terminal = injected != null ? injected : openTerminal();
    try {
      return guide(terminal);
    } finally {
      if (injected == null) {
        terminal.close();
      }
    }
  }

  private Terminal openTerminal() {
    if (!ctx.stdoutIsTerminal() || !stdinIsTerminal()) {
      throw new NcclTriage.UsageError(NO_TTY);
    }
    try {
      return TerminalBuilder.builder().system(true).dumb(false).build();
    } catch (IOException | RuntimeException e) {
      // a terminal that jline cannot drive: say why, not "no terminal"
      List<String> missing = Stream.of("stty", "test").filter(c -> !onPath(c)).toList();
      String why = missing.isEmpty() ? IoProblems.describe(e)
          : "jline drives it with " + String.join(" and ", missing) + ", not found on PATH";
      throw new NcclTriage.UsageError("guide cannot open this terminal (" + why + "); use check or log instead");
    }
  }

  private boolean onPath(String command) {
    for (String dir : ctx.env().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  private static boolean stdinIsTerminal() {
    try {
      String t = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
      return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  private int guide(Terminal terminal) throws IOException {
    Engine engine = new Engine(ctx.preload().ruleSet(null));
    LogFacts logFacts = readLog();
    FactSet facts = logFacts != null ? LogFactSet.from(logFacts, expectHcas) : new FactSet();
    facts.put("probe.log", logFacts != null ? "ok" : "skipped", List.of());
    // with a log and a capture, the container's own answers weigh against the log's (as in check)
    FactSet containerOnly = logFacts != null && (root != null || capture != null) ? LadderRun.jobChoices(facts) : null;
    PodFacts pod = probePod(facts, logFacts != null);
    if (containerOnly != null) {
      PodFactSet.add(containerOnly, pod, new Expectations(expectHcas, null, null, null), false);
    }
    if (expectHcas != null && !facts.get("expect.hcas").isPresent()) {
      facts.put("expect.hcas", (long) expectHcas, List.of());
    }
    List<dev.nccltriage.facts.Difference> differs = logFacts == null ? List.of() : logFacts.differs();

    Completer[] current = {new StringsCompleter()};
    LineReader reader = LineReaderBuilder.builder().terminal(terminal)
        .completer((r, line, candidates) -> current[0].complete(r, line, candidates)).build();
    PrintWriter w = terminal.writer();
    Verdict v = engine.evaluate(facts, differs, containerOnly);
    w.println(status(v));
    asking:
    for (Rule.Prompt q : engine.rules().prompts()) {
      if (done(v)) {
        break;
      }
      if (q.facts().stream().anyMatch(n -> facts.get(n).isPresent()) || decided(v, q.feeds())) {
        continue;
      }
      List<String> allowed = new ArrayList<>(q.completions());
      allowed.add("unknown");
      current[0] = new StringsCompleter(allowed);
      String prompt = q.ask() + " [" + (q.kind().equals("choice") ? String.join("/", q.choices().keySet())
          : q.kind().equals("count") ? "number" : q.kind()) + "/unknown] ";
      while (true) {
        String line;
        try {
          line = reader.readLine(prompt);
        } catch (EndOfFileException | UserInterruptException e) {
          w.println();
          break asking;
        }
        String a = line == null ? "" : line;
        if (PromptAnswers.unknown(a)) {
          break;
        }
        Optional<Map<String, Object>> sets = PromptAnswers.interpret(q, a);
        if (sets.isPresent()) {
          // the evidence is the person's answer, word for word as it was asked
          List<Evidence> ev = List.of(new Evidence("guide", 0, "answered: " + prompt + a.strip()));
          sets.get().forEach((fact, value) -> facts.put(fact, value, ev));
          break;
        }
        w.println("  answer one of: " + String.join(", ", allowed) + " (Tab completes)");
        w.flush();
      }
      derive(facts);
      v = engine.evaluate(facts, differs, containerOnly);
      w.println(status(v));
      w.flush();
    }
    w.flush();
    Report report = new Report(Report.SCHEMA_VERSION, Report.TOOL, NcclTriage.version(), "guide",
        Input.of(root, capture, logFacts == null ? null : logFacts.inputs()), engine.steps(facts), pod,
        logFacts == null ? null : LogSection.of(logFacts), v, null);
    new TextReport(ctx.width(), ctx.colour()).write(report, ctx.out());
    ctx.out().flush();
    return Reports.exitCode(report, FailOn.problem);
  }

  /** The HCA-per-GPU ratio and the deficit, when the answers give their parts. */
  private void derive(FactSet f) {
    var hcas = f.get("ib.hcaPortsMin").or(() -> f.get("pod.hcas"));
    var gpus = f.get("job.localGpus");
    if (hcas.isPresent() && gpus.isPresent() && f.get("ib.hcaPerGpu").isEmpty()) {
      double g = ((Number) gpus.get().value()).doubleValue();
      if (g > 0) {
        f.put("ib.hcaPerGpu", ((Number) hcas.get().value()).doubleValue() / g, hcas.get().evidence());
      }
    }
    if (hcas.isPresent() && expectHcas != null && f.get("ib.hcaDeficit").isEmpty()) {
      f.put("ib.hcaDeficit", expectHcas - ((Number) hcas.get().value()).longValue(), hcas.get().evidence());
    }
  }

  static boolean done(Verdict v) {
    return v.status().equals("problem") && v.candidates().size() == 1;
  }

  private static boolean decided(Verdict v, String treeQuestion) {
    return treeQuestion != null && v.path().stream()
        .anyMatch(a -> a.question().equals(treeQuestion) && !a.answer().equals("unknown"));
  }

  /** One line: the tree path so far and the verdict it gives. */
  static String status(Verdict v) {
    StringBuilder sb = new StringBuilder("path:");
    for (Verdict.Answer a : v.path()) {
      sb.append(" ").append(a.question()).append('=').append(a.answer());
    }
    return sb.append("  -> ").append(v.status()).append(v.layer().equals("none") || v.layer().equals("unknown")
        ? "" : " (" + v.layer() + ")").toString();
  }

  private LogFacts readLog() {
    if (log == null) {
      return null;
    }
    try {
      return new NcclLogSource(ctx.in(), Math.min(4, Runtime.getRuntime().availableProcessors()))
          .read(List.of(log), ctx.cwd());
    } catch (LogInputException e) {
      throw new NcclTriage.UsageError(e.getMessage());
    }
  }

  private PodFacts probePod(FactSet facts, boolean logGiven) {
    if (root == null && capture == null) {
      return null;
    }
    PodFacts pod = Roots.replay(ctx, root, capture);
    PodFactSet.add(facts, pod, new Expectations(expectHcas, null, null, null), logGiven);
    return pod;
  }
}
