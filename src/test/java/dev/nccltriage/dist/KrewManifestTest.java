package dev.nccltriage.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The krew manifest {@code dist/krew/nccl-triage.yaml}, checked against krew's rules, and the
 * script that fills it in at release time, {@code dist/krew/update-sha256.sh}, run on archives laid
 * out as {@code build-bundle.sh} lays them out (with the real plugin and LICENSE); the result is
 * installed for every platform by {@code dist/test/fake-krew}. {@code dist/bundle/test-bundle.sh}
 * does the same with the real archives.
 */
class KrewManifestTest {
  static final Path REPO = Path.of("").toAbsolutePath();
  static final Path MANIFEST = REPO.resolve("dist/krew/nccl-triage.yaml");
  static final Path UPDATE = REPO.resolve("dist/krew/update-sha256.sh");
  static final Path FAKE_KREW = REPO.resolve("dist/test/fake-krew");
  /** What each sha256 holds until update-sha256.sh has hashed the real archives. */
  static final String PLACEHOLDER = "RUN-dist/krew/update-sha256.sh-ON-THE-RELEASE-ARCHIVES";
  static final String RELEASES = "https://github.com/nccl-triage/nccl-triage/releases/download/";
  /** os/arch -> the archive kind krew installs there. */
  static final Map<String, String> PLATFORMS = Map.of("linux/amd64", "linux-x64",
      "linux/arm64", "kubectl-plugin", "darwin/amd64", "kubectl-plugin", "darwin/arm64", "kubectl-plugin");

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @TempDir Path tmp;

  static JsonNode read(Path manifest) throws IOException {
    return YAML.readTree(manifest.toFile());
  }

  /**
   * Checks what krew's validation (and krew-index's) requires, and this plugin's layout; returns
   * the version.
   */
  static String assertValid(JsonNode m) {
    assertThat(m.path("apiVersion").asText()).isEqualTo("krew.googlecontainertools.github.com/v1alpha2");
    assertThat(m.path("kind").asText()).isEqualTo("Plugin");
    assertThat(m.path("metadata").path("name").asText()).isEqualTo("nccl-triage").matches("[A-Za-z0-9_-]+");
    JsonNode spec = m.path("spec");
    String v = spec.path("version").asText();
    assertThat(v).matches("v\\d+\\.\\d+\\.\\d+([-+][0-9A-Za-z.+-]+)?");
    String version = v.substring(1);
    assertThat(spec.path("homepage").asText()).startsWith("https://");
    assertThat(spec.path("shortDescription").asText()).isNotBlank().hasSizeLessThanOrEqualTo(50);
    assertThat(spec.path("description").asText()).contains("kubectl nccl-triage", "job/train");
    assertThat(spec.path("caveats").asText()).contains("tar", "pods/exec", "NCCL_TRIAGE_NO_DOWNLOAD");

    JsonNode platforms = spec.path("platforms");
    assertThat(platforms.isArray()).isTrue();
    List<String> covered = new ArrayList<>();
    for (JsonNode p : platforms) {
      JsonNode labels = p.path("selector").path("matchLabels");
      assertThat(labels.size()).as("matchLabels of %s", p).isPositive();
      String platform = labels.path("os").asText() + "/" + labels.path("arch").asText();
      String kind = PLATFORMS.get(platform);
      assertThat(kind).as("a platform this plugin ships for: %s", platform).isNotNull();
      assertThat(covered).as("one platform entry per os/arch").doesNotContain(platform);
      covered.add(platform);
      String top = "nccl-triage-" + version + "-" + kind;
      assertThat(p.path("uri").asText()).isEqualTo(RELEASES + v + "/" + top + ".tar.gz");
      String sha = p.path("sha256").asText();
      assertThat(sha.matches("[0-9a-f]{64}") || sha.equals(PLACEHOLDER))
          .as("sha256 is a hash of a real archive or the placeholder: %s", sha).isTrue();
      assertThat(p.path("bin").asText()).isEqualTo(top + (kind.equals("linux-x64") ? "/bin/" : "/") + "kubectl-nccl_triage");
      // the whole archive, LICENSE included, is installed
      assertThat(p.path("files").size()).isEqualTo(1);
      assertThat(p.path("files").get(0).path("from").asText()).isEqualTo("*");
      assertThat(p.path("files").get(0).path("to").asText()).isEqualTo(".");
    }
    assertThat(covered).containsExactlyInAnyOrderElementsOf(PLATFORMS.keySet());
    return version;
  }

  @Test
  void manifestFollowsKrewsRules() throws IOException {
    assertValid(read(MANIFEST));
    assertThat(Files.readString(MANIFEST)).contains("dist/krew/update-sha256.sh");
    assertThat(REPO.resolve("LICENSE")).content().startsWith("\n                                 Apache License\n")
        .contains("Version 2.0, January 2004", "END OF TERMS AND CONDITIONS");
  }

  // --- release archives, update-sha256.sh, krew ---

  static void assumeTools() {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "no POSIX file modes here");
    for (String tool : List.of("sh", "tar", "gzip", "sed", "awk", "find")) {
      assumeTrue(KubectlPluginTest.onPath(tool) != null, tool + " is not installed");
    }
    assumeTrue(KubectlPluginTest.onPath("sha256sum") != null || KubectlPluginTest.onPath("shasum") != null,
        "no sha256sum or shasum");
  }

  /** An archive nccl-triage-VERSION-KIND.tar.gz (in dir) holding TOP/ENTRY for each entry. */
  Path archive(Path dir, String name, String top, Map<String, String> entries) throws Exception {
    Path root = Files.createTempDirectory(tmp, "a");
    for (Map.Entry<String, String> e : entries.entrySet()) {
      Path f = root.resolve(top).resolve(e.getKey());
      Files.createDirectories(f.getParent());
      Files.copy(REPO.resolve(e.getValue()), f, StandardCopyOption.REPLACE_EXISTING);
      Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(
          e.getValue().endsWith("kubectl-nccl_triage") ? "rwxr-xr-x" : "rw-r--r--"));
    }
    Files.createDirectories(dir);
    Path out = dir.resolve(name);
    assertThat(exec(Map.of(), "tar", "-czf", out.toString(), "-C", root.toString(), top).exit).isZero();
    return out;
  }

  /** The two release archives of VERSION in dir; bundle.source as build-bundle.sh writes it. */
  Path release(Path dir, String version, String bundleTop, boolean license) throws Exception {
    Map<String, String> bundle = new java.util.LinkedHashMap<>(Map.of(
        "bin/kubectl-nccl_triage", "dist/kubectl-nccl_triage", "bin/nccl-triage", "dist/kubectl-nccl_triage"));
    if (license) {
      bundle.put("LICENSE", "LICENSE");
    }
    Path b = archive(dir, "nccl-triage-" + version + "-linux-x64.tar.gz", bundleTop, bundle);
    Path source = tmp.resolve("bundle.source-" + version);
    Files.writeString(source, "url " + RELEASES + "v" + version + "/nccl-triage-" + version + "-linux-x64.tar.gz\n"
        + "sha256 " + sha256(b) + "\n");
    archive(dir, "nccl-triage-" + version + "-kubectl-plugin.tar.gz", "nccl-triage-" + version + "-kubectl-plugin",
        Map.of("kubectl-nccl_triage", "dist/kubectl-nccl_triage", "LICENSE", "LICENSE",
            "bundle.source", REPO.relativize(source).toString()));
    return b;
  }

  static String sha256(Path p) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
  }

  record Run(int exit, String output) {}

  Run exec(Map<String, String> env, String... argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(REPO.toFile()).redirectErrorStream(true);
    pb.environment().putAll(env);
    Path out = Files.createTempFile(tmp, "out", ".txt");
    pb.redirectOutput(out.toFile());
    Process p = pb.start();
    p.getOutputStream().close();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), Files.readString(out));
  }

  Path manifestCopy() throws IOException {
    return Files.copy(MANIFEST, Files.createTempDirectory(tmp, "m").resolve("nccl-triage.yaml"));
  }

  @Test
  void updateSha256FillsInTheReleaseAndKrewInstallsItOnEveryPlatform() throws Exception {
    assumeTools();
    Path dir = tmp.resolve("target");
    Path bundle = release(dir, "0.2.0", "nccl-triage-0.2.0-linux-x64", true);
    Path plugin = dir.resolve("nccl-triage-0.2.0-kubectl-plugin.tar.gz");
    Path m = manifestCopy();
    String before = Files.readString(m);

    Run update = exec(Map.of(), "sh", UPDATE.toString(), bundle.toString(), m.toString());
    assertThat(update.exit).as(update.output).isZero();

    JsonNode after = read(m);
    assertThat(assertValid(after)).isEqualTo("0.2.0");
    for (JsonNode p : after.path("spec").path("platforms")) {
      boolean isBundle = p.path("uri").asText().endsWith("-linux-x64.tar.gz");
      assertThat(p.path("sha256").asText()).isEqualTo(sha256(isBundle ? bundle : plugin));
    }
    // the rest, comments included, is untouched
    List<String> a = Files.readAllLines(m);
    List<String> b = before.lines().toList();
    assertThat(a).hasSameSizeAs(b);
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).equals(b.get(i))) {
        assertThat(a.get(i)).matches("  version: .*|    uri: .*|    sha256: .*|    bin: .*");
      }
    }
    Run valid = exec(Map.of(), "sh", FAKE_KREW.toString(), "validate", m.toString());
    assertThat(valid.exit).as(valid.output).isZero();

    for (String platform : PLATFORMS.keySet()) {
      Path root = tmp.resolve("krew-" + platform.replace('/', '-'));
      Path archive = PLATFORMS.get(platform).equals("linux-x64") ? bundle : plugin;
      Run install = exec(Map.of("KREW_ROOT", root.toString(), "KREW_OS", platform.split("/")[0],
          "KREW_ARCH", platform.split("/")[1]),
          "sh", FAKE_KREW.toString(), "install", "--manifest=" + m, "--archive=" + archive);
      assertThat(install.exit).as(platform + ": " + install.output).isZero();
      Path link = root.resolve("bin/kubectl-nccl_triage");
      assertThat(link).isSymbolicLink().isExecutable();
      Run help = exec(Map.of("KUBECTL", "no-such-kubectl"), link.toString(), "--help");
      assertThat(help.exit).as(help.output).isZero();
      assertThat(help.output).startsWith("Usage:\n  kubectl nccl-triage POD");
      try (var files = Files.walk(root.resolve("store/nccl-triage/v0.2.0"))) {
        assertThat(files.filter(f -> f.getFileName().toString().equals("LICENSE")).count())
            .as("LICENSE installed for %s", platform).isEqualTo(1);
      }
    }

    // idempotent, and back again to another version
    assertThat(exec(Map.of(), "sh", UPDATE.toString(), bundle.toString(), m.toString()).exit).isZero();
    assertThat(read(m)).isEqualTo(after);
    Path older = release(tmp.resolve("older"), "0.1.0", "nccl-triage-0.1.0-linux-x64", true);
    assertThat(exec(Map.of(), "sh", UPDATE.toString(), older.toString(), m.toString()).exit).isZero();
    assertThat(assertValid(read(m))).isEqualTo("0.1.0");
  }

  @Test
  void updateSha256RefusesArchivesKrewCouldNotInstall() throws Exception {
    assumeTools();
    Path m = manifestCopy();
    String before = Files.readString(m);
    // the top folder the manifest used to expect, not the bundle's (issue 13)
    Path wrongTop = release(tmp.resolve("t1"), "0.2.0", "nccl-triage-0.2.0", true);
    assertThat(exec(Map.of(), "sh", UPDATE.toString(), wrongTop.toString(), m.toString()))
        .satisfies(r -> assertThat(r.exit).isEqualTo(1))
        .satisfies(r -> assertThat(r.output).contains("has no nccl-triage-0.2.0-linux-x64/bin/kubectl-nccl_triage"));
    Path noLicense = release(tmp.resolve("t2"), "0.2.0", "nccl-triage-0.2.0-linux-x64", false);
    assertThat(exec(Map.of(), "sh", UPDATE.toString(), noLicense.toString(), m.toString()).output)
        .contains("has no nccl-triage-0.2.0-linux-x64/LICENSE");
    Path ok = release(tmp.resolve("t3"), "0.2.0", "nccl-triage-0.2.0-linux-x64", true);
    Files.delete(ok.resolveSibling("nccl-triage-0.2.0-kubectl-plugin.tar.gz"));
    assertThat(exec(Map.of(), "sh", UPDATE.toString(), ok.toString(), m.toString()).output)
        .contains("nccl-triage-0.2.0-kubectl-plugin.tar.gz is missing");
    // a plugin archive from another build: its bundle.source names another bundle
    Path other = release(tmp.resolve("t4"), "0.2.0", "nccl-triage-0.2.0-linux-x64", true);
    archive(tmp.resolve("t4"), other.getFileName().toString(), "nccl-triage-0.2.0-linux-x64",
        Map.of("bin/kubectl-nccl_triage", "dist/kubectl-nccl_triage", "bin/nccl-triage", "dist/kubectl-nccl_triage",
            "LICENSE", "LICENSE", "README.txt", "LICENSE"));
    Run mismatch = exec(Map.of(), "sh", UPDATE.toString(), other.toString(), m.toString());
    assertThat(mismatch.exit).isEqualTo(1);
    assertThat(mismatch.output).contains("bundle.source says sha256");
    Path badName = Files.copy(ok, tmp.resolve("bundle.tar.gz"));
    assertThat(exec(Map.of(), "sh", UPDATE.toString(), badName.toString(), m.toString()).exit).isEqualTo(2);
    assertThat(exec(Map.of(), "sh", UPDATE.toString()).exit).isEqualTo(2);
    assertThat(Files.readString(m)).isEqualTo(before);
  }

  @Test
  void fakeKrewRefusesWhatKrewRefuses() throws Exception {
    assumeTools();
    Path dir = tmp.resolve("target");
    Path bundle = release(dir, "0.2.0", "nccl-triage-0.2.0-linux-x64", true);
    Path m = manifestCopy();
    assertThat(exec(Map.of(), "sh", UPDATE.toString(), bundle.toString(), m.toString()).exit).isZero();
    String good = Files.readString(m);
    Map<String, String> linux = Map.of("KREW_ROOT", tmp.resolve("k").toString(), "KREW_OS", "linux", "KREW_ARCH", "amd64");

    // an archive other than the one hashed
    Path plugin = dir.resolve("nccl-triage-0.2.0-kubectl-plugin.tar.gz");
    Run wrongArchive = exec(linux, "sh", FAKE_KREW.toString(), "install", "--manifest=" + m, "--archive=" + plugin);
    assertThat(wrongArchive.exit).isEqualTo(1);
    assertThat(wrongArchive.output).contains("checksum does not match");
    // files that leave LICENSE behind
    Files.writeString(m, good.replaceFirst("    - from: \"\\*\"\n      to: \"\\.\"",
        "    - from: \"*/bin\"\n      to: nccl-triage-0.2.0-linux-x64"));
    Run noLicense = exec(linux, "sh", FAKE_KREW.toString(), "install", "--manifest=" + m, "--archive=" + bundle);
    assertThat(noLicense.exit).as(noLicense.output).isEqualTo(1);
    assertThat(noLicense.output).contains("LICENSE (or alike) file is not extracted");
    // two platforms for one os/arch, a long shortDescription, another apiVersion
    Files.writeString(m, good.replace("arch: arm64\n    uri: " + RELEASES + "v0.2.0/nccl-triage-0.2.0-kubectl-plugin.tar.gz",
        "arch: amd64\n    uri: " + RELEASES + "v0.2.0/nccl-triage-0.2.0-kubectl-plugin.tar.gz")
        .replace("shortDescription: Find", "shortDescription: Find out, in any Pod of any cluster,")
        .replace("/v1alpha2", "/v1alpha1"));
    Run invalid = exec(Map.of(), "sh", FAKE_KREW.toString(), "validate", m.toString());
    assertThat(invalid.exit).isEqualTo(1);
    assertThat(invalid.output).contains("both match linux/amd64", "krew-index allows 50", "not krew.googlecontainertools");
  }
}
