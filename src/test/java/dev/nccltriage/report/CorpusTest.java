package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real logs of samples/corpus (excerpts from public bug reports): each case's labels
 * (expect.json, the keys of ../shared/bin/corpus-score) are an oracle the build checks, and its
 * text and JSON reports are golden files, so a changed verdict on a real log is seen in review.
 *
 * <pre>mvn -Dgolden.update=true -Dtest=CorpusTest test</pre>
 */
class CorpusTest {
  private static final Path CORPUS = CliRun.REPO.resolve("samples/corpus");
  private static final Path GOLDEN = CORPUS.resolve("golden");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static Stream<String> cases() throws IOException {
    try (Stream<Path> s = Files.list(CORPUS)) {
      List<String> names = s.filter(d -> Files.isRegularFile(d.resolve("expect.json")))
          .map(d -> d.getFileName().toString()).sorted().toList();
      assertThat(names).as("cases in %s", CORPUS).hasSizeGreaterThanOrEqualTo(32);
      return names.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void meetsItsLabels(String name) throws IOException {
    JsonNode expect = MAPPER.readTree(CORPUS.resolve(name).resolve("expect.json").toFile());
    CliRun run = CliRun.run("log", "-o", "json", "samples/corpus/" + name + "/log.txt");
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.stderr()).isBetween(0, 3);
    JsonNode doc = run.json();
    SoftAssertions softly = new SoftAssertions();
    for (Iterator<Map.Entry<String, JsonNode>> it = expect.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      softly.assertThat(check(e.getKey(), e.getValue(), doc)).as("%s: %s = %s (log: %s, verdict: %s %s)", name,
          e.getKey(), e.getValue(), doc.get("log").path("transport"), doc.get("verdict").path("status"),
          doc.get("verdict").path("layer")).isTrue();
    }
    softly.assertAll();
  }

  /** The label semantics of corpus-score. */
  private static boolean check(String key, JsonNode want, JsonNode doc) {
    JsonNode log = doc.path("log");
    JsonNode verdict = doc.path("verdict");
    return switch (key) {
      case "log.rdma" -> log.path("rdma").isBoolean() && log.path("rdma").asBoolean() == want.asBoolean();
      case "log.transport" -> log.path("transport").asText("").equals(want.asText());
      case "log.gdr" -> want.asText().equals("all") ? log.path("gdr").asText().equals("all")
          : List.of("none", "some").contains(log.path("gdr").asText());
      case "verdict.status" -> verdict.path("status").asText().equals(want.asText());
      case "verdict.status_not" -> !verdict.path("status").asText().equals(want.asText());
      case "verdict.layer_in" -> texts(want).contains(verdict.path("layer").asText());
      case "verdict.candidates_include_any" -> {
        List<String> layers = new ArrayList<>();
        verdict.path("candidates").forEach(c -> layers.add(c.path("layer").asText()));
        yield texts(want).stream().anyMatch(layers::contains);
      }
      default -> throw new AssertionError("unknown label " + key);
    };
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesGolden(String name) throws IOException {
    String input = "samples/corpus/" + name + "/log.txt";
    SoftAssertions softly = new SoftAssertions();
    for (String[] form : List.of(new String[] {"json", ".json"}, new String[] {"text", ".txt"})) {
      CliRun run = CliRun.run("log", "-o", form[0], input);
      assertThat(run.stderr()).as("stderr of -o %s", form[0]).isEmpty();
      Path golden = GOLDEN.resolve(name + form[1]);
      if (UPDATE) {
        Files.createDirectories(GOLDEN);
        Files.write(golden, run.stdoutBytes());
        continue;
      }
      assertThat(golden).as("golden missing; mvn -Dgolden.update=true -Dtest=CorpusTest test").exists();
      softly.assertThat(run.stdout()).as("-o %s of %s (if intended: mvn -Dgolden.update=true -Dtest=CorpusTest test)",
          form[0], input).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
    softly.assertAll();
  }
}
