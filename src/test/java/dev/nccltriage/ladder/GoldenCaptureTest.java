package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import dev.nccltriage.rules.Layer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code check --root samples/captures/NAME} for every sample capture, as JSON and as text (100
 * columns, no colour), against {@code samples/captures/golden/NAME.json} / {@code NAME.txt} byte
 * for byte. The exit code must match the verdict's status, the JSON must follow the report schema,
 * and the verdict must be the one the capture's README.md states ("Expected: **problem**, layer
 * **device-plugin**"; another layer named on that line is an accepted alternative).
 *
 * <p>After an intended change of the output, regenerate the golden files and review the diff:
 *
 * <pre>mvn -Dgolden.update=true -Dtest=GoldenCaptureTest test</pre>
 */
class GoldenCaptureTest {
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");
  private static final String UPDATE_COMMAND =
      "mvn -Dgolden.update=true -Dtest=GoldenCaptureTest test";

  /** The form and the golden file's extension. */
  private static final List<String[]> FORMS =
      List.of(new String[] {"json", ".json"}, new String[] {"text", ".txt"});

  private static final Pattern EXPECTED =
      Pattern.compile("Expected: \\*\\*([a-z]+)\\*\\*[^,\\n]*, layer \\*\\*([a-z-]+)\\*\\*");

  static List<String> captures() {
    return Captures.names();
  }

  /** What a capture's README promises: status, layer, and the alternatives it admits. */
  record Expected(String status, String layer, Set<String> alternatives) {
    Set<String> acceptedLayers() {
      Set<String> s = new LinkedHashSet<>();
      s.add(layer);
      s.addAll(alternatives);
      return s;
    }
  }

  static Expected expected(String capture) throws IOException {
    Path readme = Captures.DIR.resolve(capture).resolve("README.md");
    assertThat(readme).as("every capture documents its expected verdict").exists();
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    Matcher m = EXPECTED.matcher(text);
    assertThat(m.find())
        .as("%s has a line 'Expected: **STATUS**, layer **LAYER**'", readme)
        .isTrue();
    String line = text.substring(m.start(), lineEnd(text, m.start()));
    Set<String> alternatives = new LinkedHashSet<>();
    for (Layer l : Layer.values()) {
      String id = l.id();
      if (id.equals(m.group(2)) || l == Layer.NONE || l == Layer.UNKNOWN) {
        continue; // "none" and "unknown" are also plain words
      }
      if (Pattern.compile("(?<![a-z-])" + Pattern.quote(id) + "(?![a-z-])").matcher(line).find()) {
        alternatives.add(id);
      }
    }
    assertThat(Layer.of(m.group(2))).as("layer named in %s", readme).isPresent();
    return new Expected(m.group(1), m.group(2), alternatives);
  }

  private static int lineEnd(String text, int from) {
    int nl = text.indexOf('\n', from);
    return nl < 0 ? text.length() : nl;
  }

  /** The row of {@code samples/captures/README.md}'s table: "problem / device-plugin (alt. x)". */
  private static String tableRow(String capture) throws IOException {
    String index = Files.readString(Captures.DIR.resolve("README.md"), StandardCharsets.UTF_8);
    Matcher m =
        Pattern.compile("(?m)^\\| `" + Pattern.quote(capture) + "` \\|.*\\| ([^|]+) \\|\\s*$")
            .matcher(index);
    return m.find() ? m.group(1).strip() : null;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("captures")
  void matchesGoldenAndReadme(String capture) throws IOException {
    String root = "samples/captures/" + capture;
    Expected expected = expected(capture);
    SoftAssertions softly = new SoftAssertions();
    Integer expectedExit = null;
    for (String[] form : FORMS) {
      CliRun run = CliRun.run("check", "--root", root, "-o", form[0]);
      assertThat(run.stderr()).as("stderr of -o %s", form[0]).isEmpty();
      if (form[0].equals("json")) {
        JsonNode doc = run.json();
        softly.assertThat(Captures.schemaErrors(doc)).as("schema errors of %s", capture).isEmpty();
        JsonNode verdict = doc.get("verdict");
        String status = verdict.get("status").asText();
        expectedExit = CliRun.exitCodeFor(status);
        softly
            .assertThat(status)
            .as("verdict.status of %s vs its README.md", capture)
            .isEqualTo(expected.status());
        softly
            .assertThat(verdict.get("layer").asText())
            .as("verdict.layer of %s vs its README.md (accepted: %s)", capture,
                expected.acceptedLayers())
            .isIn(expected.acceptedLayers());
        softly.assertThat(doc.get("command").asText()).isEqualTo("check");
        softly.assertThat(Captures.ladderStatuses(doc)).as("ladder of %s", capture).hasSize(7);
      }
      softly
          .assertThat(run.exitCode())
          .as("exit code of -o %s for %s", form[0], capture)
          .isEqualTo(expectedExit);
      Path golden = Captures.GOLDEN.resolve(capture + form[1]);
      if (UPDATE) {
        Files.createDirectories(Captures.GOLDEN);
        Files.write(golden, run.stdoutBytes());
        continue;
      }
      assertThat(golden).as("golden file missing; create it with: %s", UPDATE_COMMAND).exists();
      byte[] want = Files.readAllBytes(golden);
      if (!Arrays.equals(want, run.stdoutBytes())) {
        String what = "-o " + form[0] + " of " + root + " vs " + CliRun.REPO.relativize(golden);
        String wantText = new String(want, StandardCharsets.UTF_8);
        if (wantText.equals(run.stdout())) {
          softly.fail("%s: the bytes differ but decode to the same text", what);
        } else {
          softly
              .assertThat(run.stdout())
              .as("%s (if intended: %s)", what, UPDATE_COMMAND)
              .isEqualTo(wantText);
        }
      }
    }
    // the index table of samples/captures/README.md tells the same story as the capture's README
    String row = tableRow(capture);
    softly.assertThat(row).as("row for %s in samples/captures/README.md", capture).isNotNull();
    if (row != null) {
      softly
          .assertThat(row)
          .as("index row of %s", capture)
          .startsWith(expected.status() + " ")
          .contains("/ " + expected.layer());
    }
    softly.assertAll();
  }
}
