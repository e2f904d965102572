package dev.nccltriage.source.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 13 item 9: {@code lint -o sarif} is a SARIF 2.1.0 log (validated against the SARIF schema in
 * src/test/resources/sarif) that code scanning can show: the lints as rules with descriptions, help
 * and a default level, each finding a result with its rule, level and file:line, the same findings
 * as {@code -o json}.
 */
class LintSarifTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static JsonSchema sarif;

  @TempDir Path tmp;

  @BeforeAll
  static void load() throws IOException {
    try (InputStream in = LintSarifTest.class.getResourceAsStream("/sarif/sarif-schema-2.1.0.json")) {
      assertThat(in).isNotNull();
      sarif = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(JSON.readTree(in));
    }
  }

  static Stream<String> samples() throws IOException {
    return LintSamplesTest.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void sarifIsValidAndHasTheJsonFindings(String name) throws IOException {
    String file = "samples/k8s/" + name;
    CliRun json = CliRun.run("lint", "-o", "json", file);
    CliRun run = CliRun.run("lint", "-o", "sarif", file);
    assertThat(run.stderr()).isEmpty();
    assertThat(run.exitCode()).as("the exit code does not depend on the form").isEqualTo(json.exitCode());
    JsonNode log = run.json();
    assertThat(sarif.validate(log)).as("SARIF 2.1.0 schema").isEmpty();
    assertThat(log.get("version").asText()).isEqualTo("2.1.0");
    JsonNode r = log.at("/runs/0");
    assertThat(r.at("/tool/driver/name").asText()).isEqualTo("nccl-triage");
    Map<String, JsonNode> rules = new HashMap<>();
    r.at("/tool/driver/rules").forEach(x -> rules.put(x.get("id").asText(), x));
    assertThat(rules).containsKeys("K-gpu-no-rdma", "K-rdma-no-ipc-lock", "K-multus-malformed");
    for (JsonNode rule : rules.values()) {
      assertThat(rule.at("/shortDescription/text").asText()).as(rule.get("id").asText()).isNotBlank()
          .doesNotContainPattern("\\{[a-zA-Z][\\w.]*}"); // a fact placeholder shows as <fact>
      assertThat(rule.at("/fullDescription/text").asText()).isNotBlank();
      assertThat(rule.at("/help/text").asText()).contains("Layer that owes the fix");
      assertThat(rule.at("/defaultConfiguration/level").asText()).isIn("error", "warning", "note");
    }
    List<String> expected = new ArrayList<>();
    json.json().get("findings").forEach(f -> expected.add(f.get("rule").asText() + "@" + f.get("line").asInt() + " "
        + (f.get("severity").asText().equals("problem") ? "error" : "warning")));
    List<String> found = new ArrayList<>();
    for (JsonNode res : r.get("results")) {
      String id = res.get("ruleId").asText();
      assertThat(r.at("/tool/driver/rules/" + res.get("ruleIndex").asInt() + "/id").asText()).isEqualTo(id);
      assertThat(res.at("/locations/0/physicalLocation/artifactLocation/uri").asText()).isEqualTo(file);
      assertThat(res.at("/message/text").asText()).contains(" Fix: ");
      found.add(id + "@" + res.at("/locations/0/physicalLocation/region/startLine").asInt() + " "
          + res.get("level").asText());
    }
    assertThat(found).isEqualTo(expected);
    if (name.startsWith("bad/")) {
      assertThat(found).as("a bad sample's results").isNotEmpty();
    }
  }

  /** Code scanning reads SARIF files; the golden is the form a reviewer sees change. */
  @Test
  void matchesGolden() throws IOException {
    String name = "bad-job-rdma-misconfigured";
    CliRun run = CliRun.run("lint", "-o", "sarif", "samples/k8s/bad/job-rdma-misconfigured.yaml");
    Path golden = CliRun.REPO.resolve("samples/k8s/golden/" + name + ".sarif");
    if (Boolean.getBoolean("golden.update")) {
      Files.write(golden, run.stdoutBytes());
      return;
    }
    assertThat(run.stdout()).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
  }

  @Test
  void pathsBecomeUriReferences() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("my charts"));
    Path file = dir.resolve("pod#1.yaml");
    Files.copy(CliRun.REPO.resolve("samples/k8s/bad/statefulset-hostnetwork.yaml"), file);
    CliRun run = CliRun.run("lint", "-o", "sarif", file.toString());
    JsonNode log = run.json();
    assertThat(sarif.validate(log)).isEmpty();
    String uri = log.at("/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri").asText();
    assertThat(uri).startsWith("file:///").endsWith("/my%20charts/pod%231.yaml");
    assertThat(java.net.URI.create(uri).getPath()).isEqualTo(file.toString());
    assertThat(log.at("/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uriBaseId").isMissingNode())
        .isTrue();
  }

  @Test
  void aCleanManifestIsAnEmptyRun() {
    CliRun run = CliRun.run("lint", "-o", "sarif", "samples/k8s/good/job.yaml");
    assertThat(run.exitCode()).isZero();
    assertThat(sarif.validate(run.json())).isEmpty();
    assertThat(run.json().at("/runs/0/results")).isEmpty();
    assertThat(run.json().at("/runs/0/tool/driver/rules")).isNotEmpty();
  }
}
