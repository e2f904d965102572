package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both launchers run one C1 compiler thread where the process may run on two CPUs or fewer (its
 * affinity), leave the count to the JVM elsewhere, and never where NCCL_TRIAGE_JAVA_OPTS picks the
 * compilers (C2 needs two threads: the JVM would not start).
 */
class LauncherCompilerThreadsTest {
  private static final String FLAG = "-XX:CICompilerCount=1";

  @TempDir Path tmp;

  private String flags(String which, List<String> before, String opts) throws Exception {
    Path launcher = which.equals("bundle") ? Launchers.bundle(tmp) : Launchers.checkout(tmp);
    List<String> argv = new ArrayList<>(before);
    argv.addAll(List.of("/bin/sh", launcher.toString(), "--version"));
    ProcessBuilder pb = ToolProcess.builder(argv, Map.of("PATH", ToolProcess.SYSTEM_PATH,
        "JAVA_HOME", System.getProperty("java.home"), "NCCL_TRIAGE_JAVA_OPTS", opts + " -XX:+PrintCommandLineFlags"));
    pb.redirectOutput(tmp.resolve("out").toFile()).redirectError(tmp.resolve("err").toFile());
    int code = ToolProcess.await(pb.start());
    String err = Files.readString(tmp.resolve("err"));
    assertThat(code).as(err).isZero();
    assertThat(err).as("stderr").doesNotContain("warning");
    return Files.readString(tmp.resolve("out"));
  }

  /** How many CPUs this process may run on, as the launcher reads it; 0 if it cannot be read. */
  private static int allowedCpus() throws Exception {
    Path status = Path.of("/proc/self/status");
    if (!Files.isReadable(status)) {
      return 0;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("Cpus_allowed_list:")) {
        int n = 0;
        for (String item : line.substring(line.indexOf(':') + 1).strip().split(",")) {
          String[] range = item.split("-");
          n += range.length == 1 ? 1 : Integer.parseInt(range[1]) - Integer.parseInt(range[0]) + 1;
        }
        return n;
      }
    }
    return 0;
  }

  @ParameterizedTest
  @ValueSource(strings = {"checkout", "bundle"})
  void oneCompilerThreadOnTwoCpusOrFewer(String which) throws Exception {
    int cpus = allowedCpus();
    assertThat(flags(which, List.of(), "").contains(FLAG)).as("%d CPUs", cpus).isEqualTo(cpus >= 1 && cpus <= 2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"checkout", "bundle"})
  void oneCompilerThreadOnOneCpu(String which) throws Exception {
    Path taskset = Path.of("/usr/bin/taskset");
    assumeTrue(Files.isExecutable(taskset), "no taskset here");
    assertThat(flags(which, List.of(taskset.toString(), "-c", "0"), "")).contains(FLAG);
  }

  @ParameterizedTest
  @ValueSource(strings = {"checkout", "bundle"})
  void theCompilersTheUserPicksAreLeftAlone(String which) throws Exception {
    assertThat(flags(which, List.of(), "-XX:TieredStopAtLevel=4")).doesNotContain(FLAG).contains("TieredStopAtLevel=4");
    assertThat(flags(which, List.of(), "-XX:CICompilerCount=2")).doesNotContain(FLAG);
  }
}
