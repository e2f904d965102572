package dev.nccltriage.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.nccltriage.evidence.Evidence;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code nccl-triage lint} found: one finding per lint that fires on a pod template, with the
 * file and line it points to. Rendered as text (grouped by file and object), JSON or markdown.
 */
public record LintReport(String version, List<Input> inputs, String status, List<Finding> findings) {

  /** One input file: objects and pod templates seen. */
  public record Input(String file, int objects, int podTemplates) {}

  /** The object a finding is about: kind/name, the template's place in it, the container. */
  public record Target(String kind, String name, String template, String container) {
    String label() {
      return kind + "/" + name + (template.isEmpty() ? "" : " " + template);
    }
  }

  public record Finding(String file, long line, String rule, String severity, String layer, String message,
      String fix, Target object, List<Evidence> evidence) {}

  public void writeJson(PrintStream out) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schemaVersion", Report.SCHEMA_VERSION);
    m.put("tool", "nccl-triage");
    m.put("version", version);
    m.put("command", "lint");
    m.put("inputs", inputs);
    m.put("status", status);
    m.put("findings", findings);
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    out.print(json.writeValueAsString(m));
    out.println();
  }

  public void writeText(PrintStream out) {
    String file = null;
    String object = null;
    for (Finding f : findings) {
      if (!f.file().equals(file)) {
        file = f.file();
        object = null;
        out.println(file);
      }
      String obj = f.object().label() + (f.object().container() == null ? "" : " container " + f.object().container());
      if (!obj.equals(object)) {
        object = obj;
        out.println("  " + obj);
      }
      out.println("    " + f.file() + ":" + f.line() + "  [" + f.severity() + "] " + f.message() + " (" + f.rule() + ")");
      out.println("      fix: " + f.fix());
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
        out.println("| `" + f.file() + ":" + f.line() + "` | " + cell(obj) + " | " + f.severity() + " | `" + f.rule()
            + "` | " + cell(f.message()) + " | " + cell(f.fix()) + " |");
      }
    }
  }

  private static String cell(String s) {
    return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
  }

  private String summary() {
    int templates = inputs.stream().mapToInt(Input::podTemplates).sum();
    long problems = findings.stream().filter(f -> f.severity().equals("problem")).count();
    long warns = findings.stream().filter(f -> f.severity().equals("warn")).count();
    List<String> parts = new ArrayList<>();
    parts.add(inputs.size() + (inputs.size() == 1 ? " file, " : " files, ") + templates
        + (templates == 1 ? " pod template" : " pod templates"));
    parts.add(problems + (problems == 1 ? " problem" : " problems"));
    parts.add(warns + (warns == 1 ? " warning" : " warnings"));
    return String.join(", ", parts) + ".";
  }
}
