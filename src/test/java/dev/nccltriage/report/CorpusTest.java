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
 * The real logs of samples/corpus (excerpts from public bug reports) and samples/recorded (whole
 * logs recorded on a GPU host lent to a session, one file per process): each case's labels
 * (expect.json, the keys of ../shared/bin/corpus-score) are an oracle the build checks, and its
 * text and JSON reports are golden files (the folder's golden/), so a changed verdict on a real log
 * is seen in review.
 *
 * <pre>mvn -Dgolden.update=true -Dtest=CorpusTest test</pre>
 */
class CorpusTest {
  private static final List<String> FOLDERS = List.of("corpus", "recorded");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** "corpus/NAME" or "recorded/NAME": each folder below samples/ with an expect.json. */
  static Stream<String> cases() throws IOException {
    List<String> all = new ArrayList<>();
    for (String folder : FOLDERS) {
      try (Stream<Path> s = Files.list(CliRun.REPO.resolve("samples").resolve(folder))) {
        List<String> names = s.filter(d -> Files.isRegularFile(d.resolve("expect.json")))
            .map(d -> folder + "/" + d.getFileName()).sorted().toList();
        assertThat(names).as("cases in samples/%s", folder).hasSizeGreaterThanOrEqualTo(folder.equals("corpus") ? 32 : 3);
        all.addAll(names);
      }
    }
    return all.stream();
  }

  /** A corpus case's log.txt, or a recorded case's logs (one per process), as the command takes them. */
  private static List<String> inputs(String name) throws IOException {
    Path dir = CliRun.REPO.resolve("samples").resolve(name);
    if (Files.isRegularFile(dir.resolve("log.txt"))) {
      return List.of("samples/" + name + "/log.txt");
    }
    try (Stream<Path> s = Files.list(dir)) {
      List<String> logs = s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".log")).sorted()
          .map(f -> "samples/" + name + "/" + f).toList();
      assertThat(logs).as("logs of %s", name).isNotEmpty();
      return logs;
    }
  }

  private static CliRun log(String format, String name) throws IOException {
    List<String> args = new ArrayList<>(List.of("log", "-o", format));
    args.addAll(inputs(name));
    return CliRun.run(args.toArray(String[]::new));
  }

  private static Path golden(String name, String suffix) {
    int slash = name.indexOf('/');
    return CliRun.REPO.resolve("samples").resolve(name.substring(0, slash)).resolve("golden")
        .resolve(name.substring(slash + 1) + suffix);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void meetsItsLabels(String name) throws IOException {
    JsonNode expect = MAPPER.readTree(CliRun.REPO.resolve("samples").resolve(name).resolve("expect.json").toFile());
    CliRun run = log("json", name);
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
    SoftAssertions softly = new SoftAssertions();
    for (String[] form : List.of(new String[] {"json", ".json"}, new String[] {"text", ".txt"})) {
      CliRun run = log(form[0], name);
      assertThat(run.stderr()).as("stderr of -o %s", form[0]).isEmpty();
      Path golden = golden(name, form[1]);
      if (UPDATE) {
        Files.createDirectories(golden.getParent());
        Files.write(golden, run.stdoutBytes());
        continue;
      }
      assertThat(golden).as("golden missing; mvn -Dgolden.update=true -Dtest=CorpusTest test").exists();
      softly.assertThat(run.stdout()).as("-o %s of %s (if intended: mvn -Dgolden.update=true -Dtest=CorpusTest test)",
          form[0], name).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
    softly.assertAll();
  }
}
