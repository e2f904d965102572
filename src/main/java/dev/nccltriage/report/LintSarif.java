package dev.nccltriage.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nccltriage.rules.Rule;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code lint -o sarif}: the lint report as a SARIF 2.1.0 log, which GitHub and GitLab code scanning
 * read: one run, the lints that ran as the driver's rules (id, descriptions from the message, the fix
 * as help, the level from the severity) and each finding as a result at its file and line. Findings
 * past the per-rule limit and suppressed ones are not results; the run's properties count them.
 */
public final class LintSarif {
  public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z][\\w.<>*-]*)}");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private LintSarif() {}

  /** The SARIF log of {@code report}, whose findings come from {@code lints} (the rules that ran). */
  public static ObjectNode document(LintReport report, List<Rule.Lint> lints) {
    ObjectNode log = NODES.objectNode();
    log.put("$schema", SCHEMA);
    log.put("version", "2.1.0");
    ObjectNode run = log.putArray("runs").addObject();
    ObjectNode driver = run.putObject("tool").putObject("driver");
    driver.put("name", report.tool());
    driver.put("version", report.version());
    ArrayNode rules = driver.putArray("rules");
    Map<String, Integer> index = new HashMap<>();
    for (Rule.Lint l : lints) {
      index.put(l.id(), rules.size());
      rules.add(rule(l));
    }
    run.putArray("invocations").addObject().put("executionSuccessful", true);
    ArrayNode results = run.putArray("results");
    for (LintReport.Finding f : report.findings()) {
      ObjectNode r = results.addObject();
      r.put("ruleId", f.rule());
      if (index.containsKey(f.rule())) {
        r.put("ruleIndex", index.get(f.rule()));
      }
      r.put("level", level(f.severity()));
      r.putObject("message").put("text", f.message() + (f.fix() == null ? "" : " Fix: " + f.fix()));
      ObjectNode physical = r.putArray("locations").addObject().putObject("physicalLocation");
      ObjectNode artifact = physical.putObject("artifactLocation");
      artifact.put("uri", uri(f.file()));
      if (!f.file().startsWith("/") && !f.file().equals("-")) {
        artifact.put("uriBaseId", "%SRCROOT%");
      }
      if (f.line() >= 1) {
        physical.putObject("region").put("startLine", f.line());
      }
      ObjectNode props = r.putObject("properties");
      props.put("layer", f.layer());
      props.put("object", f.object().label());
      if (f.object().container() != null) {
        props.put("container", f.object().container());
      }
    }
    ObjectNode props = run.putObject("properties");
    props.put("status", report.status());
    props.put("problems", report.problems());
    props.put("warnings", report.warnings());
    props.put("suppressed", report.suppressed());
    ArrayNode left = props.putArray("findingsLeftOut");
    report.findingsLeftOut().forEach(l -> left.addObject().put("rule", l.rule()).put("count", l.count()));
    return log;
  }

  private static ObjectNode rule(Rule.Lint l) {
    String message = PLACEHOLDER.matcher(l.message()).replaceAll("<$1>");
    int colon = message.indexOf(": ");
    String shortText = colon > 0 ? message.substring(0, colon) : message;
    ObjectNode r = NODES.objectNode();
    r.put("id", l.id());
    r.putObject("shortDescription").put("text", shortText);
    r.putObject("fullDescription").put("text", message);
    String fix = l.fix() == null ? "" : PLACEHOLDER.matcher(l.fix()).replaceAll("<$1>");
    String help = (fix.isEmpty() ? "" : "Fix: " + fix + "\n") + "Layer that owes the fix: " + l.layer().id()
        + ". Rule " + l.origin() + ".";
    r.putObject("help").put("text", help);
    r.putObject("defaultConfiguration").put("level", level(l.severity()));
    ObjectNode props = r.putObject("properties");
    props.put("layer", l.layer().id());
    props.putArray("tags").add("nccl").add("kubernetes").add(l.layer().id());
    return r;
  }

  /** SARIF's levels: a problem is an error, a warn a warning, anything else a note. */
  static String level(String severity) {
    return switch (severity) {
      case "problem" -> "error";
      case "warn" -> "warning";
      default -> "note";
    };
  }

  /**
   * The file as a URI reference: a relative path stays relative (code scanning resolves it against
   * the repository, %SRCROOT%), an absolute one becomes file:///...; characters outside RFC 3986's
   * unreserved set and '/' are percent-encoded.
   */
  static String uri(String file) {
    StringBuilder b = new StringBuilder(file.startsWith("/") ? "file://" : "");
    for (byte x : file.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xff;
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~/".indexOf(c) >= 0) {
        b.append((char) c);
      } else {
        b.append('%').append(String.format("%02X", c));
      }
    }
    return b.toString();
  }
}
