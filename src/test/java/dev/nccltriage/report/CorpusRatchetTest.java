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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The shared corpus of real logs as an oracle with a ratchet: every case of {@code ../shared/corpus}
 * (beside the repository) is scored as {@code ../shared/bin/corpus-score} scores it, and the
 * number of checks passed must not fall below the one in {@code src/test/resources/corpus-ratchet.txt}.
 * A change that makes real logs worse fails the build; one that makes them better should raise
 * the number. Without the corpus (a clean checkout elsewhere) the test is skipped, saying so;
 * {@code -Dcorpus.dir=DIR} scores another copy.
 */
class CorpusRatchetTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path RATCHET = Path.of("src/test/resources/corpus-ratchet.txt");
  private static final long TIMEOUT_S = 20; // corpus-score's per-case limit

  static Path corpus() {
    String dir = System.getProperty("corpus.dir");
    return dir != null ? Path.of(dir) : CliRun.REPO.resolve("../shared/corpus").normalize();
  }

  /** The score: checks passed, checks, and a line per failed check. */
  record Score(int passed, int total, List<String> failures) {}

  @Test
  void corpusScoreDoesNotFallBelowTheRatchet() throws Exception {
    Path corpus = corpus();
    Assumptions.assumeTrue(Files.isDirectory(corpus),
        () -> "no shared corpus at " + corpus + ": the ratchet is not checked (CI on this machine has it)");
    Score s = score(corpus);
    int[] ratchet = ratchet();
    String summary = "corpus: " + s.passed() + "/" + s.total() + " checks passed; ratchet " + ratchet[0] + "/" + ratchet[1];
    System.out.println(summary + (s.passed() > ratchet[0] ? " (raise it in " + RATCHET + ")" : ""));
    assertThat(s.passed()).as("%s; failed checks:%n%s", summary, String.join("\n", s.failures()))
        .isGreaterThanOrEqualTo(ratchet[0]);
  }

  /** The scorer must be able to fail: a wrong label is a failed check, an unknown key too. */
  @Test
  void wrongLabelsAndUnknownKeysFail() throws IOException {
    JsonNode doc = JSON.readTree("""
        {"log": {"rdma": true, "transport": "IB", "gdr": "some"},
         "verdict": {"status": "problem", "layer": "topology", "candidates": [{"layer": "topology"}, {"layer": "fabric"}]}}
        """);
    assertThat(check("log.rdma", JSON.readTree("true"), doc)).isTrue();
    assertThat(check("log.rdma", JSON.readTree("false"), doc)).isFalse();
    assertThat(check("log.transport", JSON.readTree("\"Socket\""), doc)).isFalse();
    assertThat(check("log.gdr", JSON.readTree("\"not-all\""), doc)).isTrue();
    assertThat(check("log.gdr", JSON.readTree("\"all\""), doc)).isFalse();
    assertThat(check("verdict.status", JSON.readTree("\"healthy\""), doc)).isFalse();
    assertThat(check("verdict.status_not", JSON.readTree("\"healthy\""), doc)).isTrue();
    assertThat(check("verdict.status_not", JSON.readTree("\"problem\""), doc)).isFalse();
    assertThat(check("verdict.layer_in", JSON.readTree("[\"node-driver\", \"topology\"]"), doc)).isTrue();
    assertThat(check("verdict.layer_in", JSON.readTree("[\"node-driver\"]"), doc)).isFalse();
    assertThat(check("verdict.candidates_include_any", JSON.readTree("[\"fabric\"]"), doc)).isTrue();
    assertThat(check("verdict.candidates_include_any", JSON.readTree("[\"nccl-env\"]"), doc)).isFalse();
    assertThat(check("verdict.nonsense", JSON.readTree("1"), doc)).isFalse();
    JsonNode noRdma = JSON.readTree("{\"log\": {\"rdma\": null}, \"verdict\": {}}");
    assertThat(check("log.rdma", JSON.readTree("false"), noRdma)).as("null is not false").isFalse();
    assertThat(check("verdict.status_not", JSON.readTree("\"healthy\""), noRdma)).as("no status").isFalse();
  }

  static int[] ratchet() throws IOException {
    String line = Files.readAllLines(RATCHET, StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank() && !l.startsWith("#")).findFirst().orElseThrow().strip();
    String[] p = line.split("/");
    return new int[] {Integer.parseInt(p[0].strip()), Integer.parseInt(p[1].strip())};
  }

  /** Each case: {@code log -o json} on log.txt; exit 4, no JSON or over 20 s fails all its checks. */
  static Score score(Path corpus) throws Exception {
    List<Path> cases;
    try (Stream<Path> s = Files.list(corpus)) {
      cases = s.filter(d -> Files.isRegularFile(d.resolve("expect.json"))).sorted().toList();
    }
    int passed = 0;
    int total = 0;
    List<String> failures = new ArrayList<>();
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "corpus-case");
      t.setDaemon(true);
      return t;
    });
    try {
      for (Path c : cases) {
        JsonNode expect = JSON.readTree(c.resolve("expect.json").toFile());
        String name = c.getFileName().toString();
        JsonNode doc = null;
        String why;
        Future<CliRun> f = pool.submit(() -> CliRun.run("log", "-o", "json", c.resolve("log.txt").toString()));
        try {
          CliRun run = f.get(TIMEOUT_S, TimeUnit.SECONDS);
          why = "exit " + run.exitCode() + " " + run.stderr().strip();
          doc = run.exitCode() == 4 ? null : JSON.readTree(run.stdoutBytes());
        } catch (java.util.concurrent.TimeoutException e) {
          f.cancel(true);
          why = "over " + TIMEOUT_S + " s";
        } catch (IOException | java.util.concurrent.ExecutionException e) {
          why = String.valueOf(e.getMessage());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = expect.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          total++;
          if (doc != null && doc.isObject() && check(e.getKey(), e.getValue(), doc)) {
            passed++;
          } else {
            failures.add(name + ": " + e.getKey() + " want " + e.getValue()
                + (doc == null || !doc.isObject() ? " (crash: " + why + ")" : " got " + got(e.getKey(), doc)));
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return new Score(passed, total, failures);
  }

  /** corpus-score's check(): the same keys, the same comparisons; an unknown key fails. */
  static boolean check(String key, JsonNode want, JsonNode doc) {
    JsonNode got = at(doc, key);
    return switch (key) {
      case "log.rdma" -> got.isBoolean() && want.isBoolean() && got.asBoolean() == want.asBoolean();
      case "log.transport" -> got.isTextual() && got.equals(want);
      case "log.gdr" -> want.asText().equals("all") ? got.isTextual() && got.asText().equals("all")
          : got.isTextual() && List.of("none", "some").contains(got.asText());
      case "verdict.status" -> got.isTextual() && got.equals(want);
      case "verdict.status_not" -> !got.isMissingNode() && !got.isNull() && !got.equals(want);
      case "verdict.layer_in" -> contains(want, got);
      case "verdict.candidates_include_any" -> {
        List<JsonNode> layers = new ArrayList<>();
        doc.path("verdict").path("candidates").forEach(c -> layers.add(c.isObject() ? c.path("layer") : c));
        boolean any = false;
        for (JsonNode w : want) {
          any |= layers.contains(w);
        }
        yield any;
      }
      default -> false;
    };
  }

  private static boolean contains(JsonNode list, JsonNode value) {
    for (JsonNode w : list) {
      if (w.equals(value)) {
        return true;
      }
    }
    return false;
  }

  /** The value a key reads: "verdict.status" is doc.verdict.status; missing as a missing node. */
  private static JsonNode at(JsonNode doc, String key) {
    String path = key.equals("verdict.status_not") ? "verdict.status"
        : key.equals("verdict.layer_in") ? "verdict.layer" : key;
    JsonNode cur = doc;
    for (String part : path.split("\\.")) {
      cur = cur.isObject() ? cur.path(part) : com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
    return cur;
  }

  private static String got(String key, JsonNode doc) {
    return key.equals("verdict.candidates_include_any") ? doc.path("verdict").path("candidates").toString()
        : at(doc, key).toString();
  }
}
