package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loader is strict: every mistake in a rule file is an error naming the file and the line. */
class RuleLoaderTest {

  /** A valid lint; tests replace single lines of it. Line numbers are 1-based. */
  private static final String LINT = """
      lints:
        - id: X-extra-lint
          severity: warn
          layer: nccl-env
          when: {fact: env.NCCL_IB_DISABLE, is: "1"}
          message: "IB is disabled ({env.NCCL_IB_DISABLE})"
          fix: "Unset NCCL_IB_DISABLE."
          cases:
            - {facts: {env.NCCL_IB_DISABLE: "1"}, expect: fires}
            - {facts: {env.NCCL_IB_DISABLE: "0"}, expect: quiet}
      """;

  private static final String QUESTION = """
      questions:
        - id: X-q
          level: 1
          ask: "Is it fine?"
          yes: {fact: net.rdma, is: true}
          no: {fact: net.rdma, is: false}
          severity: problem
          fix: "Fix it."
          decide: "Look."
          fallback:
            - layer: fabric
              why: "Because."
              fix: "Fix the fabric."
      """;

  private static String replaceLine(String yaml, int line, String text) {
    String[] lines = yaml.split("\n", -1);
    lines[line - 1] = text;
    return String.join("\n", lines);
  }

  private static RuleSet load(String file, String yaml) throws RuleFileException {
    RuleSet.Builder b = new RuleSet.Builder();
    new RuleLoader().load(file, new StringReader(yaml), b);
    return b.build();
  }

  private static String error(String yaml) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> load("x.yaml", yaml));
    assertThat(t).as("loading should fail").isInstanceOf(RuleFileException.class);
    assertThat(t.getMessage()).as("one line").doesNotContain("\n");
    return t.getMessage();
  }

  @Test
  void baseFilesAreValid() throws RuleFileException {
    assertThat(load("x.yaml", LINT).lints()).extracting(Rule::id).containsExactly("X-extra-lint");
    assertThat(load("x.yaml", QUESTION).questions()).extracting(Rule::id).containsExactly("X-q");
  }

  @Test
  void unknownKeyInARule() {
    String yaml = replaceLine(LINT, 7, "    colour: red");
    assertThat(error(yaml)).startsWith("x.yaml:7:").contains("unknown key 'colour'");
  }

  @Test
  void missingRequiredKey() {
    String yaml = replaceLine(LINT, 7, "    # no fix");
    assertThat(error(yaml)).startsWith("x.yaml:2:").contains("missing key 'fix'");
  }

  @Test
  void unknownFactInACondition() {
    String yaml = replaceLine(LINT, 5, "    when: {fact: no.such.fact, is: \"1\"}");
    assertThat(error(yaml)).startsWith("x.yaml:5:").contains("unknown fact 'no.such.fact'");
  }

  @Test
  void unknownFactInANestedCondition() {
    String yaml = replaceLine(LINT, 5,
        "    when:\n      all:\n        - {fact: net.rdma, is: true}\n        - {fact: net.nope, is: 1}");
    assertThat(error(yaml)).startsWith("x.yaml:8:").contains("unknown fact 'net.nope'");
  }

  @Test
  void unknownOperator() {
    String yaml = replaceLine(LINT, 5, "    when: {fact: env.NCCL_IB_DISABLE, equals: \"1\"}");
    assertThat(error(yaml)).startsWith("x.yaml:5:").contains("unknown operator 'equals'");
  }

  @Test
  void badRegex() {
    String yaml = replaceLine(LINT, 5, "    when: {fact: env.NCCL_IB_HCA, matches: \"^(mlx5_[\"}");
    assertThat(error(yaml)).startsWith("x.yaml:5:").contains("bad regex");
  }

  @Test
  void duplicateIdInOneFile() {
    String yaml = LINT + LINT.substring(LINT.indexOf("  - id:"));
    // the second copy starts on line 11
    assertThat(error(yaml)).startsWith("x.yaml:11:").contains("duplicate rule id 'X-extra-lint'")
        .contains("x.yaml:2");
  }

  @Test
  void duplicateIdAcrossTwoFilesOfOneBuilder() throws RuleFileException {
    RuleSet.Builder b = new RuleSet.Builder();
    RuleLoader loader = new RuleLoader();
    loader.load("a.yaml", new StringReader(LINT), b);
    String second = "# another file\n" + LINT;
    assertThatThrownBy(() -> loader.load("b.yaml", new StringReader(second), b))
        .isInstanceOf(RuleFileException.class)
        .hasMessageStartingWith("b.yaml:3:")
        .hasMessageContaining("duplicate rule id 'X-extra-lint'")
        .hasMessageContaining("a.yaml:2");
  }

  @Test
  void duplicateOfABuiltInIdInAnExtraDir(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("x.yaml"), replaceLine(LINT, 2, "  - id: C1-no-device"));
    assertThatThrownBy(() -> new RuleLoader().loadBuiltInAnd(dir))
        .isInstanceOf(RuleFileException.class)
        .hasMessageContaining("x.yaml:2:")
        .hasMessageContaining("duplicate rule id 'C1-no-device'");
  }

  /** A file the reader cannot decode, one that is a folder, or nested past the limit: said in words, no class name. */
  @Test
  void unreadableOrTooDeepFilesAreNamedWithoutJavasWords(@TempDir Path dir) throws IOException {
    Files.write(dir.resolve("a.yaml"), new byte[] {'l', 'i', 'n', 't', 's', ':', ' ', (byte) 0xE9, '\n'});
    assertThatThrownBy(() -> new RuleLoader().loadBuiltInAnd(dir)).isInstanceOf(RuleFileException.class)
        .hasMessageContaining("a.yaml: not UTF-8 text").hasMessageNotContaining("java.");
    Files.delete(dir.resolve("a.yaml"));
    Files.createDirectory(dir.resolve("d.yaml"));
    assertThatThrownBy(() -> new RuleLoader().loadBuiltInAnd(dir)).isInstanceOf(RuleFileException.class)
        .hasMessageContaining("d.yaml: ").hasMessageNotContaining("java.");
    Files.delete(dir.resolve("d.yaml"));
    Files.writeString(dir.resolve("deep.yaml"), "[".repeat(1100) + "]".repeat(1100) + "\n");
    assertThatThrownBy(() -> new RuleLoader().loadBuiltInAnd(dir)).isInstanceOf(RuleFileException.class)
        .hasMessageContaining("deep.yaml").hasMessageContaining("not valid YAML").hasMessageNotContaining("StreamReadConstraints")
        .hasMessageNotContaining(":0:");
  }

  @Test
  void unknownLayer() {
    String yaml = replaceLine(LINT, 4, "    layer: wifi");
    assertThat(error(yaml)).startsWith("x.yaml:4:").contains("unknown layer 'wifi'");
  }

  @Test
  void unknownSeverity() {
    String yaml = replaceLine(LINT, 3, "    severity: fatal");
    assertThat(error(yaml)).startsWith("x.yaml:3:").contains("severity");
  }

  @Test
  void causeExplainingAMissingQuestionFailsAtBuild() throws RuleFileException {
    String yaml = """
        causes:
          - id: X-cause
            explains: Q9-nothing
            layer: fabric
            weight: 10
            when: {fact: ib.noDevice, is: true}
            why: "w"
            fix: "f"
        """;
    RuleSet.Builder b = new RuleSet.Builder();
    new RuleLoader().load("x.yaml", new StringReader(yaml), b); // loading alone is fine
    assertThatThrownBy(b::build)
        .isInstanceOf(RuleFileException.class)
        .hasMessageStartingWith("x.yaml:2:")
        .hasMessageContaining("X-cause")
        .hasMessageContaining("Q9-nothing");
  }

  @Test
  void causeExplainingABuiltInQuestionIsAccepted(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("c.yaml"), """
        causes:
          - id: X-cause
            explains: Q1-transport
            layer: fabric
            weight: 10
            when: {fact: ib.noDevice, is: true}
            why: "w"
            fix: "f"
        """);
    assertThat(new RuleLoader().loadBuiltInAnd(dir).causes()).extracting(Rule::id).contains("X-cause");
  }

  @Test
  void duplicateQuestionLevel() {
    String yaml = QUESTION + replaceLine(QUESTION.substring(QUESTION.indexOf("  - id:")), 1, "  - id: X-q2");
    // the second question starts on line 14
    assertThat(error(yaml)).startsWith("x.yaml:14:").contains("level 1").contains("X-q");
  }

  @Test
  void duplicateQuestionLevelAgainstBuiltIn(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("q.yaml"), QUESTION);
    assertThatThrownBy(() -> new RuleLoader().loadBuiltInAnd(dir))
        .isInstanceOf(RuleFileException.class)
        .hasMessageContaining("level 1");
  }

  @Test
  void unknownPlaceholderInText() {
    String yaml = replaceLine(LINT, 6, "    message: \"see {no.such.fact}\"");
    assertThat(error(yaml)).startsWith("x.yaml:6:").contains("{no.such.fact}");
  }

  @Test
  void unknownPlaceholderInAQuestionFallback() {
    String yaml = replaceLine(QUESTION, 12, "        why: \"see {ib.nothing}\"");
    assertThat(error(yaml)).startsWith("x.yaml:12:").contains("{ib.nothing}");
  }

  @Test
  void caseWithUnknownExpectValue() {
    String yaml = replaceLine(LINT, 10, "      - {facts: {env.NCCL_IB_DISABLE: \"0\"}, expect: maybe}");
    assertThat(error(yaml)).startsWith("x.yaml:10:").contains("expect");
  }

  @Test
  void questionCaseCannotExpectFires() {
    String yaml = QUESTION + "    cases:\n      - {facts: {net.rdma: true}, expect: fires}\n";
    assertThat(error(yaml)).startsWith("x.yaml:15:").contains("expect");
  }

  @Test
  void caseWithUnknownFact() {
    String yaml = replaceLine(LINT, 10, "      - {facts: {env.NCCL_IB_DISABLE: \"0\", job.colour: red}, expect: quiet}");
    assertThat(error(yaml)).startsWith("x.yaml:10:").contains("job.colour");
  }

  @Test
  void unknownSection() {
    String yaml = "rulez:\n  - id: a\n";
    assertThat(error(yaml)).startsWith("x.yaml:").contains("unknown section 'rulez'");
  }

  @Test
  void comparisonNeedsANumber() {
    String yaml = replaceLine(LINT, 5, "    when: {fact: ib.hcaPorts, lt: many}");
    assertThat(error(yaml)).startsWith("x.yaml:5:").contains("number");
  }

  @Test
  void malformedYamlUnclosedFlowMapping() {
    String yaml = replaceLine(LINT, 5, "    when: {fact: env.NCCL_IB_DISABLE, is: \"1\"");
    assertThat(error(yaml)).startsWith("x.yaml:").contains("YAML");
  }

  @Test
  void malformedYamlBadIndentation() {
    String yaml = replaceLine(LINT, 4, "  layer: nccl-env");
    assertThat(error(yaml)).containsPattern("^x\\.yaml:[1-9]\\d*: ");
  }

  /** The documented message shape is {@code file:line: ...}; YAML syntax errors should keep it. */
  @Test
  void malformedYamlNamesTheLine() {
    String yaml = replaceLine(LINT, 5, "    when: {fact: env.NCCL_IB_DISABLE, is: \"1\"");
    assertThat(error(yaml)).matches("x\\.yaml:[56]: not valid YAML: .+");
  }

  @Test
  void duplicateKeyInAMapping() {
    String yaml = replaceLine(LINT, 7, "    message: \"again\"");
    assertThat(error(yaml)).startsWith("x.yaml:7:").contains("duplicate key 'message'");
  }

  @Test
  void extraRuleFileIsAcceptedAndAppearsInTheSet(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("extra.yaml"), LINT);
    Files.writeString(dir.resolve("ignored.txt"), "not: [a rule");
    RuleSet builtIn = new RuleLoader().loadBuiltInAnd(null);
    RuleSet set = new RuleLoader().loadBuiltInAnd(dir);
    assertThat(set.all()).hasSize(builtIn.all().size() + 1);
    Rule.Lint mine = set.lints().stream().filter(l -> l.id().equals("X-extra-lint")).findFirst().orElseThrow();
    assertThat(mine.origin()).endsWith("extra.yaml:2");
    assertThat(mine.severity()).isEqualTo("warn");
    assertThat(mine.layer()).isEqualTo(Layer.NCCL_ENV);
    assertThat(mine.weight()).isEqualTo(50);
    assertThat(mine.cases()).hasSize(2);
    for (RuleCase c : mine.cases()) {
      assertThat(Engine.outcome(mine, c.factSet())).isEqualTo(c.expect());
    }
  }

  @Test
  void extraDirThatIsNotADirectory(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("x.yaml"), LINT);
    assertThatThrownBy(() -> new RuleLoader().loadBuiltInAnd(file))
        .isInstanceOf(RuleFileException.class)
        .hasMessageContaining("x.yaml");
  }

  @Test
  void emptyFileIsAcceptedAndAddsNothing() throws RuleFileException {
    assertThat(load("x.yaml", "").all()).isEmpty();
    assertThat(load("x.yaml", "# only a comment\n").all()).isEmpty();
  }
}
