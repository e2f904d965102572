package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both launchers find their root without starting a process where they are not run through a
 * symlink (a fork and an exec cost milliseconds on every run), and leave the working directory
 * as they found it: relative paths in the arguments still name the user's files.
 */
class LauncherRootTest {
  private static final Path SAMPLE = CliRun.REPO.resolve("samples/logs/01-healthy-ib-gdr-2.21.5.log");

  @TempDir Path tmp;

  private Path launcher(String which) throws Exception {
    return which.equals("bundle") ? Launchers.bundle(tmp) : Launchers.checkout(tmp);
  }

  private Result run(Path cwd, List<String> argv, String path) throws Exception {
    ProcessBuilder pb = ToolProcess.builder(argv, Map.of("PATH", path, "JAVA_HOME", System.getProperty("java.home")))
        .directory(cwd.toFile());
    pb.redirectOutput(tmp.resolve("out").toFile()).redirectError(tmp.resolve("err").toFile());
    int code = ToolProcess.await(pb.start());
    return new Result(code, Files.readString(tmp.resolve("out")), Files.readString(tmp.resolve("err")));
  }

  private record Result(int code, String out, String err) {}

  @ParameterizedTest
  @ValueSource(strings = {"checkout", "bundle"})
  void findsItsRootWithNoCommandOnPath(String which) throws Exception {
    // no readlink, no dirname: only the shell's own builtins can find the root
    Result r = run(tmp, List.of("/bin/sh", launcher(which).toString(), "--version"), tmp.resolve("no-such-dir").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("nccl-triage ");
    assertThat(r.err()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"checkout", "bundle"})
  void relativePathsFromASymlinkedWorkingDirectory(String which) throws Exception {
    Path launcher = launcher(which);
    Path real = Files.createDirectories(tmp.resolve("real/logs"));
    Files.copy(SAMPLE, real.resolve("rank0.log"));
    Path cwd = Files.createSymbolicLink(tmp.resolve("work"), real.getParent());
    // the launcher named relative to the (logical) working directory, the log relative to it too
    String relLauncher = "../" + tmp.relativize(launcher);
    Result r = run(cwd, List.of("/bin/sh", relLauncher, "log", "-o", "json", "logs/rank0.log"), ToolProcess.SYSTEM_PATH);
    assertThat(r.code()).as(r.err()).isIn(0, 1);
    assertThat(r.out()).contains("\"source\" : \"logs/rank0.log\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"checkout", "bundle"})
  void throughARelativeSymlinkFromElsewhere(String which) throws Exception {
    Path launcher = launcher(which);
    Path bin = Files.createDirectories(tmp.resolve("home/bin"));
    Path link = Files.createSymbolicLink(bin.resolve("nccl-triage"), bin.relativize(launcher));
    Result r = run(bin, List.of("/bin/sh", "./nccl-triage", "log", "-o", "json", SAMPLE.toString()), ToolProcess.SYSTEM_PATH);
    assertThat(r.code()).as(r.err()).isIn(0, 1);
    assertThat(r.out()).contains("\"kind\" : \"nccl-log\"");
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"checkout", "bundle"})
  void aDeletedWorkingDirectoryIsAUsageErrorNotATrace(String which) throws Exception {
    // Java cannot start there ("Could not determine current working directory", exit status 1)
    Path launcher = launcher(which);
    Path gone = Files.createDirectories(tmp.resolve("gone"));
    String script = "cd '" + gone + "' && rmdir '" + gone + "' && exec /bin/sh '" + launcher + "' log -o json - < '" + SAMPLE + "'";
    Result r = run(tmp, List.of("/bin/sh", "-c", script), ToolProcess.SYSTEM_PATH);
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("nccl-triage: the working directory no longer exists").doesNotContain("\tat ");
    assertThat(r.out()).isEmpty();
  }
}
