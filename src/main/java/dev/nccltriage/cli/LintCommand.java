package dev.nccltriage.cli;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Version;
import dev.nccltriage.report.Input;
import dev.nccltriage.report.LintReport;
import dev.nccltriage.report.LintSarif;
import dev.nccltriage.report.YamlReport;
import dev.nccltriage.rules.Engine;
import dev.nccltriage.rules.Rule;
import dev.nccltriage.rules.RuleSet;
import dev.nccltriage.rules.Verdict;
import dev.nccltriage.source.k8s.ManifestException;
import dev.nccltriage.source.k8s.ManifestSource;
import dev.nccltriage.source.k8s.PodTemplate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code nccl-triage lint MANIFEST...|-}: static checks of Kubernetes YAML. Runs only the lints whose
 * id starts with {@code K-} (rules/lint-k8s.yaml) or {@code L-env-} (rules/lints-env.yaml), once per
 * pod template; no decision tree. Wiring only.
 */
final class LintCommand implements Callable<Integer>, Specs.Modelled {
  /** The lints this command runs: Kubernetes lints and the NCCL env lints. */
  static final Predicate<Rule.Lint> LINTS = l -> l.id().startsWith("K-") || l.id().startsWith("L-env-");

  /** Findings of one rule shown in full; past this they are counted (a cluster can repeat one mistake 10^5 times). */
  static final int MAX_FINDINGS_PER_RULE = 200;

  private final Context ctx;

  List<String> files;

  /** lint's forms: the report's, and SARIF for code scanning. */
  enum Format { text, json, yaml, markdown, sarif }

  Format output = Format.text;
  List<String> exclude = new ArrayList<>();
  List<String> rdmaResources = new ArrayList<>();
  String ncclVersion;
  final CommonOptions common = new CommonOptions();

  LintCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public CommandSpec model() {
    CommandSpec spec = Specs.exitCodes(Specs.command(this, "lint",
        "Checks Kubernetes manifests (multi-document YAML: Pod, Job, Deployment, StatefulSet, PyTorchJob,"
            + " MPIJob, Volcano Job, JobSet, LeaderWorkerSet ...) for what makes NCCL fall back, before the job runs."),
        "0:nothing at or above --fail-on", "1:problems found", "2:usage error (bad YAML: file:line)",
        "3:no pod template in the input", "4:internal error");
    spec.addPositional(Specs.positionals(v -> files = v).paramLabel("MANIFEST").arity("0..*")
        .description("YAML files; '-' or none reads stdin.").build());
    spec.addOption(Specs.option(Format.class, output, v -> output = v, "-o", "--output").paramLabel("FORMAT")
        .description("text (default), json, yaml, markdown or sarif. json and yaml are one document, whose JSON"
            + " Schema is in the jar; sarif is SARIF 2.1.0 for GitHub and GitLab code scanning.").build());
    spec.addOption(Specs.listOption(exclude, v -> exclude = v, "--exclude").paramLabel("RULE").splitRegex(",")
        .description("Do not report this lint (repeatable, or a comma list), as the annotation"
            + " nccl-triage.io/ignore: RULE[,RULE] does for one object or pod template. Suppressed findings are"
            + " counted, and do not count toward the exit code.").build());
    spec.addOption(Specs.listOption(rdmaResources, v -> rdmaResources = v, "--rdma-resource").paramLabel("NAME")
        .description("A site resource name that gives RDMA devices (repeatable), besides rdma/*, nvidia.com/hostdev,"
            + " mellanox.com/*, *sriov*, *rdma*.").build());
    spec.addOption(Specs.option(String.class, ncclVersion, v -> ncclVersion = v, "--nccl-version").paramLabel("X.Y.Z")
        .description("The NCCL version the image ships (as NCCL_DEBUG=INFO prints it, e.g. 2.21.5): a manifest does"
            + " not say it, and the env lints that depend on it (NCCL_IB_GID_INDEX, NCCL_IB_TIMEOUT) run only with it.")
        .build());
    return common.addTo(spec);
  }

  @Override
  public Integer call() throws Exception {
    List<String> inputs = files == null || files.isEmpty() ? List.of("-") : files;
    StdinNotice.ifTerminal(ctx, inputs, "Kubernetes YAML", "nccl-triage lint FILE.yaml (or helm template ... | nccl-triage lint -)");
    Version version = null;
    if (ncclVersion != null) {
      if (!ncclVersion.matches("\\d{1,6}\\.\\d{1,6}(\\.\\d{1,6})?(\\+\\S*)?")) {
        throw new NcclTriage.UsageError("--nccl-version must look like 2.21.5 or 2.21.5+cuda12.4 (got '"
            + ncclVersion + "')");
      }
      version = Version.parse(ncclVersion);
    }
    RuleSet rules = ctx.preload().ruleSet(common.rulesDir(ctx));
    List<Rule.Lint> run = rules.lints().stream().filter(LINTS).toList();
    Set<String> excluded = new LinkedHashSet<>();
    for (String e : exclude) {
      String id = e.strip();
      if (run.stream().noneMatch(l -> l.id().equals(id))) {
        throw new NcclTriage.UsageError("--exclude " + id + ": lint runs no rule of that id (nccl-triage rules lists"
            + " them: K-* and L-env-*)");
      }
      excluded.add(id);
    }
    Version stated = version;
    ManifestSource source = new ManifestSource(ctx.in(), Set.copyOf(rdmaResources));
    Engine engine = new Engine(rules);
    LintReport.Findings findings = new LintReport.Findings(MAX_FINDINGS_PER_RULE);
    List<Input> inputStats = new ArrayList<>();
    long templates = 0;
    for (String in : inputs) {
      ManifestSource.Counts counts;
      try {
        // each template is linted as it is read and then dropped: a cluster's worth of YAML is streamed
        counts = source.read(in, ctx.cwd(), t -> lint(engine, t, stated, excluded, findings));
      } catch (ManifestException e) {
        throw new NcclTriage.UsageError(e.getMessage());
      }
      inputStats.add(Input.manifest(in, counts.lines(), counts.objects(), counts.templates()));
      templates += counts.templates();
    }
    String status = templates == 0 ? "no-pod-template" : findings.count("problem") > 0 ? "problem"
        : findings.count("warn") > 0 ? "warn" : "healthy";
    LintReport report = LintReport.of(NcclTriage.version(), inputStats, status, findings);
    switch (output) {
      case json -> ctx.preload().json().get().write(report, ctx.out());
      case yaml -> new YamlReport().write(report, ctx.out());
      case sarif -> ctx.preload().json().get().write(LintSarif.document(report, run), ctx.out());
      case markdown -> report.writeMarkdown(ctx.out());
      default -> report.writeText(ctx.out(), ctx.width());
    }
    ctx.out().flush();
    if (templates == 0) {
      ctx.err().println("nccl-triage: no pod template found in " + String.join(", ", inputs));
      return ExitCode.INCONCLUSIVE.code();
    }
    boolean fail = findings.count("problem") > 0 || (common.failOn == FailOn.warn && findings.count("warn") > 0);
    return fail ? ExitCode.PROBLEM.code() : ExitCode.HEALTHY.code();
  }

  private static void lint(Engine engine, PodTemplate t, Version version, Set<String> excluded,
      LintReport.Findings into) {
    if (version != null) {
      // stated by the user, so no line of the manifest is its evidence (as with --expect-hcas)
      t.facts().put("log.ncclVersion", version, List.of());
    }
    Predicate<String> suppressed = id -> excluded.contains(id) || t.ignore().contains(id);
    List<LintReport.Finding> mine = new ArrayList<>();
    for (Verdict.Finding f : engine.lints(t.facts(), LINTS, id -> !suppressed.test(id) && into.shows(id))) {
      if (suppressed.test(f.rule())) {
        into.suppress();
        continue;
      }
      // a lint without evidence points at the template; the line's text is not at hand here: unknown
      Evidence at = f.evidence().isEmpty() ? new Evidence(t.file(), t.line(), null) : f.evidence().get(0);
      String container = t.containerAt().get(at.line());
      mine.add(new LintReport.Finding(t.file(), at.line(), f.rule(), f.severity(), f.layer(), f.message(), f.fix(),
          new LintReport.Target(t.kind(), t.name(), t.path().isEmpty() ? null : t.path(), container), f.evidence()));
    }
    mine.sort(Comparator.comparingLong(LintReport.Finding::line).thenComparing(LintReport.Finding::rule));
    mine.forEach(into::add);
  }
}
