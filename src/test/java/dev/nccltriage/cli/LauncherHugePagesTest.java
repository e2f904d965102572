package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both launchers ask for transparent huge pages exactly where the kernel offers them to a process
 * that asks ("[always]" or "[madvise]" in /sys/kernel/mm/transparent_hugepage/enabled), so that
 * where they are off the JVM has nothing to warn about on stderr.
 */
class LauncherHugePagesTest {
  private static final Path THP = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"checkout", "bundle"})
  void hugePagesWhereTheKernelOffersThem(String which) throws Exception {
    String mode = Files.isReadable(THP) ? Files.readString(THP, StandardCharsets.US_ASCII) : "";
    boolean offered = mode.contains("[always]") || mode.contains("[madvise]");
    Path launcher = which.equals("bundle") ? Launchers.bundle(tmp) : Launchers.checkout(tmp);
    ProcessBuilder pb = ToolProcess.builder(List.of("/bin/sh", launcher.toString(), "--version"),
        Map.of("PATH", ToolProcess.SYSTEM_PATH, "JAVA_HOME", System.getProperty("java.home"),
            "NCCL_TRIAGE_JAVA_OPTS", "-XX:+PrintCommandLineFlags"));
    pb.redirectOutput(tmp.resolve("out").toFile()).redirectError(tmp.resolve("err").toFile());
    int code = ToolProcess.await(pb.start());
    String out = Files.readString(tmp.resolve("out"));
    String err = Files.readString(tmp.resolve("err"));
    assertThat(code).as(err).isZero();
    assertThat(out.contains("-XX:+UseTransparentHugePages")).as("host THP mode %s; flags: %s", mode.strip(), out)
        .isEqualTo(offered);
    assertThat(err).as("stderr").doesNotContain("warning");
  }
}
