package dev.nccltriage.cli;

import dev.nccltriage.facts.Expectations;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.LogFactSet;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.PodFactSet;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.BuiltinRunner;
import dev.nccltriage.host.CommandRunner;
import dev.nccltriage.host.ExecRunner;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.host.ReplayRunner;
import dev.nccltriage.report.Input;
import dev.nccltriage.report.LogSection;
import dev.nccltriage.report.Report;
import dev.nccltriage.rules.Engine;
import dev.nccltriage.rules.LadderStep;
import dev.nccltriage.rules.RuleSet;
import dev.nccltriage.rules.Verdict;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import dev.nccltriage.source.probe.LadderSource;
import java.time.Duration;
import java.util.List;

/** Wires check and preflight: root and runner, probes, optional log, rules, one report. */
final class LadderRun {
  private LadderRun() {}

  static Report run(String command, LadderOptions o, String log, Context ctx) {
    Expectations expect = o.expectations(ctx);
    // the built-in rules (YAML) load while the probes wait for their commands
    ctx.preload().rules();
    return Roots.with(ctx, o.root, o.capture, rootDir -> {
      HostRoot root = new HostRoot(rootDir);
      // each command gets --timeout; all of them (a first round together, then the plain-text
      // fallbacks one by one) twice that, so an initContainer finishes in a known time
      Duration each = Duration.ofSeconds(o.timeout);
      CommandRunner runner = root.live()
          ? new BuiltinRunner(new ExecRunner(each, each.multipliedBy(2), ctx.env(), 1 << 20, ctx.cleanup()))
          : new ReplayRunner(rootDir);
      PodFacts pod = new LadderSource(root, runner, ctx.env(), Roots.pid(rootDir, o.pid)).probe();
      LogFacts logFacts = null;
      if (log != null) {
        StdinNotice.ifTerminal(ctx, List.of(log), "an NCCL log", "--log FILE");
        try {
          logFacts = new NcclLogSource(ctx.in(), Math.min(4, Runtime.getRuntime().availableProcessors()))
              .withProgress(TerminalProgress.forContext(ctx)).read(List.of(log), ctx.cwd());
        } catch (LogInputException e) {
          throw new NcclTriage.UsageError(e.getMessage());
        }
      }
      RuleSet rules = ctx.preload().ruleSet(o.common.rulesDir(ctx));
      FactSet facts = logFacts != null ? LogFactSet.from(logFacts, expect.hcas()) : new FactSet();
      facts.put("probe.log", logFacts != null ? "ok" : "skipped", List.of());
      FactSet containerOnly = logFacts == null ? null : jobChoices(facts);
      PodFactSet.add(facts, pod, expect, logFacts != null);
      if (containerOnly != null) {
        PodFactSet.add(containerOnly, pod, expect, false);
      }
      Engine engine = new Engine(rules);
      List<LadderStep> steps = engine.steps(facts);
      Verdict verdict = engine.evaluate(facts, logFacts == null ? List.of() : logFacts.differs(), containerOnly);
      return new Report(Report.SCHEMA_VERSION, Report.TOOL, NcclTriage.version(), command,
          Input.of(o.root, o.capture, logFacts == null ? null : logFacts.inputs()), steps, pod,
          logFacts == null ? null : LogSection.of(logFacts), verdict, null);
    });
  }

  /**
   * What the job chose, as its log shows: the environment it ran with and the transport or plugin
   * it loaded, and whether its nodes showed RDMA hardware. The container's own answers are judged
   * with these, so that a choice the job made (NCCL_IB_DISABLE, a TCPX plugin) is not taken for a
   * disagreement between log and container, while a log that used RDMA beside a container without
   * it is one, whether or not this node has an RDMA NIC.
   */
  static FactSet jobChoices(FactSet logFacts) {
    FactSet out = new FactSet();
    logFacts.asMap().forEach((name, v) -> {
      if (name.startsWith("env.") || name.equals("net.transport") || name.equals("net.rdmaSeen")) {
        out.put(name, v.value(), v.evidence());
      }
    });
    return out;
  }
}
