package dev.nccltriage.source.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code lint} over samples/k8s: every {@code # expect: RULE[, RULE]} marker in a bad sample is
 * reported at that line, nothing else is; good samples are quiet. Text and JSON are compared with
 * samples/k8s/golden/NAME.{json,txt}; regenerate with
 * {@code mvn -Dgolden.update=true -Dtest=LintSamplesTest test} and review the diff.
 */
class LintSamplesTest {
  private static final Path K8S = CliRun.REPO.resolve("samples/k8s");
  private static final Path GOLDEN = K8S.resolve("golden");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");
  private static final Pattern EXPECT = Pattern.compile("#\\s*expect:\\s*([\\w.,\\s-]+)$");

  static Stream<String> bad() throws IOException {
    return list("bad");
  }

  static Stream<String> good() throws IOException {
    return list("good");
  }

  static Stream<String> all() throws IOException {
    return Stream.concat(list("good"), list("bad"));
  }

  private static Stream<String> list(String dir) throws IOException {
    try (Stream<Path> s = Files.list(K8S.resolve(dir))) {
      List<String> names = s.map(p -> dir + "/" + p.getFileName()).filter(n -> n.endsWith(".yaml")).sorted().toList();
      assertThat(names).isNotEmpty();
      return names.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void badSampleFindsEveryMarkerAndNothingElse(String name) throws IOException {
    String file = "samples/k8s/" + name;
    List<String> expected = new ArrayList<>();
    List<String> lines = Files.readAllLines(CliRun.REPO.resolve(file), StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = EXPECT.matcher(lines.get(i));
      if (m.find()) {
        for (String id : m.group(1).split(",")) {
          expected.add(id.strip() + "@" + (i + 1));
        }
      }
    }
    assertThat(expected).as("markers in %s", file).isNotEmpty();
    CliRun run = CliRun.run("lint", "-o", "json", file);
    assertThat(run.exitCode()).isEqualTo(run.json().get("status").asText().equals("problem") ? 1 : 0);
    List<String> found = new ArrayList<>();
    for (JsonNode f : run.json().get("findings")) {
      assertThat(f.get("file").asText()).isEqualTo(file);
      found.add(f.get("rule").asText() + "@" + f.get("line").asInt());
    }
    assertThat(found).containsExactlyInAnyOrderElementsOf(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("good")
  void goodSampleIsQuiet(String name) {
    CliRun run = CliRun.run("lint", "--fail-on", "warn", "-o", "json", "samples/k8s/" + name);
    assertThat(run.json().get("findings")).as(run.stdout()).isEmpty();
    assertThat(run.json().get("inputs").get(0).get("podTemplates").asInt()).isPositive();
    assertThat(run.exitCode()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("all")
  void matchesGolden(String name) throws IOException {
    String base = name.replace('/', '-').replace(".yaml", "");
    for (String[] form : new String[][] {{"json", ".json"}, {"text", ".txt"}, {"markdown", ".md"}}) {
      CliRun run = CliRun.run("lint", "-o", form[0], "samples/k8s/" + name);
      assertThat(run.stderr()).isEmpty();
      Path golden = GOLDEN.resolve(base + form[1]);
      if (UPDATE) {
        Files.createDirectories(GOLDEN);
        Files.write(golden, run.stdoutBytes());
        continue;
      }
      assertThat(golden).exists();
      assertThat(run.stdout()).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
  }

  @Test
  void badYamlIsAUsageErrorNamingFileAndLine() {
    CliRun run = CliRun.runWithStdin("kind: Pod\nspec:\n  containers: [\n  - {name: a\n".getBytes(StandardCharsets.UTF_8),
        "lint", "-");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr().lines().toList()).hasSize(1);
    assertThat(run.stderr()).matches("(?s)nccl-triage: -:\\d+: invalid YAML.*");
  }

  @Test
  void noPodTemplateExitsThree() {
    CliRun run = CliRun.runWithStdin("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n".getBytes(StandardCharsets.UTF_8),
        "lint", "-o", "json");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.json().get("status").asText()).isEqualTo("no-pod-template");
  }

  @Test
  void siteRdmaResourceCounts() {
    String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
        + "    resources: {limits: {nvidia.com/gpu: 1, example.com/ib: 1}}\n";
    CliRun plain = CliRun.runWithStdin(pod.getBytes(StandardCharsets.UTF_8), "lint", "-o", "json");
    CliRun site = CliRun.runWithStdin(pod.getBytes(StandardCharsets.UTF_8), "lint", "-o", "json",
        "--rdma-resource", "example.com/ib");
    assertThat(rules(plain)).doesNotContain("K-rdma-no-ipc-lock");
    assertThat(rules(site)).contains("K-rdma-no-ipc-lock", "K-rdma-no-multus");
  }

  @Test
  void ncclVersionEnablesTheVersionDependentEnvLints() {
    String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
        + "    env:\n    - {name: NCCL_IB_GID_INDEX, value: \"3\"}\n    - {name: NCCL_IB_TIMEOUT, value: \"12\"}\n";
    byte[] in = pod.getBytes(StandardCharsets.UTF_8);
    assertThat(rules(CliRun.runWithStdin(in, "lint", "-o", "json")))
        .doesNotContain("L-env-gid-index-manual", "L-env-ib-timeout-low");
    CliRun new21 = CliRun.runWithStdin(in, "lint", "-o", "json", "--nccl-version", "2.21.5+cuda12.4");
    assertThat(rules(new21)).contains("L-env-gid-index-manual", "L-env-ib-timeout-low");
    // the finding points at the manifest's line, not at the flag
    for (JsonNode f : new21.json().get("findings")) {
      assertThat(f.get("line").asInt()).isIn(8, 9);
      assertThat(f.get("file").asText()).isEqualTo("-");
    }
    assertThat(rules(CliRun.runWithStdin(in, "lint", "-o", "json", "--nccl-version", "2.18.3")))
        .doesNotContain("L-env-gid-index-manual").contains("L-env-ib-timeout-low");
  }

  @Test
  void badNcclVersionIsAUsageError() {
    CliRun run = CliRun.runWithStdin("kind: Pod\n".getBytes(StandardCharsets.UTF_8), "lint", "--nccl-version", "two");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).isEqualTo("nccl-triage: --nccl-version must look like 2.21.5 or 2.21.5+cuda12.4 (got 'two')\n");
  }

  @Test
  void failOnWarn() {
    String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
        + "    resources: {limits: {nvidia.com/gpu: 1}}\n";
    assertThat(CliRun.runWithStdin(pod.getBytes(StandardCharsets.UTF_8), "lint").exitCode()).isZero();
    assertThat(CliRun.runWithStdin(pod.getBytes(StandardCharsets.UTF_8), "lint", "--fail-on", "warn").exitCode())
        .isEqualTo(1);
  }

  @Test
  void multusAnnotationSyntax() {
    assertThat(ManifestSource.malformed("rdma-net")).isFalse();
    assertThat(ManifestSource.malformed("ns/a@net1, ns/b@net2")).isFalse();
    assertThat(ManifestSource.malformed("[{\"name\":\"a\",\"interface\":\"net1\"}]")).isFalse();
    assertThat(ManifestSource.malformed("a,,b")).isTrue();
    assertThat(ManifestSource.malformed("Bad_Name")).isTrue();
    assertThat(ManifestSource.malformed("[{\"interface\":\"net1\"}]")).isTrue();
    assertThat(ManifestSource.malformed("[{\"name\":")).isTrue();
  }

  private static List<String> rules(CliRun run) {
    List<String> out = new ArrayList<>();
    run.json().get("findings").forEach(f -> out.add(f.get("rule").asText()));
    return out;
  }
}
