package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 13 item 7: every command's {@code -o json} document has one envelope (schemaVersion, tool,
 * version, command, inputs[] of one shape) and validates against the schema its {@code command}
 * names, as shipped in the jar; {@code -o yaml} is the same document; an unknown value is null, never "".
 */
class JsonContractTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
  /** The schema of the rest of a document, by its command (README, "JSON output"). */
  static final Map<String, String> SCHEMA_OF = Map.of("log", "report-v1", "check", "report-v1",
      "preflight", "report-v1", "bw", "report-v1", "lint", "lint-v1", "version", "version-v1");
  private static final List<String> ENVELOPE = List.of("schemaVersion", "tool", "version", "command", "inputs");

  private static final Map<String, JsonNode> NODES = new HashMap<>();
  private static final Map<String, JsonSchema> SCHEMAS = new HashMap<>();

  private static final String CAPTURE = "samples/captures/healthy-8hca-gdr-net1";
  private static final String LOG = "samples/logs/02-socket-no-device-k8s-2.19.3.log";
  private static final String TESTS = "samples/nccl-tests/02-socket-fallback-2.15.out";

  @BeforeAll
  static void load() throws IOException {
    for (String name : List.of("envelope-v1", "report-v1", "lint-v1", "version-v1")) {
      try (InputStream in = JsonContractTest.class.getResourceAsStream("/schema/" + name + ".schema.json")) {
        assertThat(in).as("schema/%s.schema.json in the jar", name).isNotNull();
        JsonNode node = JSON.readTree(in);
        NODES.put(name, node);
        SCHEMAS.put(name, FACTORY.getSchema(node));
      }
    }
  }

  static Set<ValidationMessage> validate(String schema, JsonNode doc) {
    return SCHEMAS.get(schema).validate(doc);
  }

  /** The document against the envelope and against the schema its command names. */
  static void assertValid(String what, JsonNode doc) {
    assertThat(validate("envelope-v1", doc)).as("envelope of %s", what).isEmpty();
    String schema = SCHEMA_OF.get(doc.path("command").asText());
    assertThat(schema).as("a schema for command '%s' of %s", doc.path("command").asText(), what).isNotNull();
    assertThat(validate(schema, doc)).as("%s against %s", what, schema).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"envelope-v1", "lint-v1", "version-v1", "report-v1"})
  void eachSchemaIsAValidDraft202012Schema(String name) {
    JsonSchema meta = FACTORY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    assertThat(meta.validate(NODES.get(name))).isEmpty();
  }

  /** Each document schema repeats the envelope word for word, so that each is complete on its own. */
  @ParameterizedTest
  @ValueSource(strings = {"report-v1", "lint-v1", "version-v1"})
  void eachDocumentSchemaHasTheEnvelope(String name) {
    JsonNode env = NODES.get("envelope-v1");
    JsonNode doc = NODES.get(name);
    assertThat(doc.at("/$defs/input")).as("$defs/input").isEqualTo(env.at("/$defs/input"));
    List<String> required = new ArrayList<>();
    doc.get("required").forEach(r -> required.add(r.asText()));
    assertThat(required.subList(0, ENVELOPE.size())).isEqualTo(ENVELOPE);
    for (String p : List.of("schemaVersion", "tool", "version", "inputs")) {
      assertThat(doc.at("/properties/" + p)).as(p).isEqualTo(env.at("/properties/" + p));
    }
    List<String> commands = new ArrayList<>();
    JsonNode c = doc.at("/properties/command");
    (c.has("const") ? List.of(c.get("const")) : toList(c.get("enum"))).forEach(n -> commands.add(n.asText()));
    List<String> all = toList(env.at("/properties/command/enum")).stream().map(JsonNode::asText).toList();
    assertThat(all).containsAll(commands);
    commands.forEach(cmd -> assertThat(SCHEMA_OF.get(cmd)).as(cmd).isEqualTo(name));
    assertThat(SCHEMA_OF.keySet()).containsExactlyInAnyOrderElementsOf(all);
  }

  private static List<JsonNode> toList(JsonNode array) {
    List<JsonNode> out = new ArrayList<>();
    array.forEach(out::add);
    return out;
  }

  /** Every command that writes JSON, with the inputs it must list. */
  static Stream<Arguments> commands() {
    return Stream.of(
        Arguments.of(List.of("log", LOG), List.of(LOG + "|nccl-log")),
        Arguments.of(List.of("log", "-"), List.of("-|nccl-log")),
        Arguments.of(List.of("check", "--root", CAPTURE), List.of(CAPTURE + "|capture")),
        Arguments.of(List.of("check", "--capture", CAPTURE, "--log", LOG),
            List.of(CAPTURE + "|capture", LOG + "|nccl-log")),
        Arguments.of(List.of("bw", "--hcas", "8", "--rate", "400", TESTS), List.of(TESTS + "|nccl-tests")),
        Arguments.of(List.of("bw", "--hcas", "8", "--rate", "400", "-"), List.of("-|nccl-tests")),
        Arguments.of(List.of("bw", "--log", LOG, "--hcas", "8", "--rate", "400", TESTS),
            List.of(TESTS + "|nccl-tests", LOG + "|nccl-log")),
        Arguments.of(List.of("bw", "--root", CAPTURE, TESTS), List.of(TESTS + "|nccl-tests", CAPTURE + "|capture")),
        Arguments.of(List.of("lint", "samples/k8s/bad/job-rdma-misconfigured.yaml", "samples/k8s/good/jobset.yaml"),
            List.of("samples/k8s/bad/job-rdma-misconfigured.yaml|manifest", "samples/k8s/good/jobset.yaml|manifest")),
        Arguments.of(List.of("lint", "-"), List.of("-|manifest")),
        Arguments.of(List.of("--version"), List.of()));
  }

  private static byte[] stdinFor(List<String> args) throws IOException {
    if (!args.contains("-")) {
      return new byte[0];
    }
    String file = switch (args.get(0)) {
      case "log" -> LOG;
      case "bw" -> TESTS;
      default -> "samples/k8s/bad/statefulset-hostnetwork.yaml";
    };
    return Files.readAllBytes(CliRun.REPO.resolve(file));
  }

  private static CliRun run(List<String> args, String form) throws IOException {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of("-o", form));
    return CliRun.runWithStdin(stdinFor(args), all.toArray(String[]::new));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void everyCommandsJsonHasTheEnvelopeAndMatchesItsSchema(List<String> args, List<String> inputs) throws IOException {
    CliRun run = run(args, "json");
    assertThat(run.stderr()).as("stderr").isEmpty();
    JsonNode doc = run.json();
    assertValid(String.join(" ", args), doc);
    assertThat(fieldNames(doc).subList(0, ENVELOPE.size())).as("the envelope comes first").isEqualTo(ENVELOPE);
    List<String> listed = new ArrayList<>();
    doc.get("inputs").forEach(i -> listed.add(i.get("source").asText() + "|" + i.get("kind").asText()));
    assertThat(listed).as("inputs").isEqualTo(inputs);
    assertThat(emptyStrings(doc, "")).as("unknown values are null, never \"\"").isEmpty();
  }

  /** -o yaml is the same document as -o json, and so validates against the same schema. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void yamlIsTheSameDocument(List<String> args, List<String> inputs) throws IOException {
    CliRun json = run(args, "json");
    CliRun yaml = run(args, "yaml");
    assertThat(yaml.exitCode()).isEqualTo(json.exitCode());
    assertThat(yaml.stderr()).isEmpty();
    assertThat(yaml.stdout()).as("YAML, not JSON").doesNotStartWith("{");
    JsonNode doc = YAML.readTree(yaml.stdoutBytes());
    assertThat(doc).isEqualTo(json.json());
    assertValid("yaml of " + args, doc);
  }

  /** preflight's one-line JSON (stdout, or stderr in the wrapper form) is the same report. */
  @Test
  void preflightsLineMatchesTheReportSchema() {
    CliRun run = CliRun.run("preflight", "--root", CAPTURE);
    String line = run.stdout().lines().findFirst().orElseThrow();
    JsonNode doc;
    try {
      doc = JSON.readTree(line);
    } catch (IOException e) {
      throw new AssertionError(line, e);
    }
    assertValid("preflight", doc);
    assertThat(doc.at("/inputs/0/kind").asText()).isEqualTo("capture");
  }

  /** The golden JSON of lint, bw and the captures, as the samples' tests compare them. */
  static Stream<String> goldenJson() throws IOException {
    List<String> out = new ArrayList<>();
    for (String dir : List.of("samples/k8s/golden", "samples/nccl-tests/golden", "samples/captures/golden",
        "samples/logs/golden")) {
      try (Stream<Path> s = Files.list(CliRun.REPO.resolve(dir))) {
        s.map(p -> dir + "/" + p.getFileName()).filter(n -> n.endsWith(".json")).sorted().forEach(out::add);
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldenJson")
  void goldenJsonMatchesItsSchema(String file) throws IOException {
    JsonNode doc = JSON.readTree(CliRun.REPO.resolve(file).toFile());
    assertValid(file, doc);
    assertThat(emptyStrings(doc, "")).as("unknown values are null, never \"\"").isEmpty();
  }

  /** What issue 13 found in lint's document: each is refused by lint-v1. */
  static Stream<Arguments> brokenLint() {
    return Stream.of(
        Arguments.of("inputs[].file for source", "$.inputs[0]", (Change) d -> {
          ObjectNode i = (ObjectNode) d.get("inputs").get(0);
          i.set("file", i.remove("source"));
        }),
        Arguments.of("template \"\" for unknown", "$.findings[0].object.template",
            (Change) d -> ((ObjectNode) d.at("/findings/0/object")).put("template", "")),
        Arguments.of("no findingsLeftOut", "$", (Change) d -> d.remove("findingsLeftOut")),
        Arguments.of("a lint from log's rules", "$.findings[0].rule",
            (Change) d -> ((ObjectNode) d.at("/findings/0")).put("rule", "L-job-failed")),
        Arguments.of("healthy with problems", "$.problems", (Change) d -> d.put("status", "healthy")),
        Arguments.of("a log input in lint", "$.inputs[0].kind",
            (Change) d -> ((ObjectNode) d.get("inputs").get(0)).put("kind", "nccl-log")));
  }

  interface Change {
    void apply(ObjectNode doc);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenLint")
  void lintSchemaRefusesWhatIssue13Found(String what, String where, Change change) throws IOException {
    ObjectNode doc = (ObjectNode) JSON.readTree(
        CliRun.REPO.resolve("samples/k8s/golden/bad-job-rdma-misconfigured.json").toFile());
    assertThat(validate("lint-v1", doc)).isEmpty();
    change.apply(doc);
    assertThat(validate("lint-v1", doc)).as(what).extracting(m -> m.getInstanceLocation().toString()).contains(where);
  }

  /** An input's counts follow its kind: a manifest has no NCCL lines, a capture no lines. */
  @Test
  void inputCountsFollowTheKind() throws IOException {
    ObjectNode doc = (ObjectNode) JSON.readTree(
        CliRun.REPO.resolve("samples/nccl-tests/golden/02-socket-fallback-2.15.json").toFile());
    assertThat(validate("report-v1", doc)).isEmpty();
    ((ObjectNode) doc.get("inputs").get(0)).put("objects", 0);
    assertThat(validate("report-v1", doc)).extracting(m -> m.getInstanceLocation().toString())
        .contains("$.inputs[0].objects");
  }

  @Test
  void recordComponentsAreTheSchemasFields() {
    SoftAssertions softly = new SoftAssertions();
    fields(softly, "lint-v1", "", LintReport.class);
    fields(softly, "lint-v1", "/$defs/finding", LintReport.Finding.class);
    fields(softly, "lint-v1", "/$defs/target", LintReport.Target.class);
    fields(softly, "lint-v1", "/$defs/leftOut", LintReport.LeftOut.class);
    fields(softly, "envelope-v1", "/$defs/input", Input.class);
    fields(softly, "version-v1", "", VersionReport.class);
    softly.assertAll();
  }

  private static void fields(SoftAssertions softly, String schema, String pointer, Class<?> record) {
    JsonNode def = NODES.get(schema).at(pointer);
    List<String> components = Arrays.stream(record.getRecordComponents()).map(c -> c.getName()).toList();
    softly.assertThat(toList(def.get("required")).stream().map(JsonNode::asText).toList())
        .as("required of %s%s vs %s", schema, pointer, record.getSimpleName()).isEqualTo(components);
    softly.assertThat(fieldNames(def.get("properties")))
        .as("properties of %s%s vs %s", schema, pointer, record.getSimpleName()).isEqualTo(components);
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }

  /**
   * Where a string value is "" in {@code n}. Values read verbatim from the input may be empty (an
   * NCCL_* variable set to "" in the environment or the log); nothing else is.
   */
  static List<String> emptyStrings(JsonNode n, String at) {
    List<String> out = new ArrayList<>();
    if (n.isTextual() && n.asText().isEmpty()) {
      out.add(at);
    } else if (n.isObject()) {
      boolean verbatim = at.endsWith("/env");
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!(verbatim && e.getValue().isTextual())) {
          out.addAll(emptyStrings(e.getValue(), at + "/" + e.getKey()));
        }
      }
    } else if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        out.addAll(emptyStrings(n.get(i), at + "/" + i));
      }
    }
    return out;
  }

  @Test
  void aManifestsUnknownsAreNull() {
    // no name, a container without a name, evidence on a line the reader no longer holds
    String pod = "apiVersion: v1\nkind: Pod\nmetadata: {}\nspec:\n  containers:\n  - image: x\n"
        + "    resources: {limits: {nvidia.com/gpu: 8, rdma/hca: 1}}\n";
    CliRun run = CliRun.runWithStdin(pod.getBytes(StandardCharsets.UTF_8), "lint", "-o", "json");
    JsonNode doc = run.json();
    assertValid("lint of a nameless Pod", doc);
    assertThat(doc.at("/findings")).isNotEmpty();
    assertThat(doc.at("/findings/0/object/name").isNull()).isTrue();
    assertThat(doc.at("/findings/0/object/template").isNull()).isTrue();
    assertThat(emptyStrings(doc, "")).isEmpty();
    assertThat(CliRun.runWithStdin(pod.getBytes(StandardCharsets.UTF_8), "lint").stdout()).contains("Pod/?");
  }
}
