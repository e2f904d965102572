package dev.nccltriage.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs {@code dist/test/kubectl-plugin-test.sh}: the kubectl plugin against a fake kubectl, which
 * asserts the exact kubectl calls of every mode and the cleanup of the Pod. The plugin runs under
 * its own {@code #!/bin/sh} and, where installed, under bash and busybox sh. The script's
 * end-to-end {@code --logs} case uses the real CLI from this test's class path.
 */
class KubectlPluginTest {
  static final Path REPO = Path.of("").toAbsolutePath();
  static final Path PLUGIN = REPO.resolve("dist/kubectl-nccl_triage");
  static final Path SCRIPT = REPO.resolve("dist/test/kubectl-plugin-test.sh");

  @TempDir Path tmp;

  /** The absolute path of an executable named {@code tool} on PATH, or null. */
  static Path onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir, tool);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /** Skips the test unless sh and the tools the test script needs are installed. */
  static void assumeShellTools() {
    for (String tool : List.of("sh", "tar", "gzip", "od", "cmp", "sed", "find")) {
      assumeTrue(onPath(tool) != null, tool + " is not installed");
    }
  }

  @ParameterizedTest(name = "plugin run by {0}")
  @ValueSource(strings = {"#!/bin/sh", "bash", "busybox sh"})
  void pluginPassesItsShellTest(String shell) throws Exception {
    assumeShellTools();
    List<String> env = new ArrayList<>();
    if (!shell.startsWith("#!")) {
      assumeTrue(onPath(shell.split(" ")[0]) != null, shell + " is not installed");
      env.add("PLUGIN_SHELL=" + shell);
    }
    assertThat(PLUGIN).isRegularFile().isExecutable();

    // The real CLI for the script's end-to-end --logs case: this JVM and this class path.
    String classPath = System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path"));
    Path cli = tmp.resolve("nccl-triage");
    Files.writeString(cli, "#!/bin/sh\n"
        + "exec \"$NCCL_TRIAGE_TEST_JAVA\" -XX:TieredStopAtLevel=1 -Xshare:auto"
        + " -cp \"$NCCL_TRIAGE_TEST_CP\" dev.nccltriage.cli.Main \"$@\"\n");
    assertThat(cli.toFile().setExecutable(true)).isTrue();
    env.add("REAL_NCCL_TRIAGE=" + cli);
    env.add("NCCL_TRIAGE_TEST_JAVA=" + Path.of(System.getProperty("java.home"), "bin", "java"));
    env.add("NCCL_TRIAGE_TEST_CP=" + classPath);
    env.add("TMPDIR=" + tmp);

    Run run = run(env, "sh", SCRIPT.toString(), "-v");
    assertThat(run.exit).as(run.output).isZero();
    assertThat(run.output)
        .doesNotContain("FAIL [")
        .containsPattern("kubectl-plugin-test: [1-9][0-9]* passed, 0 failed")
        // the end-to-end cases ran (not skipped)
        .contains("ok [logs: the real nccl-triage names the device plugin (exit 1)]")
        .contains("ok [several Pods: the real nccl-triage on sample captures names the Pod that differs]")
        .contains("ok [several Pods: job/NAME with 64 Pods, one report naming the Pods and nodes that differ]");
  }

  record Run(int exit, String output) {}

  /** Runs argv in the repository root with extra NAME=VALUE environment; output and exit. */
  Run run(List<String> env, String... argv) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(REPO.toFile()).redirectErrorStream(true);
    for (String var : List.of("NCCL_TRIAGE", "NCCL_TRIAGE_BUNDLE", "KUBECTL", "PLUGIN_SHELL",
        "NCCL_TRIAGE_NO_DOWNLOAD", "NCCL_TRIAGE_BUNDLE_URL", "XDG_CACHE_HOME")) {
      pb.environment().remove(var);
    }
    for (String kv : env) {
      int eq = kv.indexOf('=');
      pb.environment().put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    Path out = Files.createTempFile(tmp, "out", ".txt");
    pb.redirectOutput(out.toFile());
    Process p = pb.start();
    p.getOutputStream().close();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", argv) + " timed out:\n" + Files.readString(out));
    }
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
  }

  @Test
  void pluginVersionIsTheProjects() throws Exception {
    assumeTrue(onPath("sh") != null, "sh is not installed");
    Properties p = new Properties();
    try (InputStream in = KubectlPluginTest.class.getResourceAsStream("/dev/nccltriage/version.properties")) {
      p.load(in);
    }
    Run run = run(List.of("KUBECTL=no-such-kubectl"), "sh", PLUGIN.toString(), "--version");
    assertThat(run.exit).isZero();
    assertThat(run.output).isEqualTo("kubectl-nccl_triage " + p.getProperty("version") + "\n");
  }

  @Test
  void pluginHelpNeedsNoKubectlNorBundle() throws Exception {
    assumeTrue(onPath("sh") != null, "sh is not installed");
    Run run = run(List.of("KUBECTL=no-such-kubectl"), "sh", PLUGIN.toString(), "--help");
    assertThat(run.exit).as(run.output).isZero();
    assertThat(run.output)
        .startsWith("Usage:\n  kubectl nccl-triage POD")
        .contains("--logs", "--capture", "--redact", "--bundle", "Exit status");
  }
}
