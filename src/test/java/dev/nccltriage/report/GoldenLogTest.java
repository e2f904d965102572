package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sample log, in every output form, against the expected output under {@code
 * samples/logs/golden/} (NAME.json, NAME.txt at 100 columns without colour, NAME.md), byte for
 * byte; the exit code must match the JSON verdict's status.
 *
 * <p>After an intended change of the output, regenerate the golden files and review the diff:
 *
 * <pre>mvn -Dgolden.update=true -Dtest=GoldenLogTest test</pre>
 */
class GoldenLogTest {
  private static final Path LOGS = CliRun.REPO.resolve("samples/logs");
  private static final Path GOLDEN = LOGS.resolve("golden");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");
  private static final String UPDATE_COMMAND = "mvn -Dgolden.update=true -Dtest=GoldenLogTest test";

  /** The form and the golden file's extension. */
  private static final List<String[]> FORMS =
      List.of(
          new String[] {"json", ".json"},
          new String[] {"text", ".txt"},
          new String[] {"markdown", ".md"});

  static Stream<String> sampleLogs() throws IOException {
    try (Stream<Path> s = Files.list(LOGS)) {
      List<String> names =
          s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".log")).sorted().toList();
      assertThat(names).as("sample logs in %s", LOGS).isNotEmpty();
      return names.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sampleLogs")
  void matchesGolden(String log) throws IOException {
    String base = log.substring(0, log.length() - ".log".length());
    String input = "samples/logs/" + log;
    SoftAssertions softly = new SoftAssertions();
    Integer expectedExit = null;
    for (String[] form : FORMS) {
      CliRun run = CliRun.run("log", "-o", form[0], input);
      Path golden = GOLDEN.resolve(base + form[1]);
      assertThat(run.stderr()).as("stderr of -o %s", form[0]).isEmpty();
      if (form[0].equals("json")) {
        expectedExit = CliRun.exitCodeFor(run.json().get("verdict").get("status").asText());
      }
      softly
          .assertThat(run.exitCode())
          .as("exit code of -o %s for %s", form[0], log)
          .isEqualTo(expectedExit);
      if (UPDATE) {
        Files.createDirectories(GOLDEN);
        Files.write(golden, run.stdoutBytes());
        continue;
      }
      assertThat(golden).as("golden file missing; create it with: %s", UPDATE_COMMAND).exists();
      byte[] expected = Files.readAllBytes(golden);
      if (!Arrays.equals(expected, run.stdoutBytes())) {
        String what = "-o " + form[0] + " of " + input + " vs " + CliRun.REPO.relativize(golden);
        String expectedText = new String(expected, StandardCharsets.UTF_8);
        if (expectedText.equals(run.stdout())) {
          // only bytes that do not decode as UTF-8 differ: a text diff would show nothing
          softly.fail("%s: the bytes differ but decode to the same text", what);
        } else {
          softly
              .assertThat(run.stdout())
              .as("%s (if intended: %s)", what, UPDATE_COMMAND)
              .isEqualTo(expectedText);
        }
      }
    }
    softly.assertAll();
  }
}
