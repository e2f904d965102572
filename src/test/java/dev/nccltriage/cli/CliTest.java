package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line as a user meets it: options, exit codes, errors, inputs. */
class CliTest {
  private static final String SOCKET = "samples/logs/02-socket-no-device-k8s-2.19.3.log";
  private static final String OOB_ON_OVERLAY = "samples/logs/07-oob-on-overlay-eth0-2.22.3.log";

  @TempDir Path tmp;

  /**
   * A usage error: exit 2, one "nccl-triage: " line naming the problem, nothing on stdout, no
   * trace.
   */
  private static void assertUsageError(CliRun run, String... mentions) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.stdout()).as("stdout").isEmpty();
    List<String> lines = run.stderr().lines().toList();
    assertThat(lines).as("stderr").isNotEmpty();
    assertThat(lines.get(0)).startsWith("nccl-triage: ").contains(mentions);
    assertThat(lines).as("stderr").filteredOn(l -> l.startsWith("nccl-triage: ")).hasSize(1);
    assertThat(lines).as("stderr").hasSizeLessThanOrEqualTo(2);
    assertThat(run.stderr()).doesNotContain("Exception", "\tat ");
  }

  private String tmpPath(String name) {
    return tmp.resolve(name).toString();
  }

  @Test
  void versionPrintsNameAndVersion() {
    CliRun run = CliRun.run("--version");
    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout()).isEqualTo("nccl-triage 0.1.0\n");
    assertThat(run.stderr()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"--help", "log --help"})
  void helpListsTheExitCodes(String args) {
    CliRun run = CliRun.run(args.split(" "));
    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout())
        .contains("Exit codes:")
        .containsPattern("(?m)^\\s+0\\s+healthy")
        .containsPattern("(?m)^\\s+1\\s+.*problem")
        .containsPattern("(?m)^\\s+2\\s+usage error")
        .containsPattern("(?m)^\\s+3\\s+inconclusive")
        .containsPattern("(?m)^\\s+4\\s+internal error");
  }

  @Test
  void unknownOptionIsAUsageError() {
    assertUsageError(CliRun.run("log", "--no-such-option", SOCKET), "--no-such-option");
  }

  @Test
  void badOutputFormatIsAUsageError() {
    assertUsageError(CliRun.run("log", "-o", "xml", SOCKET), "xml", "json", "yaml");
  }

  @Test
  void noCommandIsAUsageError() {
    assertUsageError(CliRun.run(), "command");
  }

  @Test
  void missingFileIsAUsageErrorNamingIt() {
    assertUsageError(CliRun.run("log", "missing.log"), "missing.log");
  }

  @Test
  void directoryIsAUsageError() {
    assertUsageError(CliRun.run("log", tmp.toString()), tmp.toString());
  }

  @Test
  void emptyFileIsInconclusiveAndSaysHowToGetALog() throws IOException {
    Path empty = Files.createFile(tmp.resolve("empty.log"));
    CliRun json = CliRun.run("log", "-o", "json", empty.toString());
    assertThat(json.exitCode()).as(json.toString()).isEqualTo(3);
    assertThat(json.json().at("/verdict/status").asText()).isEqualTo("inconclusive");
    assertThat(json.json().at("/verdict/layer").asText()).isEqualTo("unknown");
    assertThat(json.json().at("/verdict/advice").toString()).contains("NCCL_DEBUG=INFO");

    CliRun text = CliRun.run("log", empty.toString());
    assertThat(text.exitCode()).isEqualTo(3);
    assertThat(text.stdout()).contains("INCONCLUSIVE", "NCCL_DEBUG=INFO");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-", ""})
  void stdinIsReadWithDashOrWithoutFiles(String dash) throws IOException {
    byte[] log = Files.readAllBytes(CliRun.REPO.resolve(SOCKET));
    CliRun fromStdin =
        dash.isEmpty()
            ? CliRun.runWithStdin(log, "log", "-o", "json")
            : CliRun.runWithStdin(log, "log", "-o", "json", dash);
    CliRun fromFile = CliRun.run("log", "-o", "json", SOCKET);
    assertThat(fromStdin.exitCode()).as(fromStdin.toString()).isEqualTo(1);
    assertThat(fromStdin.json().at("/inputs/0/source").asText()).isEqualTo("-");
    assertThat(fromStdin.json().at("/verdict/candidates/0/evidence/0/source").asText())
        .isEqualTo("-");
    assertThat(fromStdin.verdictIgnoringSources()).isEqualTo(fromFile.verdictIgnoringSources());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "samples/logs/01-healthy-ib-gdr-2.21.5.log",
        "samples/logs/06-partial-hcas-2of8-2.23.4.log",
        "samples/logs/11-one-node-fell-back-mixed-2.21.5.log"
      })
  void aLogSplitInTwoFilesIsOneJob(String sample) throws IOException {
    List<String> lines =
        Files.readAllLines(CliRun.REPO.resolve(sample), StandardCharsets.ISO_8859_1);
    int half = lines.size() / 2;
    Path first = tmp.resolve("pod-a.log");
    Path second = tmp.resolve("pod-b.log");
    Files.write(first, lines.subList(0, half), StandardCharsets.ISO_8859_1);
    Files.write(second, lines.subList(half, lines.size()), StandardCharsets.ISO_8859_1);

    JsonNode whole = CliRun.run("log", "-o", "json", sample).json();
    CliRun split = CliRun.run("log", "-o", "json", first.toString(), second.toString());
    JsonNode parts = split.json();

    assertThat(parts.at("/inputs")).hasSize(2);
    assertThat(parts.at("/verdict/status")).isEqualTo(whole.at("/verdict/status"));
    assertThat(parts.at("/verdict/layer")).isEqualTo(whole.at("/verdict/layer"));
    assertThat(split.exitCode())
        .isEqualTo(CliRun.exitCodeFor(whole.at("/verdict/status").asText()));
  }

  @Test
  void gzipFileGivesTheSameVerdictAsThePlainFile() throws IOException {
    Path gz = tmp.resolve("socket.log.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      Files.copy(CliRun.REPO.resolve(SOCKET), out);
    }
    CliRun zipped = CliRun.run("log", "-o", "json", gz.toString());
    CliRun plain = CliRun.run("log", "-o", "json", SOCKET);
    assertThat(zipped.exitCode()).as(zipped.toString()).isEqualTo(plain.exitCode()).isEqualTo(1);
    assertThat(zipped.json().get("log")).isEqualTo(plain.json().get("log"));
    assertThat(zipped.verdictIgnoringSources()).isEqualTo(plain.verdictIgnoringSources());
  }

  @Test
  void failOnWarnTurnsAWarningIntoExitOne() {
    CliRun byDefault = CliRun.run("log", "-o", "json", OOB_ON_OVERLAY);
    assertThat(byDefault.exitCode()).as(byDefault.toString()).isZero();
    assertThat(byDefault.json().at("/verdict/status").asText()).isEqualTo("healthy");

    CliRun strict = CliRun.run("log", "--fail-on", "warn", OOB_ON_OVERLAY);
    assertThat(strict.exitCode()).as(strict.toString()).isEqualTo(1);

    CliRun healthy =
        CliRun.run("log", "--fail-on", "warn", "samples/logs/01-healthy-ib-gdr-2.21.5.log");
    assertThat(healthy.exitCode()).as(healthy.toString()).isZero();
  }

  @Test
  void rulesPrintsTheDecisionTree() {
    CliRun run = CliRun.run("rules");
    assertThat(run.exitCode()).isZero();
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout())
        .contains("Decision tree")
        .containsPattern("(?m)^\\s+Q1 Q1-")
        .containsPattern("(?m)^\\s+Q2 Q2-")
        .containsPattern("(?m)^\\s+Q3 Q3-")
        .containsPattern("(?m)^\\s+Q4 Q4-");
  }

  @Test
  void rulesFactsListsTheVocabulary() {
    CliRun run = CliRun.run("rules", "--facts");
    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout()).containsPattern("(?m)^net\\.transport\\s+text\\s+\\S");
  }

  @ParameterizedTest
  @ValueSource(strings = {"rules", "rules --facts", "log"})
  void malformedRuleFileIsAUsageErrorNamingFileAndLine(String command) throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("rules"));
    Files.writeString(
        dir.resolve("extra.yaml"),
        """
        lints:
          - id: L-extra
            severity: warn
            colour: red
        """);
    CliRun run =
        command.equals("rules")
            ? CliRun.run("rules", "--rules", dir.toString())
            : command.equals("rules --facts") ? CliRun.run("rules", "--facts", "--rules", dir.toString())
            : CliRun.run("log", "--rules", dir.toString(), SOCKET);
    assertUsageError(run, "extra.yaml:4:", "colour");
  }
}
