package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link Json#read} builds its tree from the streaming parser; databind's {@code readTree}, which
 * it replaced, is the oracle: the same tree (node types included: an int is not a long, NaN is a
 * double) or the same "nothing" on every real probe output in the repository and the shared
 * probes, on each of their prefixes cut at random, and on generated values with what the lenient
 * reader allows (trailing commas, NaN), duplicate keys, large numbers, deep nesting and garbage.
 */
class JsonTreeTest {
  private static final JsonMapper DATABIND = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private static JsonNode oracle(String s) {
    try (JsonParser p = DATABIND.createParser(s)) {
      return DATABIND.readTree(p);
    } catch (Exception | StackOverflowError e) {
      return null;
    }
  }

  private static void same(String s, String what) {
    JsonNode expected = oracle(s);
    JsonNode got = Json.read(s);
    assertThat(got).as("%s: %s", what, s.length() > 200 ? s.substring(0, 200) + "..." : s).isEqualTo(expected);
    if (expected != null) {
      assertThat(got.getNodeType()).isEqualTo(expected.getNodeType());
      assertThat(got.toString()).as(what).isEqualTo(expected.toString());
    }
  }

  private static List<Path> jsonFiles() throws IOException {
    List<Path> out = new ArrayList<>();
    for (String root : List.of("samples/captures", "../shared/probes", "src/test/resources/probes")) {
      Path r = Path.of(root);
      if (!Files.isDirectory(r)) {
        continue;
      }
      try (Stream<Path> s = Files.walk(r)) {
        s.filter(Files::isRegularFile).filter(p -> p.toString().contains("-j") || p.toString().endsWith(".json"))
            .forEach(out::add);
      }
    }
    return out;
  }

  @Test
  void realProbeOutputsAndTheirPrefixesReadAsDatabindReadThem() throws IOException {
    List<Path> files = jsonFiles();
    assertThat(files).hasSizeGreaterThan(20);
    Random rnd = new Random(7);
    for (Path f : files) {
      String s = Files.readString(f, StandardCharsets.UTF_8);
      same(s, f.toString());
      for (int i = 0; i < 8 && s.length() > 1; i++) {
        same(s.substring(0, rnd.nextInt(s.length())), f + " cut");
      }
    }
  }

  private static final List<String> ATOMS = List.of("1", "-0", "2147483647", "2147483648", "-9223372036854775808",
      "9223372036854775808", "123456789012345678901234567890", "1.5", "1e400", "-1e-400", "0.1", "NaN",
      "Infinity", "-Infinity", "true", "false", "null", "\"\"", "\"a\\u0000b\"", "\"\\ud83d\\ude00\"", "\"é\"",
      "01", "+1", ".5", "tru", "\"unterminated", "'single'");

  private static String value(Random rnd, int depth) {
    int k = rnd.nextInt(depth > 6 ? 1 : 4);
    if (k == 0) {
      return ATOMS.get(rnd.nextInt(ATOMS.size()));
    }
    StringBuilder sb = new StringBuilder();
    boolean object = k == 1;
    sb.append(object ? '{' : '[');
    int n = rnd.nextInt(4);
    for (int i = 0; i < n; i++) {
      if (object) {
        sb.append('"').append((char) ('a' + rnd.nextInt(3))).append("\":"); // duplicates are likely
      }
      sb.append(value(rnd, depth + 1));
      if (i + 1 < n || rnd.nextInt(5) == 0) {
        sb.append(rnd.nextInt(30) == 0 ? ",," : ",");
      }
    }
    if (rnd.nextInt(40) != 0) {
      sb.append(object ? '}' : ']');
    }
    return sb.toString();
  }

  @Test
  void generatedValuesReadAsDatabindReadThem() {
    for (int seed = 0; seed < 3000; seed++) {
      Random rnd = new Random(seed);
      String v = value(rnd, 0);
      String tail = List.of("", "\n", " trailing words", "]", "}{", "[1]").get(rnd.nextInt(6));
      same(v + tail, "seed " + seed);
    }
  }

  @Test
  void deepNestingAndNoContentReadAsDatabindReadThem() {
    for (int depth : new int[] {10, 499, 500, 501, 999, 1000, 1001, 5000, 100000}) {
      same("[".repeat(depth) + "]".repeat(depth), "depth " + depth);
      same("{\"a\":".repeat(depth) + "1" + "}".repeat(depth), "object depth " + depth);
    }
    for (String s : new String[] {"", " ", "\n\n", "]", "}", ",", "[,]", "{,}", "[1,]", "{\"a\":1,}"}) {
      same(s, "'" + s + "'");
    }
  }
}
