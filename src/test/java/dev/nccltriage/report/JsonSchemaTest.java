package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.nccltriage.cli.CliRun;
import dev.nccltriage.facts.ErrorKind;
import dev.nccltriage.rules.Layer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code -o json} document against {@code schema/report-v1.schema.json}, as shipped in the jar.
 */
class JsonSchemaTest {
  private static final String SCHEMA = "/schema/report-v1.schema.json";
  private static final Path GOLDEN = CliRun.REPO.resolve("samples/logs/golden");
  private static final Path CORPUS = CliRun.REPO.resolve("samples/corpus");
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonSchemaFactory FACTORY =
      JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

  private static JsonNode schemaNode;
  private static JsonSchema schema;

  @BeforeAll
  static void loadSchema() throws IOException {
    try (InputStream in = JsonSchemaTest.class.getResourceAsStream(SCHEMA)) {
      assertThat(in).as("%s on the classpath", SCHEMA).isNotNull();
      schemaNode = MAPPER.readTree(in);
    }
    schema = FACTORY.getSchema(schemaNode);
  }

  private static Set<ValidationMessage> validate(JsonNode doc) {
    return schema.validate(doc);
  }

  @Test
  void schemaIsAValidDraft202012Schema() {
    JsonSchema meta =
        FACTORY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    assertThat(meta.validate(schemaNode)).isEmpty();
  }

  static Stream<String> goldenJson() throws IOException {
    try (Stream<Path> s = Files.list(GOLDEN)) {
      List<String> names =
          s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
      assertThat(names).as("golden JSON files in %s", GOLDEN).isNotEmpty();
      return names.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldenJson")
  void goldenJsonIsValid(String name) throws IOException {
    JsonNode doc = MAPPER.readTree(GOLDEN.resolve(name).toFile());
    assertThat(validate(doc)).as(name).isEmpty();
  }

  @Test
  void corpusLogsGiveValidJson() throws IOException {
    assumeTrue(Files.isDirectory(CORPUS), CORPUS + " is absent");
    List<Path> logs;
    try (Stream<Path> s = Files.list(CORPUS)) {
      logs = s.map(d -> d.resolve("log.txt")).filter(Files::isRegularFile).sorted().toList();
    }
    assertThat(logs).as("corpus logs under %s", CORPUS).isNotEmpty();
    SoftAssertions softly = new SoftAssertions();
    for (Path log : logs) {
      CliRun run = CliRun.run("log", "-o", "json", CliRun.REPO.relativize(log).toString());
      softly.assertThat(run.stderr()).as("stderr for %s", log).isEmpty();
      softly.assertThat(validate(run.json())).as("schema errors for %s", log).isEmpty();
    }
    softly.assertAll();
  }

  /** A job of more nodes than a report lists: log.leftOut is filled in, and valid. */
  @Test
  void aLogOfManyHostsGivesValidJson() {
    StringBuilder b = new StringBuilder();
    for (int h = 0; h < 100; h++) {
      b.append(String.format("host-%03d:7:7 [0] NCCL INFO Using network IB%n", h));
    }
    CliRun run = CliRun.runWithStdin(b.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        "log", "-o", "json", "-");
    assertThat(run.json().at("/log/leftOut/hosts").asInt()).isEqualTo(100);
    assertThat(validate(run.json())).isEmpty();
  }

  /** Distinct values past a collection's cap: log.leftOut.linesNotKept is filled in, and valid. */
  @Test
  void aLogOfDistinctVersionsGivesValidJson() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      b.append(String.format("host-1:7:7 [0] NCCL INFO NCCL version 2.%d.1+cuda12.2%n", i));
    }
    CliRun run = CliRun.runWithStdin(b.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        "log", "-o", "json", "-");
    assertThat(run.json().at("/log/leftOut/linesNotKept/ncclVersions").asLong()).isEqualTo(24);
    assertThat(validate(run.json())).isEmpty();
  }

  /** A log whose lines end in a carriage return alone: one line, cut at the limit: log.leftOut.linesCut. */
  @Test
  void aLogWithoutLineFeedsGivesValidJson() {
    String line = "host-1:7:7 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/IB/0/GDRDMA\r";
    CliRun run = CliRun.runWithStdin(line.repeat(2000).getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        "log", "-o", "json", "-");
    assertThat(run.json().at("/log/leftOut/linesCut").asLong()).isEqualTo(1);
    assertThat(validate(run.json())).isEmpty();
  }

  @Test
  void aDisagreementBetweenLogAndContainerIsValid() {
    // check --log where the container has what GPUDirect RDMA needs and the log shows none of it
    CliRun run = CliRun.run("check", "--root", "samples/captures/healthy-8hca-gdr-net1",
        "--log", "samples/logs/10-no-gdr-reason-not-logged-2.22.3.log", "-o", "json");
    assertThat(run.json().get("verdict").get("status").asText()).isEqualTo("inconclusive");
    assertThat(run.json().get("verdict").get("disagreements")).isNotEmpty();
    assertThat(validate(run.json())).isEmpty();
  }

  @Test
  void aRuledOutCandidateIsValid() {
    CliRun run = CliRun.run("check", "--root", "samples/captures/healthy-8hca-gdr-net1",
        "--log", "samples/logs/05-ib-hca-netdev-name-2.20.5.log", "-o", "json");
    assertThat(run.json().get("verdict").get("ruledOut")).isNotEmpty();
    assertThat(validate(run.json())).isEmpty();
  }

  /** A valid document, changed in one place; the schema must name that place. */
  static Stream<Arguments> brokenDocuments() {
    return Stream.of(
        broken("bad verdict.status", "$.verdict.status", d -> verdict(d).put("status", "fine")),
        broken("unknown layer", "$.verdict.layer", d -> verdict(d).put("layer", "kubernetes")),
        broken("schemaVersion 2", "$.schemaVersion", d -> d.put("schemaVersion", 2)),
        broken("no log section", "$", d -> d.remove("log")),
        broken("bad log.gdr", "$.log.gdr", d -> log(d).put("gdr", "partial")),
        broken("rdma as text", "$.log.rdma", d -> log(d).put("rdma", "yes")),
        broken("ranks as text", "$.log.ranks", d -> log(d).put("ranks", "16")),
        broken("null ncclVersions", "$.log.ncclVersions", d -> log(d).putNull("ncclVersions")),
        broken("oob as text", "$.log.oob", d -> log(d).put("oob", "eth0")),
        broken(
            "candidate without why",
            "$.verdict.candidates[0]",
            d -> {
              ObjectNode c = verdict(d).putArray("candidates").addObject();
              c.put("layer", "fabric").put("rule", "X").putArray("evidence");
            }),
        broken(
            "extra field in an HCA",
            "$.log.hcas[0]",
            d -> ((ObjectNode) log(d).withArray("hcas").get(0)).put("speed", "400G")),
        broken(
            "healthy with a layer",
            "$.verdict.layer",
            d -> verdict(d).put("layer", "device-plugin")));
  }

  private static Arguments broken(String what, String where, Consumer<ObjectNode> change) {
    return Arguments.of(what, where, change);
  }

  private static ObjectNode verdict(ObjectNode d) {
    return (ObjectNode) d.get("verdict");
  }

  private static ObjectNode log(ObjectNode d) {
    return (ObjectNode) d.get("log");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenDocuments")
  void rejectsBrokenDocuments(String what, String where, Consumer<ObjectNode> change)
      throws IOException {
    ObjectNode doc =
        (ObjectNode) MAPPER.readTree(GOLDEN.resolve("01-healthy-ib-gdr-2.21.5.json").toFile());
    assertThat(validate(doc)).as("the unchanged document").isEmpty();
    change.accept(doc);
    Set<ValidationMessage> errors = validate(doc);
    assertThat(errors).as(what).isNotEmpty();
    assertThat(errors)
        .extracting(m -> m.getInstanceLocation().toString())
        .as("where the errors point for: %s", what)
        .contains(where);
  }

  @Test
  void layerEnumMatchesTheCode() {
    List<String> layers = Arrays.stream(Layer.values()).map(Layer::id).toList();
    assertThat(strings(schemaNode.at("/$defs/layer/enum")))
        .containsExactlyInAnyOrderElementsOf(layers);
  }

  @Test
  void errorKindEnumMatchesTheCode() {
    List<String> kinds = Arrays.stream(ErrorKind.values()).map(ErrorKind::id).toList();
    assertThat(strings(schemaNode.at("/$defs/errorSignature/properties/kind/enum")))
        .containsExactlyInAnyOrderElementsOf(kinds);
  }

  @Test
  void requiredFieldsAreTheRecordComponents() {
    SoftAssertions softly = new SoftAssertions();
    requireAll(softly, "/", Report.class);
    requireAll(softly, "/$defs/logSection", LogSection.class);
    requireAll(softly, "/$defs/verdict", dev.nccltriage.rules.Verdict.class);
    requireAll(softly, "/$defs/candidate", dev.nccltriage.rules.Verdict.Candidate.class);
    requireAll(softly, "/$defs/answer", dev.nccltriage.rules.Verdict.Answer.class);
    requireAll(softly, "/$defs/finding", dev.nccltriage.rules.Verdict.Finding.class);
    requireAll(softly, "/$defs/evidence", dev.nccltriage.evidence.Evidence.class);
    requireAll(softly, "/$defs/input", Input.class);
    requireAll(softly, "/$defs/channelStats", dev.nccltriage.facts.ChannelStats.class);
    requireAll(softly, "/$defs/hca", dev.nccltriage.facts.Hca.class);
    requireAll(softly, "/$defs/iface", dev.nccltriage.facts.Iface.class);
    requireAll(softly, "/$defs/gdrDecision", dev.nccltriage.facts.GdrDecision.class);
    requireAll(softly, "/$defs/errorSignature", dev.nccltriage.facts.ErrorSignature.class);
    requireAll(softly, "/$defs/nodeFacts", dev.nccltriage.facts.NodeFacts.class);
    requireAll(softly, "/$defs/difference", dev.nccltriage.facts.Difference.class);
    requireAll(softly, "/$defs/leftOut", dev.nccltriage.facts.LeftOut.class);
    softly.assertAll();
  }

  private static void requireAll(SoftAssertions softly, String pointer, Class<?> record) {
    JsonNode def = pointer.equals("/") ? schemaNode : schemaNode.at(pointer);
    List<String> components =
        Arrays.stream(record.getRecordComponents()).map(c -> c.getName()).toList();
    softly
        .assertThat(strings(def.get("required")))
        .as("required of %s vs %s", pointer, record.getSimpleName())
        .containsExactlyInAnyOrderElementsOf(components);
    List<String> properties = new ArrayList<>();
    def.get("properties").fieldNames().forEachRemaining(properties::add);
    softly
        .assertThat(properties)
        .as("properties of %s vs %s", pointer, record.getSimpleName())
        .containsExactlyInAnyOrderElementsOf(components);
  }

  private static List<String> strings(JsonNode array) {
    assertThat(array).isInstanceOf(ArrayNode.class);
    return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
  }
}
