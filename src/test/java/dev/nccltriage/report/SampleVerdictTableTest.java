package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The expected-verdict column of samples/logs/README.md is an oracle: each sample's
 * {@code log -o json} has the status and layer its row states ("problem / device-plugin"), and
 * where the row says a layer is "ranked above" another, that other is a later candidate. This is
 * independent of the golden bytes: a changed verdict fails here with the README's words, not as
 * a byte diff to regenerate.
 */
class SampleVerdictTableTest {
  private static final Path SAMPLES = CliRun.REPO.resolve("samples/logs");
  private static final Pattern ROW = Pattern.compile("(?m)^\\| `([^`]+\\.log)` \\|[^|]*\\|.*\\| ([^|]+) \\|\\s*$");
  private static final Pattern VERDICT =
      Pattern.compile("^(healthy|problem|inconclusive)\\b[^/]*/\\s*([a-z][a-z-]*)");
  private static final Pattern RANKED_ABOVE = Pattern.compile("ranked above ([a-z][a-z-]*)");

  /**
   * Rows the tool does not meet today, with why; each is checked to still differ (so the entry is
   * removed once the tool or the row changes) and to show the "no" the row describes.
   */
  static final Map<String, String> DISAGREEMENTS = Map.of(
      "07-oob-on-overlay-eth0-2.22.3.log",
      "the row says problem (low severity) / pod-network, but Q3-oob-interface has severity warn in "
          + "rules/tree.yaml, so an overlay handshake with a healthy data path is healthy with advice; "
          + "which one is right is a design decision (DESIGN.md: each \"no\" names a layer)");

  record Expected(String status, String layer, String rankedAbove, String text) {}

  static Map<String, Expected> table() throws IOException {
    String readme = Files.readString(SAMPLES.resolve("README.md"), StandardCharsets.UTF_8);
    Map<String, Expected> out = new LinkedHashMap<>();
    Matcher m = ROW.matcher(readme);
    while (m.find()) {
      String cell = m.group(2).strip();
      Matcher v = VERDICT.matcher(cell);
      assertThat(v.find()).as("verdict cell of %s: \"%s\" is not \"status / layer ...\"", m.group(1), cell).isTrue();
      Matcher r = RANKED_ABOVE.matcher(cell);
      out.put(m.group(1), new Expected(v.group(1), v.group(2), r.find() ? r.group(1) : null, cell));
    }
    return out;
  }

  static Stream<Named<Map.Entry<String, Expected>>> rows() throws IOException {
    return table().entrySet().stream().map(e -> Named.of(e.getKey(), e));
  }

  @Test
  void everySampleLogHasARowAndEveryRowASample() throws IOException {
    List<String> logs;
    try (Stream<Path> s = Files.list(SAMPLES)) {
      logs = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".log")).sorted().toList();
    }
    assertThat(logs).hasSizeGreaterThanOrEqualTo(33);
    assertThat(new ArrayList<>(table().keySet())).containsExactlyInAnyOrderElementsOf(logs);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void verdictIsTheOneTheReadmeStates(Map.Entry<String, Expected> row) {
    Expected want = row.getValue();
    CliRun run = CliRun.run("log", "-o", "json", "samples/logs/" + row.getKey());
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.stderr()).isBetween(0, 3);
    JsonNode verdict = run.json().path("verdict");
    List<String> layers = new ArrayList<>();
    verdict.path("candidates").forEach(c -> layers.add(c.path("layer").asText()));
    String got = verdict.path("status").asText() + " / " + verdict.path("layer").asText() + " " + layers;
    if (DISAGREEMENTS.containsKey(row.getKey())) {
      assertThat(verdict.path("status").asText() + " / " + verdict.path("layer").asText())
          .as("%s now meets its README row: remove it from DISAGREEMENTS", row.getKey())
          .isNotEqualTo(want.status() + " / " + want.layer());
      List<String> noes = new ArrayList<>();
      verdict.path("path").forEach(a -> {
        if (a.path("answer").asText().equals("no")) {
          noes.add(a.path("question").asText());
        }
      });
      assertThat(noes).as("questions answered no for %s", row.getKey()).containsExactly("Q3-oob-interface");
      assertThat(verdict.path("advice")).as("advice for the overlay handshake").isNotEmpty();
      return;
    }
    assertThat(verdict.path("status").asText()).as("status of %s (README: %s; got %s)", row.getKey(), want.text(), got)
        .isEqualTo(want.status());
    assertThat(verdict.path("layer").asText()).as("layer of %s (README: %s; got %s)", row.getKey(), want.text(), got)
        .isEqualTo(want.layer());
    if (want.rankedAbove() != null) {
      assertThat(layers.subList(1, layers.size())).as("candidates after the first of %s (README: %s)", row.getKey(),
          want.text()).contains(want.rankedAbove());
    }
    int code = switch (want.status()) {
      case "healthy" -> 0;
      case "problem" -> 1;
      default -> 3;
    };
    assertThat(run.exitCode()).as("exit code of a %s verdict", want.status()).isEqualTo(code);
  }
}
