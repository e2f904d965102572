package dev.nccltriage.report;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Difference;
import dev.nccltriage.facts.Hca;
import dev.nccltriage.rules.LadderStep;
import dev.nccltriage.rules.Verdict;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report for people: the verdict first, then the argument, wrapped to the terminal width. */
public final class TextReport {
  private final int width;
  private final Style style;

  public TextReport(int width, boolean colour) {
    this.width = width;
    this.style = new Style(colour);
  }

  /** Control characters from the input (a log's BEL or escape sequences) are shown, never sent: only the style colours. */
  public void write(Report report, PrintStream out) {
    Report r = PrintableReport.of(report);
    Verdict v = r.verdict();
    String head = v.status().toUpperCase(Locale.ROOT) + (v.layer().equals("none") ? "" : "  layer: " + v.layer());
    out.println(style.bold("nccl-triage " + r.command() + ": ") + style.bold(style.status(v.status(), head)));
    para(out, "  ", v.summary());
    if (r.bw() != null) {
      bwSummary(out, r.bw());
    }
    if (r.ladder() != null && !r.ladder().isEmpty()) {
      section(out, "Ladder (what this container shows)");
      for (LadderStep st : r.ladder()) {
        String status = String.format(Locale.ROOT, "%-5s", st.status());
        String colored = switch (st.status()) {
          case "pass" -> style.green(status);
          case "fail", "error" -> style.red(status);
          case "warn" -> style.yellow(status);
          default -> style.dim(status);
        };
        para(out, "  ", st.step() + ". " + colored + " " + style.bold(st.name()) + ": " + st.observed(), 11);
        if (!st.status().equals("pass") && !st.status().equals("skip")) {
          evidence(out, st.evidence(), "           ");
        }
      }
    }
    if (!v.path().isEmpty()) {
      section(out, "Decision tree");
      for (Verdict.Answer a : v.path()) {
        String answer = String.format(Locale.ROOT, "%-7s", a.answer());
        para(out, "  ", style.status(a.answer(), answer) + " " + a.ask(), 10);
        if (!a.answer().equals("n/a")) {
          evidence(out, a.evidence(), "          ");
        }
        if (a.note() != null) {
          para(out, "          ", style.dim("To decide: " + a.note()));
        }
      }
    }
    if (!v.candidates().isEmpty()) {
      section(out, "Candidate layers (most likely first)");
      int i = 1;
      for (Verdict.Candidate c : v.candidates()) {
        para(out, "  ", i++ + ". " + style.bold(c.layer()) + ": " + c.why(), 5);
        evidence(out, c.evidence(), "       ");
      }
    }
    if (!v.disagreements().isEmpty()) {
      section(out, "The log and this container disagree");
      for (Verdict.Disagreement d : v.disagreements()) {
        para(out, "  - ", style.bold("log") + ": " + d.log() + style.dim(" (" + d.rule() + ")"), 4);
        evidence(out, d.logEvidence(), "      ");
        para(out, "    ", style.bold("container") + ": " + d.container(), 4);
        evidence(out, d.containerEvidence(), "      ");
      }
    }
    if (!v.ruledOut().isEmpty()) {
      section(out, "Ruled out by this container");
      for (Verdict.RuledOut x : v.ruledOut()) {
        para(out, "  - ", style.bold(x.layer()) + ": " + x.why() + " But " + lower(x.container())
            + style.dim(" (" + x.rule() + ")"), 4);
        evidence(out, x.evidence(), "      ");
      }
    }
    if (v.fix() != null) {
      section(out, "Fix");
      para(out, "  ", v.fix());
    }
    if (v.probe() != null) {
      section(out, v.candidates().isEmpty() ? "What would decide" : "What would decide between the candidates");
      para(out, "  ", v.probe());
    }
    if (!v.differs().isEmpty()) {
      section(out, "Who differs");
      for (Difference d : v.differs()) {
        para(out, "  ", style.bold(d.who()) + ": " + d.what(), 4);
        evidence(out, d.evidence(), "      ");
      }
    }
    List<Verdict.Finding> findings = v.findings().stream()
        .filter(f -> v.candidates().stream().noneMatch(c -> c.rule().equals(f.rule()))).toList();
    if (!findings.isEmpty()) {
      section(out, "Other findings");
      for (Verdict.Finding f : findings) {
        String sev = f.severity().equals("problem") ? style.red(f.severity())
            : f.severity().equals("warn") || f.severity().equals("doubt") ? style.yellow(f.severity()) : style.dim(f.severity());
        para(out, "  - ", "[" + sev + "] " + f.message() + style.dim(" (" + f.rule() + ", " + f.layer() + ")"), 4);
        para(out, "      ", "fix: " + f.fix());
        evidence(out, f.evidence(), "      ");
      }
    }
    List<String> advice = Advice.beyondProbe(v);
    if (!advice.isEmpty()) {
      section(out, "Advice");
      advice.forEach(a -> para(out, "  - ", a, 4));
    }
    if (r.log() != null) {
      logSummary(out, r.log());
    }
  }

  private static String lower(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  private void bwSummary(PrintStream out, BwSection b) {
    section(out, "Bandwidth (nccl-tests" + (b.collective() == null ? "" : " " + b.collective()) + ")");
    List<String> parts = new ArrayList<>();
    parts.add("hypothesis " + style.bold(b.hypothesis()) + (b.confirmedBy() == null ? "" : " (" + b.confirmedBy()
        + ", confirmed by the log)") + (b.rule() == null ? "" : " [" + b.rule() + "]"));
    parts.add("busbw " + gb(b.busbw()) + " GB/s (" + b.busbwBasis() + ")");
    parts.add("expected " + (b.expected() == null ? "unknown" : gb(b.expected()) + " GB/s (" + b.hcas() + " x "
        + gb(b.rateGbps()) + " Gb/s / 8)"));
    parts.add("ratio " + (b.ratio() == null ? "unknown" : String.format(Locale.ROOT, "%.3f", b.ratio())));
    parts.add((b.ranks() == null ? "? ranks" : b.ranks() + " ranks") + " on "
        + (b.nodes() == null ? "? nodes" : b.nodes() + " node(s)"));
    if (b.avgBusbw() != null) {
      parts.add("Avg bus bandwidth " + gb(b.avgBusbw()) + " GB/s");
    }
    para(out, "  ", String.join(" · ", parts), 4);
    out.println();
    chart(b, width).forEach(out::println);
  }

  /** One row per size: the size, a bar of '#' scaled to the width, the better busbw. */
  static List<String> chart(BwSection b, int width) {
    double max = b.sizes().stream().mapToDouble(s -> best(s)).max().orElse(0);
    int bar = Math.max(10, width - 2 - 9 - 3 - 9);
    List<String> out = new ArrayList<>();
    for (BwSection.Size s : b.sizes()) {
      double v = best(s);
      int n = max <= 0 ? 0 : (int) Math.round(v / max * bar);
      out.add(String.format(Locale.ROOT, "  %9s |%-" + bar + "s %8.2f", size(s.bytes()), "#".repeat(n), v));
    }
    out.add(String.format(Locale.ROOT, "  %9s  busbw GB/s, 0 to %.2f", "", max));
    return out;
  }

  private static double best(BwSection.Size s) {
    return Math.max(s.busbwOutOfPlace(), s.busbwInPlace() == null ? 0 : s.busbwInPlace());
  }

  static String size(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v)) + " " + units[u];
  }

  private static String gb(Double d) {
    return d == null ? "?" : d == Math.rint(d) ? String.valueOf(d.longValue()) : String.format(Locale.ROOT, "%.2f", d);
  }

  private void logSummary(PrintStream out, LogSection l) {
    section(out, "What the log shows");
    List<String> parts = new ArrayList<>();
    parts.add("NCCL " + (l.ncclVersions().isEmpty() ? "version not logged" : Shown.list(l.ncclVersions(), ", ")));
    parts.add((l.ranks() == null ? "? ranks" : l.ranks() + " ranks") + " on " + nodes(l));
    parts.add("network " + (l.transport() == null ? "unknown" : Shown.value(l.transport()))
        + (l.rdma() == null ? "" : l.rdma() ? " (RDMA)" : " (not RDMA)"));
    long ch = l.netChannels().total();
    parts.add(ch == 0 ? "no network channels logged"
        : "GPUDirect RDMA on " + l.gdr() + " of " + ch + " network channels");
    para(out, "  ", String.join(" · ", parts));
    if (!l.hcas().isEmpty()) {
      List<String> h = new ArrayList<>();
      for (Hca x : l.hcas()) {
        h.add(x.merged().isEmpty() ? x.name() + ":" + x.port() + "/" + x.linkLayer()
            : "{" + String.join(", ", x.merged().stream().map(p -> p.name() + ":" + p.port() + "/" + p.linkLayer()).toList()) + "}");
      }
      para(out, "  ", "HCAs: " + Shown.list(h, " ") + (l.relaxedOrdering() ? " [RO]" : ""), 4);
    }
    List<String> ifs = new ArrayList<>();
    if (l.oob() != null) {
      ifs.add("OOB " + Shown.value(l.oob().render()));
    }
    if (l.bootstrap() != null) {
      ifs.add("bootstrap " + Shown.value(l.bootstrap().render()));
    }
    if (!l.socketInterfaces().isEmpty()) {
      ifs.add("socket " + Shown.list(l.socketInterfaces().stream().map(i -> i.render()).toList(), " "));
    }
    if (!ifs.isEmpty()) {
      para(out, "  ", String.join(" · ", ifs), 4);
    }
    if (!l.env().isEmpty()) {
      List<String> e = new ArrayList<>();
      l.env().forEach((k, val) -> e.add(k + "=" + val));
      para(out, "  ", "env: " + Shown.list(e, " "), 4);
    }
    if (l.leftOut() != null) {
      para(out, "  ", "left out: " + l.leftOut().summary(), 4);
    }
  }

  /** "2 node(s) (NCCL's count)", "several nodes (ranks beyond one node's)", "an unknown number of nodes". */
  static String nodes(LogSection l) {
    String count = l.nodes() != null ? l.nodes() + " node(s)"
        : Boolean.FALSE.equals(l.singleNode()) ? "several nodes" : "an unknown number of nodes";
    String from = l.nodesFrom() == null ? "" : switch (l.nodesFrom()) {
      case "comm" -> " (NCCL's count)";
      case "hostnames" -> " (distinct hosts)";
      case "ranks" -> " (from the ranks)";
      case "loopback" -> " (loopback interfaces only)";
      case "errors" -> " (network errors)";
      case "channels" -> " (network connections)";
      default -> "";
    };
    return count + from;
  }

  private void section(PrintStream out, String title) {
    out.println();
    out.println(style.bold(title));
  }

  private void evidence(PrintStream out, List<Evidence> ev, String indent) {
    for (Evidence e : ev) {
      String line = indent + style.dim(e.location() + "  ") + shortText(e.text());
      out.println(clip(line, width + (line.length() - visible(line))));
    }
  }

  // NCCL's whole envelope, host:pid:tid [dev] (file:line )((function) )NCCL INFO|WARN (spec 1.3; the
  // level alone before 2.3), its leftmost start: a time of day before it ("Dec 03 05:00:00 node
  // python3[1000]: " from journald) has the host:pid:tid shape but not the rest of it, and one
  // right before a line without NCCL's prefix ("05:00:00 [1] NCCL INFO") is no host (as Prefix reads it).
  // The text is printable already: a control byte before the host (a progress bar's CR) is an
  // escape, "\x0d", which ends what comes before the host as a blank would
  private static final java.util.regex.Pattern ENVELOPE = java.util.regex.Pattern.compile(
      "(?:.*?(?:\\\\(?:x[0-9a-f]{2}|u[0-9a-f]{4})|[^A-Za-z0-9._\\\\-]))??(?!\\d\\d:\\d\\d:\\d\\d )([A-Za-z0-9._-]+):\\d+:\\d+ (?:\\[-?\\d+\\] )?(?:\\S+:\\d+ )?(?:\\([^)]*\\) )?"
          + "(?:NCCL )?(?:INFO|WARN) (.*)");

  /** For people: "host: message" instead of the whole prefix; JSON keeps the line as read. */
  static String shortText(String text) {
    java.util.regex.Matcher m = ENVELOPE.matcher(text);
    return m.matches() ? m.group(1) + ": " + m.group(2) : text;
  }

  private void para(PrintStream out, String indent, String text) {
    para(out, indent, text, indent.length());
  }

  /** Word-wraps {@code text} to the width; continuation lines are indented by {@code hang}. */
  private void para(PrintStream out, String indent, String text, int hang) {
    Wrap.para(out, indent, text, hang, width);
  }

  private static int visible(String s) {
    return Wrap.visible(s);
  }

  private static String clip(String s, int max) {
    return s.length() <= max ? s : s.substring(0, Math.max(0, max - 1)) + "…";
  }
}
