package dev.nccltriage.report;

import dev.nccltriage.evidence.Printable;

import dev.nccltriage.evidence.Evidence;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code nccl-triage lint} found: one finding per lint that fires on a pod template, with the
 * file and line it points to. Rendered as text (grouped by file and object), JSON or markdown. Past
 * a number of findings of one rule the rest are only counted ({@code findingsLeftOut}); the totals
 * ({@code problems}, {@code warnings}) are exact. Findings suppressed by the manifest's
 * {@code nccl-triage.io/ignore} annotation or by {@code --exclude} are only counted ({@code suppressed})
 * and count toward nothing else. The JSON form is this record (schema/lint-v1.schema.json); it starts
 * with the envelope every command's document has.
 */
public record LintReport(int schemaVersion, String tool, String version, String command, List<Input> inputs,
    String status, List<Finding> findings, List<LeftOut> findingsLeftOut, long problems, long warnings,
    long suppressed) {

  /** Findings of one rule that were counted but not kept. */
  public record LeftOut(String rule, String severity, long count) {}

  /** Collects findings in order, keeping at most {@code perRule} of each rule. */
  public static final class Findings {
    private final int perRule;
    private final List<Finding> kept = new ArrayList<>();
    private final Map<String, Long> perRuleSeen = new HashMap<>();
    private final Map<String, LeftOut> leftOut = new LinkedHashMap<>();
    private final Map<String, Long> bySeverity = new HashMap<>();
    private long suppressed;

    public Findings(int perRule) {
      this.perRule = perRule;
    }

    public void add(Finding f) {
      bySeverity.merge(f.severity(), 1L, Long::sum);
      if (perRuleSeen.merge(f.rule(), 1L, Long::sum) <= perRule) {
        kept.add(f);
      } else {
        leftOut.merge(f.rule(), new LeftOut(f.rule(), f.severity(), 1),
            (a, b) -> new LeftOut(a.rule(), a.severity(), a.count() + 1));
      }
    }

    /** A finding that the manifest or --exclude suppressed: counted here only. */
    public void suppress() {
      suppressed++;
    }

    /** Whether the next finding of {@code rule} is kept in full (else it is only counted). */
    public boolean shows(String rule) {
      return perRuleSeen.getOrDefault(rule, 0L) < perRule;
    }

    /** Findings of this severity, kept or not. */
    public long count(String severity) {
      return bySeverity.getOrDefault(severity, 0L);
    }
  }

  public static LintReport of(String version, List<Input> inputs, String status, Findings f) {
    return new LintReport(Report.SCHEMA_VERSION, Report.TOOL, version, "lint", List.copyOf(inputs), status,
        List.copyOf(f.kept), List.copyOf(f.leftOut.values()), f.count("problem"), f.count("warn"), f.suppressed);
  }

  /**
   * The object a finding is about: kind/name, the template's place in it (null for a Pod, whose
   * template is the object), the container (null when the finding is about the whole template).
   * A name the object does not give (neither name nor generateName) is null.
   */
  public record Target(String kind, String name, String template, String container) {
    String label() {
      return kind + "/" + (name == null ? "?" : name) + (template == null ? "" : " " + template);
    }
  }

  public record Finding(String file, long line, String rule, String severity, String layer, String message,
      String fix, Target object, List<Evidence> evidence) {}

  public void writeText(PrintStream out) {
    writeText(out, Integer.MAX_VALUE);
  }

  /** The findings by file and object, each wrapped at {@code width} under its own indentation. */
  public void writeText(PrintStream out, int width) {
    String file = null;
    String object = null;
    for (Finding f : findings) {
      if (!f.file().equals(file)) {
        file = f.file();
        object = null;
        out.println(Printable.text(file));
      }
      // manifests are input: names, annotation values in messages reach a terminal escaped
      String obj = Printable.text(f.object().label() + (f.object().container() == null ? "" : " container " + f.object().container()));
      if (!obj.equals(object)) {
        object = obj;
        out.println("  " + obj);
      }
      Wrap.para(out, "    ", Printable.text(f.file() + ":" + f.line() + "  [" + f.severity() + "] " + f.message()
          + " (" + f.rule() + ")"), 6, width);
      Wrap.para(out, "      ", Printable.text("fix: " + f.fix()), 11, width);
    }
    for (LeftOut l : findingsLeftOut) {
      out.println(leftOutLine(l));
    }
    out.println(summary());
  }

  public void writeMarkdown(PrintStream out) {
    out.println("## nccl-triage lint: " + status);
    out.println();
    out.println(summary());
    if (!findings.isEmpty()) {
      out.println();
      out.println("| where | object | severity | rule | message | fix |");
      out.println("|---|---|---|---|---|---|");
      for (Finding f : findings) {
        String obj = f.object().label() + (f.object().container() == null ? "" : " (" + f.object().container() + ")");
        out.println("| `" + cell(f.file()) + ":" + f.line() + "` | " + cell(obj) + " | " + f.severity() + " | `" + f.rule()
            + "` | " + cell(f.message()) + " | " + cell(f.fix()) + " |");
      }
    }
    if (!findingsLeftOut.isEmpty()) {
      out.println();
      findingsLeftOut.forEach(l -> out.println("- " + leftOutLine(l)));
    }
  }

  private static String cell(String s) {
    return s == null ? "" : Printable.text(s.replace("|", "\\|").replace("\n", " "));
  }

  private static String leftOutLine(LeftOut l) {
    return l.count() + " more " + l.rule() + " finding" + (l.count() == 1 ? "" : "s") + " (" + l.severity()
        + ") not shown: the first of each rule are listed, the counts below include all";
  }

  private String summary() {
    long templates = inputs.stream().mapToLong(Input::podTemplates).sum();
    long warns = warnings;
    List<String> parts = new ArrayList<>();
    parts.add(inputs.size() + (inputs.size() == 1 ? " file, " : " files, ") + templates
        + (templates == 1 ? " pod template" : " pod templates"));
    parts.add(problems + (problems == 1 ? " problem" : " problems"));
    parts.add(warns + (warns == 1 ? " warning" : " warnings"));
    if (suppressed > 0) {
      parts.add(suppressed + " suppressed (nccl-triage.io/ignore, --exclude)");
    }
    return String.join(", ", parts) + ".";
  }
}
