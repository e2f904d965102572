package dev.nccltriage.report;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Difference;
import dev.nccltriage.rules.LadderStep;
import dev.nccltriage.rules.Verdict;
import java.io.PrintStream;
import java.util.List;

/** The report as Markdown, to paste into a ticket: verdict, tree as a table, evidence as code. */
public final class MarkdownReport {
  /** Control characters from the input (a log's BEL or escape sequences) are shown, never sent. */
  public void write(Report report, PrintStream out) {
    Report r = PrintableReport.of(report);
    Verdict v = r.verdict();
    out.println("## nccl-triage " + r.command() + ": **" + v.status() + "**"
        + (v.layer().equals("none") ? "" : " — layer `" + v.layer() + "`"));
    out.println();
    out.println(v.summary());
    if (r.ladder() != null && !r.ladder().isEmpty()) {
      out.println();
      out.println("| Step | Status | Observed |");
      out.println("|---|---|---|");
      for (LadderStep st : r.ladder()) {
        out.println("| " + st.step() + ". " + cell(st.name()) + " | **" + st.status() + "** | " + cell(st.observed()) + " |");
      }
    }
    if (!v.path().isEmpty()) {
      out.println();
      out.println("| # | Question | Answer | Evidence |");
      out.println("|---|---|---|---|");
      int i = 1;
      for (Verdict.Answer a : v.path()) {
        String ev = a.evidence().isEmpty() ? (a.note() == null ? "" : "to decide: " + cell(a.note()))
            : String.join("<br>", a.evidence().stream().map(e -> "`` " + cell(e.location() + "  " + e.text()) + " ``").toList());
        out.println("| " + i++ + " | " + cell(a.ask()) + " | **" + a.answer() + "** | " + ev + " |");
      }
    }
    if (!v.candidates().isEmpty()) {
      out.println();
      out.println("### Candidate layers");
      int i = 1;
      for (Verdict.Candidate c : v.candidates()) {
        out.println(i++ + ". `" + c.layer() + "`: " + c.why());
        codeBlock(out, c.evidence());
      }
    }
    if (!v.disagreements().isEmpty()) {
      out.println();
      out.println("### The log and this container disagree");
      for (Verdict.Disagreement d : v.disagreements()) {
        out.println("- `" + d.rule() + "` **log**: " + d.log() + " **container**: " + d.container());
        codeBlock(out, d.logEvidence());
        codeBlock(out, d.containerEvidence());
      }
    }
    if (!v.ruledOut().isEmpty()) {
      out.println();
      out.println("### Ruled out by this container");
      for (Verdict.RuledOut x : v.ruledOut()) {
        out.println("- `" + x.layer() + "` (`" + x.rule() + "`): " + x.why() + " **Container**: " + x.container());
        codeBlock(out, x.evidence());
      }
    }
    if (v.fix() != null) {
      out.println();
      out.println("### Fix");
      out.println(v.fix());
    }
    if (v.probe() != null) {
      out.println();
      out.println(v.candidates().isEmpty() ? "### What would decide" : "### What would decide between the candidates");
      out.println(v.probe());
    }
    if (!v.differs().isEmpty()) {
      out.println();
      out.println("### Who differs");
      for (Difference d : v.differs()) {
        out.println("- **" + d.who() + "**: " + d.what());
      }
    }
    if (!v.findings().isEmpty()) {
      out.println();
      out.println("### Findings");
      for (Verdict.Finding f : v.findings()) {
        out.println("- **" + f.severity() + "** `" + f.rule() + "` (" + f.layer() + "): " + f.message()
            + " Fix: " + f.fix());
        codeBlock(out, f.evidence());
      }
    }
    List<String> advice = Advice.beyondProbe(v);
    if (!advice.isEmpty()) {
      out.println();
      out.println("### Advice");
      advice.forEach(a -> out.println("- " + a));
    }
    if (r.bw() != null) {
      BwSection b = r.bw();
      out.println();
      out.println("### Bandwidth");
      out.println();
      out.println("- hypothesis: **" + b.hypothesis() + "**" + (b.confirmedBy() == null ? "" : " (" + b.confirmedBy()
          + ", confirmed by the log)") + (b.rule() == null ? "" : " (`" + b.rule() + "`)"));
      out.println("- busbw: " + b.busbw() + " GB/s (" + b.busbwBasis() + "); expected: "
          + (b.expected() == null ? "unknown" : b.expected() + " GB/s") + "; ratio: "
          + (b.ratio() == null ? "unknown" : b.ratio()));
      out.println();
      out.println("```");
      TextReport.chart(b, 100).forEach(out::println);
      out.println("```");
    }
    if (r.log() != null) {
      LogSection l = r.log();
      out.println();
      out.println("### What the log shows");
      out.println("- NCCL: " + (l.ncclVersions().isEmpty() ? "version not logged" : Shown.list(l.ncclVersions(), ", ")));
      out.println("- Ranks / nodes: " + orUnknown(l.ranks()) + " / " + orUnknown(l.nodes()));
      out.println("- Network: " + orUnknown(Shown.value(l.transport())) + " (RDMA: " + orUnknown(l.rdma()) + ")");
      out.println("- GPUDirect RDMA: " + (l.netChannels().total() == 0 ? "no network channels logged"
          : l.gdr() + " of " + l.netChannels().total() + " network channels"));
      if (l.oob() != null) {
        out.println("- OOB: `" + Shown.value(l.oob().render()) + "`");
      }
      if (l.leftOut() != null) {
        out.println("- Left out: " + l.leftOut().summary());
      }
    }
  }

  private static void codeBlock(PrintStream out, List<Evidence> ev) {
    if (ev.isEmpty()) {
      return;
    }
    out.println("  ```");
    ev.forEach(e -> out.println("  " + e.location() + "  " + e.text().replace("```", "'''")));
    out.println("  ```");
  }

  private static String orUnknown(Object o) {
    return o == null ? "unknown" : String.valueOf(o);
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }
}
