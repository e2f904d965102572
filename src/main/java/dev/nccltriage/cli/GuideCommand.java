package dev.nccltriage.cli;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Expectations;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.LogFactSet;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.PodFactSet;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.IoProblems;
import dev.nccltriage.report.LogSection;
import dev.nccltriage.report.Report;
import dev.nccltriage.report.TextReport;
import dev.nccltriage.rules.Engine;
import dev.nccltriage.rules.Verdict;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.jline.reader.Completer;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.completer.StringsCompleter;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nccl-triage guide}: asks a person at a terminal what the given evidence (log, capture)
 * does not answer, re-evaluates the tree after each answer and ends with the report of check.
 */
@Command(name = "guide", mixinStandardHelpOptions = true,
    description = "Asks, at a terminal, only what the given evidence (--log, --root/--capture) does not answer,"
        + " shows the decision-tree path after each answer and ends with the same report as check."
        + " Tab completes answers; 'unknown' is always allowed; Ctrl-D ends with the verdict so far.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:healthy", "1:problem found", "2:usage error (or no terminal)", "3:inconclusive",
      "4:internal error"})
final class GuideCommand implements Callable<Integer> {
  static final String NO_TTY = "guide needs a terminal; use check or log for scripts";

  private final Context ctx;
  private final Terminal injected;

  @Option(names = "--log", paramLabel = "FILE", description = "The job's NCCL_DEBUG=INFO log.")
  String log;

  @Option(names = "--root", paramLabel = "DIR", description = "A capture folder to read the Pod's facts from.")
  Path root;

  @Option(names = "--capture", paramLabel = "FILE.tar.gz|DIR", description = "A capture (archive or folder) made by `nccl-triage capture`.")
  Path capture;

  @Option(names = "--expect-hcas", paramLabel = "N", description = "HCA ports the Pod should have.")
  Integer expectHcas;

  GuideCommand(Context ctx) {
    this(ctx, null);
  }

  /** Tests inject a terminal built over piped streams. */
  GuideCommand(Context ctx, Terminal terminal) {
    this.ctx = ctx;
    this.injected = terminal;
  }

  /** One question to a person, the facts its answer sets, and the tree question it feeds. */
  record Question(String id, String prompt, List<String> facts, String feeds, List<String> completions,
      BiConsumer<FactSet, Answer> apply) {}

  /** A normalised answer: the text as typed and, for yes/no questions, the boolean. */
  record Answer(String text, Evidence evidence) {
    List<Evidence> ev() {
      return List.of(evidence);
    }

    boolean yes() {
      return text.equals("yes");
    }
  }

  private static final List<String> YN = List.of("yes", "no", "unknown");

  // Each answer sets only facts that say exactly what the person answered: "not empty" is not a
  // count of uverbs devices, and "how many HCAs" is not how many ports NCCL listed.
  static final List<Question> QUESTIONS = List.of(
      new Question("uverbs", "Is /dev/infiniband empty in the Pod? [yes/no/unknown]",
          List.of("pod.devInfinibandEmpty", "pod.uverbs"), "Q1-transport", YN, (f, a) -> {
            f.put("pod.devInfinibandEmpty", a.yes(), a.ev());
            if (a.yes()) {
              f.put("pod.uverbs", 0L, a.ev());
            }
          }),
      new Question("socket",
          "Does the NCCL log say `Using network Socket` (rather than IB or an RDMA plugin)? [yes/no/unknown]",
          List.of("net.rdma"), "Q1-transport", YN, (f, a) -> f.put("net.rdma", !a.yes(), a.ev())),
      new Question("nodes", "Does the job run on more than one node? [yes/no/unknown]",
          List.of("net.usesNetwork", "job.singleNode"), "Q1-transport", YN, (f, a) -> {
            f.put("net.usesNetwork", a.yes(), a.ev());
            f.put("job.singleNode", !a.yes(), a.ev());
          }),
      new Question("ports", "Is any HCA port ACTIVE (ibstat: State: Active)? [yes/no/unknown]",
          List.of("pod.portsAnyActive", "pod.portsActive"), "Q1-transport", YN, (f, a) -> {
            f.put("pod.portsAnyActive", a.yes(), a.ev());
            if (!a.yes()) {
              f.put("pod.portsActive", 0L, a.ev());
            }
          }),
      new Question("hcas", "How many HCAs does the Pod see? [number/unknown]",
          List.of("pod.hcas"), "Q2-hca-count", List.of("1", "2", "4", "8", "unknown"),
          (f, a) -> f.put("pod.hcas", count(a.text()), a.ev())),
      new Question("gpus", "How many GPUs per node does the job use? [number/unknown]",
          List.of("job.localGpus"), "Q2-hca-count", List.of("1", "2", "4", "8", "unknown"),
          (f, a) -> f.put("job.localGpus", count(a.text()), a.ev())),
      new Question("oob", "What interface does the OOB handshake / NCCL_SOCKET_IFNAME use? [name/unknown]",
          List.of("net.oobInterface"), "Q3-oob-interface", List.of("eth0", "net1", "ib0", "unknown"),
          (f, a) -> f.put("net.oobInterface", a.text(), a.ev())),
      new Question("gdr", "Do the network channel lines say /GDRDMA? [all/some/none/unknown]",
          List.of("gdr.channels"), "Q4-gpudirect", List.of("all", "some", "none", "unknown"),
          (f, a) -> f.put("gdr.channels", a.text(), a.ev())),
      new Question("peermem",
          "Does /sys/kernel/mm/memory_peers/nv_mem exist on the node (nvidia_peermem registered)? [yes/no/unknown]",
          List.of("pod.peermemRegistered"), "Q4-gpudirect", YN,
          (f, a) -> f.put("pod.peermemRegistered", a.yes(), a.ev())),
      new Question("memlock", "Max locked memory (ulimit -l, e.g. unlimited, 64K, 8M)? [size/unknown]",
          List.of("pod.memlockBytes", "pod.memlock"), null, List.of("unlimited", "64K", "unknown"), (f, a) -> {
            long b = Expectations.parseSize(a.text());
            f.put("pod.memlockBytes", b, a.ev());
            f.put("pod.memlock", b == -1 ? "unlimited" : b + " bytes", a.ev());
          }),
      new Question("ipclock", "Is CAP_IPC_LOCK set on the training container? [yes/no/unknown]",
          List.of("pod.ipcLock"), null, YN, (f, a) -> f.put("pod.ipcLock", a.yes(), a.ev())));

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
    PodFacts pod = probePod(facts, logFacts != null);
    if (expectHcas != null && !facts.get("expect.hcas").isPresent()) {
      facts.put("expect.hcas", (long) expectHcas, List.of());
    }
    List<dev.nccltriage.facts.Difference> differs = logFacts == null ? List.of() : logFacts.differs();

    Completer[] current = {new StringsCompleter(YN)};
    LineReader reader = LineReaderBuilder.builder().terminal(terminal)
        .completer((r, line, candidates) -> current[0].complete(r, line, candidates)).build();
    PrintWriter w = terminal.writer();
    Verdict v = engine.evaluate(facts, differs);
    w.println(status(v));
    asking:
    for (Question q : QUESTIONS) {
      if (done(v)) {
        break;
      }
      if (q.facts().stream().anyMatch(n -> facts.get(n).isPresent()) || decided(v, q.feeds())
          || q.id().equals("gdr") && facts.get("gdr.receiveChannels").isPresent()) {
        continue;
      }
      current[0] = new StringsCompleter(q.completions());
      while (true) {
        String line;
        try {
          line = reader.readLine(q.prompt() + " ");
        } catch (EndOfFileException | UserInterruptException e) {
          w.println();
          break asking;
        }
        String a = line == null ? "" : line.strip();
        if (!q.id().equals("oob")) {
          a = a.toLowerCase(Locale.ROOT);
        }
        if (a.equals("unknown") || a.equals("?")) {
          break;
        }
        try {
          if (!a.isEmpty() && (!q.completions().equals(YN) || YN.contains(a))
              && (!q.id().equals("gdr") || List.of("all", "some", "none").contains(a))) {
            q.apply().accept(facts, new Answer(a, new Evidence("guide", 0, "answered: " + q.prompt() + " " + a)));
            break;
          }
        } catch (IllegalArgumentException e) {
          // a bad number or size: ask again
        }
        w.println("  answer one of: " + String.join(", ", q.completions()) + " (Tab completes)");
        w.flush();
      }
      derive(facts);
      v = engine.evaluate(facts, differs);
      w.println(status(v));
      w.flush();
    }
    w.flush();
    Report report = new Report(Report.SCHEMA_VERSION, "nccl-triage", NcclTriage.version(), "guide",
        logFacts == null ? List.of() : logFacts.inputs(), engine.steps(facts), pod,
        logFacts == null ? null : LogSection.of(logFacts), v, null);
    new TextReport(ctx.width(), ctx.colour()).write(report, ctx.out());
    ctx.out().flush();
    return Reports.exitCode(report, FailOn.problem);
  }

  /** A count the user typed: "-1" or "99999999999999999999" is asked again, not taken. */
  private static long count(String text) {
    long n = Long.parseLong(text);
    if (n < 0 || n > 1_000_000) {
      throw new IllegalArgumentException("not a count: " + text);
    }
    return n;
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
