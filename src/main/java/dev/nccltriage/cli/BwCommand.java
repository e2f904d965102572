package dev.nccltriage.cli;


import dev.nccltriage.facts.BwFactSet;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.FactValue;
import dev.nccltriage.facts.LogFactSet;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.host.InputFiles;
import dev.nccltriage.host.IoProblems;
import dev.nccltriage.report.BwSection;
import dev.nccltriage.report.Input;
import dev.nccltriage.report.JsonReport;
import dev.nccltriage.report.LogSection;
import dev.nccltriage.report.Report;
import dev.nccltriage.rules.Engine;
import dev.nccltriage.rules.Rule;
import dev.nccltriage.rules.RuleSet;
import dev.nccltriage.rules.Verdict;
import dev.nccltriage.source.bw.BwRun;
import dev.nccltriage.source.bw.LineTee;
import dev.nccltriage.source.bw.NcclTestsParser;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code nccl-triage bw [FILE|-]}: what an nccl-tests busbw says. The hypothesis is the first rule of
 * rules/bw.yaml that fires (its id names it); a companion NCCL log (--log, or NCCL lines in the same
 * output) adds its facts and its own verdict. Wiring only.
 */
final class BwCommand implements Callable<Integer>, Specs.Modelled {
  /** bw.yaml rule id -> hypothesis, and the cause a log confirmed. */
  static final Map<String, String[]> HYPOTHESES = Map.of(
      "B-single-node", new String[] {"single-node", null},
      "B-too-small", new String[] {"too-small", null},
      "B-log-socket", new String[] {"socket-fallback", "socket"},
      "B-log-few-nics", new String[] {"no-gdr-or-few-nics", "few-nics"},
      "B-log-no-gdr", new String[] {"no-gdr-or-few-nics", "no-gdr"},
      "B-socket-fallback", new String[] {"socket-fallback", null},
      "B-no-gdr-or-few-nics", new String[] {"no-gdr-or-few-nics", null},
      "B-healthy", new String[] {"healthy", null},
      "B-unknown", new String[] {"unknown", null});

  /** Longer lines are cut (an nccl-tests line is under 200 bytes; the log reader cuts at the same length). */
  private static final int MAX_LINE = 64 * 1024;

  private final Context ctx;

  String file;
  Integer hcas;
  Double rate;
  Path root;
  Path capture;
  String log;
  OutputFormat output = OutputFormat.text;
  final CommonOptions common = new CommonOptions();

  BwCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public CommandSpec model() {
    CommandSpec spec = Specs.exitCodes(Specs.command(this, "bw",
        "Reads nccl-tests output (all_reduce_perf and friends; a file, or '-' for stdin) and compares"
            + " the large-message busbw with what the node's NICs carry: healthy, socket fallback, no GDR or few"
            + " NICs, single node, too small, or unknown."),
        "0:healthy", "1:problem (socket fallback, no GDR or few NICs)", "2:usage error",
        "3:inconclusive (single node, too small, no expected rate)", "4:internal error");
    spec.addPositional(Specs.positional(file, v -> file = v).paramLabel("FILE").arity("0..1")
        .description("nccl-tests output; '-' or none reads stdin.").build());
    spec.addOption(Specs.option(Integer.class, hcas, v -> hcas = v, "--hcas").paramLabel("N")
        .description("HCA ports per node (one NIC per GPU: the GPUs per node).").build());
    spec.addOption(Specs.option(Double.class, rate, v -> rate = v, "--rate").paramLabel("GBIT")
        .description("Rate of one port in Gb/s, e.g. 400.").build());
    spec.addOption(Specs.option(Path.class, root, v -> root = v, "--root").paramLabel("DIR")
        .description("Take the HCA count and port rate from a capture folder (nccl-triage capture).").build());
    spec.addOption(Specs.option(Path.class, capture, v -> capture = v, "--capture")
        .paramLabel("FILE.tar.gz|DIR").description("Take the HCA count and port rate from a capture archive or folder.")
        .build());
    spec.addOption(Specs.option(String.class, log, v -> log = v, "--log").paramLabel("FILE")
        .description("The job's NCCL_DEBUG=INFO log, to pick between hypotheses.").build());
    spec.addOption(Specs.output(output, v -> output = v));
    return common.addTo(spec);
  }

  @Override
  public Integer call() throws Exception {
    Supplier<JsonReport> json = Reports.prepare(output, ctx);
    if (hcas != null && hcas < 1) {
      throw new NcclTriage.UsageError("--hcas must be at least 1");
    }
    if (rate != null && !(rate > 0 && rate <= dev.nccltriage.source.probe.parse.SysfsPort.MAX_GBPS)) {
      throw new NcclTriage.UsageError("--rate must be a port's rate in Gb/s, above 0 and at most "
          + (long) dev.nccltriage.source.probe.parse.SysfsPort.MAX_GBPS + " (got " + rate + ")");
    }
    String name = file == null ? "-" : file;
    StdinNotice.ifTerminal(ctx, List.of(name), "nccl-tests output", "nccl-triage bw FILE");
    NcclTestsParser parser = new NcclTestsParser();
    LogFacts embedded = null;
    LogInputException embeddedError = null;
    Input input;
    try (InputStream raw = open(name)) {
      LineTee tee = new LineTee(gunzipped(raw), parser::accept, MAX_LINE);
      if (log == null) {
        // NCCL lines in the same output are read as a log in the same pass: the input is read once,
        // never held (it may be stdin). Used only when the output has NCCL lines, as before. Its
        // evidence names the output's file.
        try {
          embedded = new NcclLogSource(tee, 1).readStream(name);
        } catch (LogInputException e) {
          embeddedError = e;
        }
      }
      tee.drain();
      input = Input.ncclTests(name, tee.lines(), parser.ncclLines(), tee.truncatedLines());
    } catch (IOException e) {
      throw new NcclTriage.UsageError(name + ": cannot read: " + e.getMessage());
    }
    BwRun run = parser.finish(name.equals("-") ? null : name);
    if (run.rows().isEmpty()) {
      throw new NcclTriage.UsageError(name + ": no nccl-tests size rows found");
    }
    RuleSet rules = ctx.preload().ruleSet(common.rulesDir(ctx));
    LogFacts logFacts = null;
    try {
      if (log != null) {
        logFacts = new NcclLogSource(ctx.in(), 1).read(List.of(log), ctx.cwd());
      } else if (run.ncclLines() > 0) {
        if (embeddedError != null) {
          throw embeddedError;
        }
        logFacts = embedded;
      }
    } catch (LogInputException e) {
      throw new NcclTriage.UsageError(e.getMessage());
    }
    if (root != null || capture != null) {
      // what the Pod showed: its ACTIVE ports and their slowest rate, unless given on the command line
      dev.nccltriage.facts.PodFacts pod = Roots.replay(ctx, root, capture);
      List<dev.nccltriage.facts.PodFacts.Port> active = pod.hcas().ports().stream()
          .filter(p -> "ACTIVE".equals(p.state())).toList();
      // the node's capacity is its HCAs (sysfs lists them all), not just those the Pod was given:
      // a Pod with 2 of 8 NICs must read as "few NICs", not as healthy against 2 NICs' worth
      if (hcas == null && (!active.isEmpty() || !pod.hcas().onNode().isEmpty())) {
        hcas = Math.max(active.size(), pod.hcas().onNode().size());
      }
      if (rate == null) {
        rate = active.stream().map(dev.nccltriage.facts.PodFacts.Port::rateGbps).filter(r -> r != null)
            .min(Double::compare).orElse(null);
      }
    }
    FactSet facts = BwFactSet.from(run, hcas, rate, logFacts == null ? null : LogFactSet.from(logFacts, hcas));
    Engine engine = new Engine(rules);
    Rule.Lint chosen = rules.lints().stream().filter(l -> HYPOTHESES.containsKey(l.id()))
        .filter(l -> Engine.outcome(l, facts).equals("fires")).findFirst().orElse(null);
    String[] hyp = chosen == null ? new String[] {"unknown", null} : HYPOTHESES.get(chosen.id());
    Verdict bwVerdict = bwVerdict(engine, rules, facts, chosen, hyp[0]);
    Verdict verdict = bwVerdict;
    if (logFacts != null) {
      Verdict logVerdict = engine.evaluate(facts, logFacts.differs());
      verdict = logVerdict.status().equals("problem") ? logVerdict
          : new Verdict(bwVerdict.status(), bwVerdict.layer(), bwVerdict.summary(), bwVerdict.candidates(),
              logVerdict.path(), bwVerdict.fix(), bwVerdict.probe(), logVerdict.findings(), logVerdict.differs(),
              bwVerdict.advice());
    }
    BwSection section = section(run, facts, hyp, chosen);
    // the output, the capture that gave the NICs, the companion log (the output itself when embedded)
    List<Input> inputs = new ArrayList<>();
    inputs.add(input);
    inputs.addAll(Input.of(root, capture, log == null ? null : logFacts.inputs()));
    Report report = new Report(Report.SCHEMA_VERSION, Report.TOOL, NcclTriage.version(), "bw", inputs,
        null, null, logFacts == null ? null : LogSection.of(logFacts), verdict, section);
    Reports.render(report, output, ctx, json);
    return Reports.exitCode(verdict, common.failOn);
  }

  private InputStream open(String name) {
    if (name.equals("-")) {
      refuseEndless(name, InputFiles.endless(ctx.in()));
      return new FilterInputStream(ctx.in()) {
        @Override
        public void close() {
          // stdin is not ours to close
        }
      };
    }
    Path path = ctx.cwd().resolve(name);
    if (Files.isDirectory(path)) {
      throw new NcclTriage.UsageError(name + ": is a directory, not nccl-tests output");
    }
    refuseEndless(name, InputFiles.endless(path));
    try {
      return InputFiles.open(path);
    } catch (FileNotFoundException e) {
      throw new NcclTriage.UsageError(name + ": " + IoProblems.describeOpen(e, path));
    }
  }

  /** A device that never ends ({@link InputFiles#endless}) is a usage error. */
  private static void refuseEndless(String name, String why) {
    if (why != null) {
      throw new NcclTriage.UsageError(name + ": " + why.replace("a log file", "nccl-tests output"));
    }
  }

  /** The text of the output: gunzipped when it starts with gzip's magic bytes. */
  private static InputStream gunzipped(InputStream raw) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    in.mark(2);
    int b0 = in.read();
    int b1 = in.read();
    in.reset();
    return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
  }

  private static Verdict bwVerdict(Engine engine, RuleSet rules, FactSet facts, Rule.Lint chosen, String hypothesis) {
    String status = switch (hypothesis) {
      case "healthy" -> "healthy";
      case "socket-fallback", "no-gdr-or-few-nics" -> "problem";
      default -> "inconclusive";
    };
    String layer = status.equals("healthy") ? "none" : "unknown";
    List<Verdict.Finding> findings = new ArrayList<>();
    for (Rule.Lint l : rules.lints()) {
      if (l != chosen && l.id().startsWith("B-") && Engine.outcome(l, facts).equals("fires")) {
        findings.add(new Verdict.Finding(l.id(), l.severity(), l.layer().id(), Engine.render(l.message(), facts),
            Engine.render(l.fix(), facts), List.of()));
      }
    }
    List<String> advice = new ArrayList<>();
    if (Boolean.TRUE.equals(facts.get("bw.wrong").map(FactValue::value).orElse(false))) {
      advice.add("nccl-tests reported wrong values (#wrong above 0 or out-of-bounds values): the numbers may not"
          + " be trustworthy; check the GPUs and the NCCL version before reading the bandwidth.");
    }
    String summary = chosen == null ? "No bw rule fired." : Engine.render(chosen.message(), facts);
    String fix = chosen == null ? null : Engine.render(chosen.fix(), facts);
    return new Verdict(status, layer, summary, List.of(), List.of(), fix, null, findings, List.of(), advice);
  }

  private static BwSection section(BwRun run, FactSet facts, String[] hyp, Rule.Lint chosen) {
    List<BwSection.Size> sizes = run.rows().stream().map(r -> new BwSection.Size(r.bytes(), r.type(),
        r.outOfPlace().busbw(), r.inPlace() == null ? null : r.inPlace().busbw(), r.wrong())).toList();
    return new BwSection(run.collective(), run.collectiveFrom(), run.generation(),
        run.ranks() == 0 ? null : (int) Math.min(run.ranks(), Integer.MAX_VALUE),
        run.ranks() == 0 || !run.allHosts() ? null : run.hosts().size(),
        run.hosts(), num(facts, "bw.busbw"), BwFactSet.busbwBasis(run), num(facts, "bw.peakBusbw"),
        run.avgBusbw(), num(facts, "bw.expected"),
        facts.get("bw.hcas").map(v -> ((Number) v.value()).intValue()).orElse(null), num(facts, "bw.rateGbps"),
        num(facts, "bw.ratio"), hyp[0], hyp[1], chosen == null ? null : chosen.id(),
        Boolean.TRUE.equals(facts.get("bw.wrong").map(FactValue::value).orElse(false)), run.maxBytes(), sizes);
  }

  private static Double num(FactSet facts, String name) {
    return facts.get(name).map(v -> ((Number) v.value()).doubleValue()).orElse(null);
  }
}
