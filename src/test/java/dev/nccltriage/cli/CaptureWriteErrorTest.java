package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 11 item 5: where a capture cannot be written is the environment, not a bug: exit 2, one
 * plain line naming the output and the reason, and nothing half-written left behind.
 */
class CaptureWriteErrorTest {
  @TempDir Path tmp;

  private static Map<String, String> noTools(Path tmp) throws IOException {
    return Map.of("COLUMNS", "100", "PATH", Files.createDirectories(tmp.resolve("empty-bin")).toString());
  }

  private static void assertOneLineExit2(CliRun run, String output, String reason) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.stderr().lines().toList()).as("stderr").hasSize(1);
    assertThat(run.stderr()).as("stderr")
        .startsWith("nccl-triage: cannot write the capture to " + output + ": ")
        .contains(reason)
        .doesNotContain("bug", "Exception");
  }

  /** A missing folder, a file where a folder should be, /proc, sysfs (read-only even for root). */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
    "TMP/missing/capture.tar.gz|No such file or directory",
    "TMP/a-file/capture.tar.gz|Not a directory",
    "TMP/a-file/capture-dir|Not a directory",
    "/proc/nccl-triage-capture.tar.gz|No such file or directory",
    "/proc/nccl-triage-capture-dir|No such file or directory",
    "/sys/nccl-triage-capture.tgz|Permission denied",
  })
  void anUnwritablePlaceIsExit2WithOneLine(String spec) throws Exception {
    Files.writeString(tmp.resolve("a-file"), "x");
    String output = spec.substring(0, spec.indexOf('|')).replace("TMP", tmp.toString());
    String reason = spec.substring(spec.indexOf('|') + 1);

    CliRun run = CliRun.run(new byte[0], noTools(tmp), false, "capture", "-o", output);

    assertOneLineExit2(run, output, reason);
    // not doesNotExist(): under a file, Files.notExists cannot tell and says false
    assertThat(Files.exists(Path.of(output), LinkOption.NOFOLLOW_LINKS)).as("%s exists", output).isFalse();
    assertThat(list(tmp)).as("left in %s", tmp).extracting(p -> p.getFileName().toString())
        .containsExactlyInAnyOrder("a-file", "empty-bin");
  }

  /** A device, a file or a folder with files in it as the capture's folder: which, in one line. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
    "/dev/full|: exists and is not a directory; name a new or empty directory, or a new .tar.gz file",
    "TMP/a-file|: exists and is not a directory;",
    "TMP|: is a directory that is not empty;",
  })
  void aPlaceThatIsNoNewFolderIsNamedForWhatItIs(String spec) throws Exception {
    Files.writeString(tmp.resolve("a-file"), "x");
    String output = spec.substring(0, spec.indexOf('|')).replace("TMP", tmp.toString());
    CliRun run = CliRun.run(new byte[0], noTools(tmp), false, "capture", "-o", output);
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.stderr().lines().toList()).as("stderr").hasSize(1);
    assertThat(run.stderr()).startsWith("nccl-triage: " + output + spec.substring(spec.indexOf('|') + 1));
  }

  /** An archive into a folder that is not there is refused before any probe runs (and waits out its timeout). */
  @Test
  void anArchiveIntoAMissingFolderIsRefusedBeforeAnyProbeRuns() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path ran = tmp.resolve("probe-ran");
    ToolProcess.script(bin, "ibv_devinfo", "touch '" + ran + "'\n");
    String output = tmp.resolve("missing/capture.tar.gz").toString();

    CliRun run = CliRun.run(new byte[0], Map.of("COLUMNS", "100", "PATH", bin.toString()), false,
        "capture", "-o", output);

    assertOneLineExit2(run, output, "No such file or directory (" + tmp.resolve("missing") + ")");
    assertThat(ran).as("a probe ran before the output was checked").doesNotExist();
  }

  /**
   * A full disk, as a size limit ({@code ulimit -f 1}: every write past 1 KiB fails with EFBIG,
   * which the JVM gets as an error, not a signal): the real tool, since the limit is per process.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"capture.tar.gz", "capture-dir"})
  void aWriteFailureMidwayRemovesTheHalfWrittenCapture(String name) throws Exception {
    Path tmpdir = Files.createDirectories(tmp.resolve("java-tmp"));
    Path out = tmp.resolve(name);
    List<String> java = ToolProcess.command(tmpdir, "capture", "-o", out.toString());
    List<String> cmd = List.of("sh", "-c", "ulimit -f 1 && exec \"$@\"", "sh");
    Path stderr = tmp.resolve("stderr.txt");
    Process p = ToolProcess.builder(Stream.concat(cmd.stream(), java.stream()).toList(), noTools(tmp))
        .redirectOutput(tmp.resolve("stdout.txt").toFile())
        .redirectError(stderr.toFile())
        .start();
    int code = ToolProcess.await(p);
    String err = Files.readString(stderr, StandardCharsets.UTF_8);

    assertThat(code).as("exit status; stderr: %s", err).isEqualTo(2);
    assertThat(err.lines().toList()).as("stderr").hasSize(1);
    assertThat(err).startsWith("nccl-triage: cannot write the capture to " + out + ": ").contains("File too large");
    assertThat(out).as("the half-written capture").doesNotExist();
    assertThat(list(tmpdir)).as("left in java.io.tmpdir").isEmpty();
    assertThat(list(tmp)).as("left beside the output").extracting(f -> f.getFileName().toString())
        .containsExactlyInAnyOrder("empty-bin", "java-tmp", "stdout.txt", "stderr.txt");
  }

  /** An empty folder the user made is kept (emptied); one the capture made is removed. */
  @Test
  void anEmptyFolderGivenIsEmptiedNotRemoved() throws Exception {
    Path tmpdir = Files.createDirectories(tmp.resolve("java-tmp"));
    Path out = Files.createDirectories(tmp.resolve("given"));
    List<String> java = ToolProcess.command(tmpdir, "capture", "-o", out.toString());
    Process p = ToolProcess.builder(
            Stream.concat(Stream.of("sh", "-c", "ulimit -f 1 && exec \"$@\"", "sh"), java.stream()).toList(),
            noTools(tmp))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    assertThat(ToolProcess.await(p)).isEqualTo(2);
    assertThat(out).isDirectory();
    assertThat(list(out)).isEmpty();
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }
}
