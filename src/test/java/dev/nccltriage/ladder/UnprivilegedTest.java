package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import dev.nccltriage.host.TarGz;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool as a non-root user with no capabilities (DESIGN.md: "must run as a non-root user with
 * no extra capabilities"): the test, running as root, starts {@code dev.nccltriage.cli.Main} as
 * uid/gid 65534 through {@code setpriv}, on the test's own classpath copied where that user can
 * read it, and compares with the in-process run as root. Skipped unless root and setpriv.
 */
class UnprivilegedTest {
  private static final int NOBODY = 65534;
  private static final String CAPTURE = "samples/captures/partial-2of8-hcas";

  @TempDir static Path tmp;
  private static Path setpriv;
  private static String classpath;

  @BeforeAll
  static void prepare() throws IOException {
    Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    assumeTrue(Integer.valueOf(0).equals(uid), "runs as root only (it drops to uid 65534)");
    setpriv =
        Stream.of("/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElse(null);
    assumeTrue(setpriv != null, "setpriv (util-linux) is not installed");
    // @TempDir is 0700: let the unprivileged user in
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path cp = Files.createDirectories(tmp.resolve("cp"));
    List<String> entries = new ArrayList<>();
    int i = 0;
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path src = Path.of(e);
      if (!Files.exists(src)) {
        continue;
      }
      Path dst = cp.resolve(i++ + "-" + src.getFileName());
      if (Files.isDirectory(src)) {
        Captures.copyTree(src, dst);
      } else {
        Files.copy(src, dst);
        Files.setPosixFilePermissions(dst, PosixFilePermissions.fromString("rw-r--r--"));
      }
      entries.add(dst.toString());
    }
    assertThat(entries).as("test classpath").isNotEmpty();
    classpath = String.join(File.pathSeparator, entries);
  }

  /** The tool's stdout, exit code and stderr when run as uid/gid 65534 with no capabilities. */
  record Result(int exitCode, String stdout, String stderr) {
    JsonNode json() throws IOException {
      return Captures.JSON.readTree(stdout);
    }
  }

  private static Result asNobody(String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                setpriv.toString(),
                "--reuid=" + NOBODY,
                "--regid=" + NOBODY,
                "--clear-groups",
                "--inh-caps=-all",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-UsePerfData",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-cp",
                classpath,
                "dev.nccltriage.cli.Main"));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    Process p =
        new ProcessBuilder(cmd)
            .directory(tmp.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("timed out: " + cmd);
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static Path worldReadableCapture() throws IOException {
    Path dir = tmp.resolve("capture");
    if (!Files.exists(dir)) {
      Captures.copyTree(CliRun.REPO.resolve(CAPTURE), dir);
    }
    return dir;
  }

  @Test
  void aCaptureGivesTheSameReportAsRoot() throws Exception {
    Path dir = worldReadableCapture();
    Result nobody = asNobody("check", "--root", dir.toString(), "-o", "json");
    CliRun root = CliRun.run("check", "--root", dir.toString(), "-o", "json");
    assertThat(nobody.stderr()).as("stderr as uid 65534").isEmpty();
    assertThat(nobody.exitCode()).as(nobody.toString()).isEqualTo(root.exitCode());
    JsonNode a = nobody.json();
    JsonNode b = root.json();
    assertThat(a.get("verdict")).isEqualTo(b.get("verdict"));
    assertThat(a.get("ladder")).isEqualTo(b.get("ladder"));
    assertThat(a.get("pod")).isEqualTo(b.get("pod"));
  }

  @Test
  void aCaptureArchiveIsUnpackedAsTheUnprivilegedUser() throws Exception {
    Path file = tmp.resolve("capture.tar.gz");
    TarGz.write(worldReadableCapture(), file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    Result nobody = asNobody("check", "--capture", file.toString(), "-o", "json");
    CliRun root = CliRun.run("check", "--root", CAPTURE, "-o", "json");
    assertThat(nobody.stderr()).as("stderr as uid 65534").isEmpty();
    assertThat(nobody.exitCode()).as(nobody.toString()).isEqualTo(root.exitCode());
    assertThat(nobody.json().get("verdict")).isEqualTo(root.json().get("verdict"));
    assertThat(nobody.json().get("ladder")).isEqualTo(root.json().get("ladder"));
  }

  @Test
  void theLiveHostAsTheUnprivilegedUserGivesAVerdictAndSeesNoIpcLock() throws Exception {
    Result nobody = asNobody("check", "-o", "json");
    assertThat(nobody.exitCode()).as(nobody.toString()).isIn(0, 1, 3);
    assertThat(nobody.stderr()).as("stderr as uid 65534").isEmpty();
    JsonNode doc = nobody.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    assertThat(doc.get("ladder")).hasSize(7);
    assertThat(doc.at("/pod/memlock/ipcLock").asBoolean(true))
        .as("CAP_IPC_LOCK with every capability dropped")
        .isFalse();
    // what the user cannot see (CAP_IPC_LOCK aside) does not change the verdict on this host
    JsonNode asRoot = CliRun.run("check", "-o", "json").json();
    assertThat(doc.at("/verdict/layer")).isEqualTo(asRoot.at("/verdict/layer"));
    assertThat(doc.at("/verdict/status")).isEqualTo(asRoot.at("/verdict/status"));
  }
}
