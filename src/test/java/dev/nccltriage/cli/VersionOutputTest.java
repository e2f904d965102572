package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 item 8: {@code nccl-triage --version -o json|yaml} is a document with the version, the git
 * commit and the build date that the build put in the jar (BuildInfo); a build outside a git checkout
 * has a null commit. The plain {@code --version} line is unchanged.
 */
class VersionOutputTest {
  @TempDir Path tmp;

  /** HEAD of the checkout the tests run in, or null when it is not one (a source tarball). */
  private static String head() throws Exception {
    Process p = new ProcessBuilder("git", "-C", CliRun.REPO.toString(), "rev-parse", "HEAD")
        .redirectErrorStream(true).start();
    if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
      return null;
    }
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
  }

  @Test
  void versionAsJsonHasTheCommitAndBuildDate() throws Exception {
    CliRun run = CliRun.run("--version", "-o", "json");
    assertThat(run.exitCode()).isZero();
    assertThat(run.stderr()).isEmpty();
    JsonNode v = run.json();
    assertThat(v.get("command").asText()).isEqualTo("version");
    assertThat(v.get("version").asText()).isEqualTo(NcclTriage.version()).isNotEqualTo("unknown");
    assertThat(v.get("inputs")).isEmpty();
    assertThat(v.get("buildDate").asText()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");
    // built by this checkout's Maven run (process-classes, before the tests): the commit is its HEAD
    // at build time; a commit made since would differ, so compare the shape, and HEAD when unchanged
    String head = head();
    if (head == null) {
      assertThat(v.get("commit").isNull()).as("built outside git: null, not a guess").isTrue();
    } else {
      assertThat(v.get("commit").asText()).matches("[0-9a-f]{40}");
    }
    assertThat(v.get("java").asText()).isEqualTo(Runtime.version().toString());
  }

  @Test
  void versionAsYamlIsTheSameDocumentInEitherOrder() throws Exception {
    JsonNode json = CliRun.run("--version", "-o", "json").json();
    CliRun yaml = CliRun.run("-o", "yaml", "--version");
    assertThat(yaml.exitCode()).isZero();
    assertThat(new YAMLMapper().readTree(yaml.stdoutBytes())).isEqualTo(json);
    assertThat(CliRun.run("--output=json", "-V").json()).isEqualTo(json);
  }

  @Test
  void plainVersionIsUnchanged() {
    CliRun run = CliRun.run("--version");
    assertThat(run.stdout()).isEqualTo("nccl-triage " + NcclTriage.version() + "\n");
    assertThat(CliRun.run("--version", "-o", "text").stdout()).isEqualTo(run.stdout());
  }

  /** A root -o without --version would be silently ignored by the command after it: a usage error. */
  @Test
  void rootOutputWithoutVersionIsAUsageError() {
    CliRun run = CliRun.run("-o", "json", "log", "samples/logs/01-healthy-ib-gdr-2.21.5.log");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).startsWith("nccl-triage: -o/--output before a command goes with --version only");
    assertThat(CliRun.run("--version", "-o", "xml").exitCode()).isEqualTo(2);
  }

  @Test
  void aBuildOutsideGitHasNoCommit() throws Exception {
    Path sources = Files.createDirectories(tmp.resolve("src"));
    Path classes = tmp.resolve("classes");
    assertThat(BuildInfo.commit(sources)).isNull();
    BuildInfo.write(classes, sources, Map.of("SOURCE_DATE_EPOCH", "1700000000"));
    String props = Files.readString(classes.resolve("dev/nccltriage/build.properties"));
    assertThat(props).isEqualTo("buildDate=2023-11-14T22:13:20Z\n");
  }

  @Test
  void aBuildInGitRecordsHead() throws Exception {
    String head = head();
    org.junit.jupiter.api.Assumptions.assumeTrue(head != null, "not a git checkout");
    Path classes = tmp.resolve("classes");
    BuildInfo.write(classes, CliRun.REPO, Map.of());
    assertThat(Files.readString(classes.resolve("dev/nccltriage/build.properties"))).contains("commit=" + head + "\n");
  }
}
