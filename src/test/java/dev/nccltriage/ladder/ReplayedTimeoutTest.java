package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture whose ibv_devinfo hung: the replay says how long it ran and was allowed (not "0 ms"),
 * and step 2 says its ports were read from sysfs, not "read with timeout".
 */
class ReplayedTimeoutTest {
  private static final String SYSTEM_PATH =
      Optional.ofNullable(System.getenv("PATH")).orElse("/usr/local/bin:/usr/bin:/bin");
  private static final Pattern TIMED_OUT =
      Pattern.compile("ibv_devinfo.{0,40}timed out after (\\d+) ms \\(limit (\\d+) ms\\)");

  @TempDir Path tmp;

  private Path captureWithHangingDevinfo() throws IOException {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path tool = bin.resolve("ibv_devinfo");
    Files.writeString(tool, "#!/bin/sh\nexec sleep 30.5151\n", StandardCharsets.ISO_8859_1);
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path cap = tmp.resolve("cap");
    CliRun run = Captures.run(Map.of("COLUMNS", "100", "PATH", bin + ":" + SYSTEM_PATH),
        "capture", "-o", cap.toString(), "--timeout", "1");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    return cap;
  }

  private static JsonNode step2(Path cap) {
    CliRun run = CliRun.run("check", "--root", cap.toString(), "-o", "json");
    assertThat(run.stderr()).isEmpty();
    JsonNode doc = run.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    assertThat(doc.at("/pod/hcas/status").asText()).isEqualTo("timeout");
    return Captures.step(doc, 2);
  }

  @Test
  void aReplayedTimeoutSaysHowLongItRanAndWasAllowedAndWhatWasRead() throws IOException {
    Path cap = captureWithHangingDevinfo();
    JsonNode step = step2(cap);
    Matcher m = TIMED_OUT.matcher(step.toString());
    assertThat(m.find()).as("step 2 says the recorded times: %s", step).isTrue();
    assertThat(Long.parseLong(m.group(1))).as("elapsed ms").isBetween(900L, 5000L);
    assertThat(Long.parseLong(m.group(2))).as("limit ms").isEqualTo(1000L);
    assertThat(step.get("observed").asText())
        .contains("read with sysfs (ibv_devinfo timed out); libibverbs.so.1: ")
        .doesNotContain("read with timeout");
  }

  /** A capture from before the times were recorded says it does not know them, not "0 ms". */
  @Test
  void anOldCaptureWithoutRecordedTimesDoesNotClaimZeroMilliseconds() throws IOException {
    Path cap = captureWithHangingDevinfo();
    try (Stream<Path> s = Files.walk(cap.resolve(".nccl-triage/commands"))) {
      for (Path p : s.filter(p -> p.getFileName().toString().matches("millis|limit-millis")).toList()) {
        Files.delete(p);
      }
    }
    JsonNode step = step2(cap);
    assertThat(step.toString()).doesNotContain("0 ms").contains("how long it ran was not recorded");
    assertThat(step.get("observed").asText()).contains("read with sysfs (ibv_devinfo timed out); libibverbs.so.1: ");
  }
}
