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
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The krew manifest {@code dist/krew/nccl-triage.yaml} and the script that fills it in at release
 * time, {@code dist/krew/update-sha256.sh}.
 */
class KrewManifestTest {
  static final Path REPO = Path.of("").toAbsolutePath();
  static final Path MANIFEST = REPO.resolve("dist/krew/nccl-triage.yaml");
  static final Path UPDATE = REPO.resolve("dist/krew/update-sha256.sh");
  /** What sha256 holds until update-sha256.sh has hashed a real tarball. */
  static final String PLACEHOLDER = "RUN-dist/krew/update-sha256.sh-ON-THE-RELEASE-TARBALL";
  static final String RELEASES = "https://github.com/nccl-triage/nccl-triage/releases/download/";

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @TempDir Path tmp;

  static JsonNode read(Path manifest) throws IOException {
    return YAML.readTree(manifest.toFile());
  }

  /** Checks the fields krew requires and what this plugin's layout needs; returns the version. */
  static String assertValid(JsonNode m) {
    assertThat(m.path("apiVersion").asText()).isEqualTo("krew.googlecontainertools.github.com/v1alpha2");
    assertThat(m.path("kind").asText()).isEqualTo("Plugin");
    assertThat(m.path("metadata").path("name").asText()).isEqualTo("nccl-triage");
    JsonNode spec = m.path("spec");
    String v = spec.path("version").asText();
    assertThat(v).matches("v\\d+\\.\\d+\\.\\d+([-+.][A-Za-z0-9.+-]+)?");
    String version = v.substring(1);
    assertThat(spec.path("homepage").asText()).startsWith("https://");
    assertThat(spec.path("shortDescription").asText()).isNotBlank().hasSizeLessThanOrEqualTo(50);
    assertThat(spec.path("description").asText()).contains("kubectl nccl-triage");
    assertThat(spec.path("caveats").asText()).contains("tar", "pods/exec");

    JsonNode platforms = spec.path("platforms");
    assertThat(platforms.isArray()).isTrue();
    assertThat(platforms).hasSize(1);
    JsonNode p = platforms.get(0);
    assertThat(p.path("selector").path("matchLabels").path("os").asText()).isEqualTo("linux");
    assertThat(p.path("selector").path("matchLabels").path("arch").asText()).isEqualTo("amd64");
    assertThat(p.path("uri").asText())
        .isEqualTo(RELEASES + v + "/nccl-triage-" + version + "-linux-x64.tar.gz");
    String sha = p.path("sha256").asText();
    assertThat(sha.matches("[0-9a-f]{64}") || sha.equals(PLACEHOLDER))
        .as("sha256 is a hash of a real tarball or the placeholder: %s", sha).isTrue();
    assertThat(p.path("bin").asText()).isEqualTo("nccl-triage-" + version + "/bin/kubectl-nccl_triage");
    assertThat(p.path("files").isArray()).isTrue();
    assertThat(p.path("files")).isNotEmpty();
    for (JsonNode f : p.path("files")) {
      assertThat(f.path("from").asText()).isNotBlank();
      assertThat(f.path("to").asText()).isNotBlank();
    }
    return version;
  }

  @Test
  void manifestParsesAndHasTheRequiredFields() throws IOException {
    assertValid(read(MANIFEST));
    assertThat(Files.readString(MANIFEST)).contains("dist/krew/update-sha256.sh");
  }

  // --- update-sha256.sh ---

  /** A tarball nccl-triage-VERSION-linux-x64.tar.gz holding the given bin/ files. */
  Path tarball(String name, String top, boolean plugin, boolean executable) throws Exception {
    Path root = Files.createTempDirectory(tmp, "b");
    Path bin = Files.createDirectories(root.resolve(top).resolve("bin"));
    String mode = executable ? "rwxr-xr-x" : "rw-r--r--";
    for (String f : plugin ? List.of("nccl-triage", "kubectl-nccl_triage") : List.of("nccl-triage")) {
      Path p = bin.resolve(f);
      Files.writeString(p, "#!/bin/sh\n");
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    }
    Path out = Files.createDirectories(tmp.resolve("out-" + root.getFileName())).resolve(name);
    assertThat(exec("tar", "-czf", out.toString(), "-C", root.toString(), top)).isZero();
    return out;
  }

  int exec(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).directory(REPO.toFile()).inheritIO().start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return p.exitValue();
  }

  Path manifestCopy() throws IOException {
    return Files.copy(MANIFEST, tmp.resolve("nccl-triage.yaml"));
  }

  static void assumeTools() {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
        "no POSIX file modes here");
    for (String tool : List.of("sh", "tar", "gzip", "sed", "awk")) {
      assumeTrue(KubectlPluginTest.onPath(tool) != null, tool + " is not installed");
    }
  }

  @Test
  void updateSha256FillsInVersionUriBinAndTheHashOfTheTarball() throws Exception {
    assumeTools();
    Path t = tarball("nccl-triage-0.2.0-linux-x64.tar.gz", "nccl-triage-0.2.0", true, true);
    Path m = manifestCopy();
    String before = Files.readString(m);

    assertThat(exec("sh", UPDATE.toString(), t.toString(), m.toString())).isZero();

    JsonNode after = read(m);
    assertThat(assertValid(after)).isEqualTo("0.2.0");
    JsonNode p = after.path("spec").path("platforms").get(0);
    String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(t)));
    assertThat(p.path("sha256").asText()).isEqualTo(sha);
    assertThat(p.path("uri").asText()).isEqualTo(RELEASES + "v0.2.0/nccl-triage-0.2.0-linux-x64.tar.gz");
    assertThat(p.path("bin").asText()).isEqualTo("nccl-triage-0.2.0/bin/kubectl-nccl_triage");
    // the rest, comments included, is untouched
    JsonNode orig = YAML.readTree(before);
    assertThat(after.path("spec").path("description")).isEqualTo(orig.path("spec").path("description"));
    assertThat(after.path("spec").path("caveats")).isEqualTo(orig.path("spec").path("caveats"));
    List<String> a = Files.readAllLines(m);
    List<String> b = before.lines().toList();
    assertThat(a).hasSameSizeAs(b);
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).equals(b.get(i))) {
        assertThat(a.get(i)).matches("  version: .*|    uri: .*|    sha256: .*|    bin: .*");
      }
    }

    // idempotent, and back again to another version
    assertThat(exec("sh", UPDATE.toString(), t.toString(), m.toString())).isZero();
    assertThat(read(m)).isEqualTo(after);
    Path t1 = tarball("nccl-triage-0.1.0-linux-x64.tar.gz", "nccl-triage-0.1.0", true, true);
    assertThat(exec("sh", UPDATE.toString(), t1.toString(), m.toString())).isZero();
    assertThat(assertValid(read(m))).isEqualTo("0.1.0");
  }

  @Test
  void updateSha256RefusesATarballKrewCouldNotRun() throws Exception {
    assumeTools();
    Path m = manifestCopy();
    String before = Files.readString(m);
    Path noPlugin = tarball("nccl-triage-0.2.0-linux-x64.tar.gz", "nccl-triage-0.2.0", false, true);
    assertThat(exec("sh", UPDATE.toString(), noPlugin.toString(), m.toString())).isEqualTo(1);
    Path notExecutable = tarball("nccl-triage-0.2.0-linux-x64.tar.gz", "nccl-triage-0.2.0", true, false);
    assertThat(exec("sh", UPDATE.toString(), notExecutable.toString(), m.toString())).isEqualTo(1);
    Path wrongTop = tarball("nccl-triage-0.2.0-linux-x64.tar.gz", "nccl-triage", true, true);
    assertThat(exec("sh", UPDATE.toString(), wrongTop.toString(), m.toString())).isEqualTo(1);
    Path badName = tarball("bundle.tar.gz", "nccl-triage-0.2.0", true, true);
    assertThat(exec("sh", UPDATE.toString(), badName.toString(), m.toString())).isEqualTo(2);
    assertThat(exec("sh", UPDATE.toString())).isEqualTo(2);
    assertThat(Files.readString(m)).isEqualTo(before);
  }
}
