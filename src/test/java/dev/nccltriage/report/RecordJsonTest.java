package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordJson} (under {@link JsonReport} and {@link YamlReport}) against what it replaced:
 * databind's {@code ObjectMapper} with fields visible and getters not, the same escapes, indented
 * or not, JSON and YAML, byte for byte; and the closed set of types it writes against every type a
 * report can hold. (The golden tests compare every sample's, capture's and corpus log's report.)
 */
class RecordJsonTest {
  record Leaf(String s, boolean b, Boolean nb, int i, Integer ni, long l, Long nl, double d, Double nd) {}

  record Tree(String name, List<Leaf> leaves, Map<String, Integer> counts, Map<String, List<String>> lists,
      Tree child, List<String> strings, Map<String, Leaf> byName) {}

  record Empty() {}

  /** The mapper JsonReport used before: the oracle. */
  private static ObjectMapper databind(boolean indent) {
    ObjectMapper m = new ObjectMapper()
        .setVisibility(PropertyAccessor.GETTER, JsonAutoDetect.Visibility.NONE)
        .setVisibility(PropertyAccessor.IS_GETTER, JsonAutoDetect.Visibility.NONE)
        .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    if (indent) {
      m.enable(SerializationFeature.INDENT_OUTPUT);
    }
    m.getFactory().setCharacterEscapes(new JsonReport.ControlEscapes()); // the escapes are the generator's, both ways
    return m;
  }

  private static ObjectMapper databindYaml() {
    return new ObjectMapper(YAMLFactory.builder()
        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
        .disable(YAMLGenerator.Feature.SPLIT_LINES)
        .build())
        .setVisibility(PropertyAccessor.GETTER, JsonAutoDetect.Visibility.NONE)
        .setVisibility(PropertyAccessor.IS_GETTER, JsonAutoDetect.Visibility.NONE)
        .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
  }

  private static String json(JsonReport r, Object doc, boolean indent) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (indent) {
      r.write(doc, out);
    } else {
      r.writeCompact(doc, out);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** As the old code wrote it: to bytes (UTF-8 generator), not to a String (a char generator escapes apart). */
  private static String oracle(ObjectMapper m, Object doc) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.writeValue(out, doc);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static String yaml(Object doc) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new YamlReport().write(doc, out);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static final String CHARS = "aZ09 _-:./\"\\'\t\n\r\u0000\u0001\u001f\u007f\u0080\u009b\u009f\u00a0é€\u2028"
      + "\ud83d\ude00{}[]#&*!|>%@`yesnonull~";

  private static String text(Random rnd) {
    if (rnd.nextInt(8) == 0) {
      return List.of("", "yes", "null", "1e3", "0x10", "-", "true", "~").get(rnd.nextInt(8));
    }
    StringBuilder sb = new StringBuilder();
    int n = rnd.nextInt(12);
    for (int i = 0; i < n; i++) {
      char c = CHARS.charAt(rnd.nextInt(CHARS.length()));
      sb.append(c);
      if (Character.isHighSurrogate(c)) {
        sb.append(CHARS.charAt(CHARS.indexOf(c) + 1));
      }
    }
    return sb.toString();
  }

  private static double number(Random rnd) {
    return switch (rnd.nextInt(8)) {
      case 0 -> Double.NaN;
      case 1 -> rnd.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
      case 2 -> -0.0;
      case 3 -> rnd.nextInt(1000);
      case 4 -> Double.MIN_VALUE;
      case 5 -> 1e21 * rnd.nextDouble();
      default -> rnd.nextGaussian() * 100;
    };
  }

  private static Leaf leaf(Random rnd) {
    long l = rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(100);
    return new Leaf(rnd.nextInt(5) == 0 ? null : text(rnd), rnd.nextBoolean(),
        rnd.nextInt(3) == 0 ? null : rnd.nextBoolean(), rnd.nextInt(), rnd.nextInt(3) == 0 ? null : rnd.nextInt(),
        l, rnd.nextInt(3) == 0 ? null : Long.MIN_VALUE + rnd.nextInt(3), number(rnd),
        rnd.nextInt(3) == 0 ? null : number(rnd));
  }

  private static Tree tree(Random rnd, int depth) {
    List<Leaf> leaves = new ArrayList<>();
    for (int i = rnd.nextInt(4); i > 0; i--) {
      leaves.add(rnd.nextInt(6) == 0 ? null : leaf(rnd));
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, List<String>> lists = new LinkedHashMap<>();
    Map<String, Leaf> byName = new LinkedHashMap<>();
    for (int i = rnd.nextInt(4); i > 0; i--) {
      counts.put(text(rnd), rnd.nextInt(3) == 0 ? null : rnd.nextInt());
      lists.put(text(rnd), rnd.nextInt(4) == 0 ? null : List.of(text(rnd), text(rnd)));
      byName.put(text(rnd), leaf(rnd));
    }
    List<String> strings = new ArrayList<>();
    for (int i = rnd.nextInt(3); i > 0; i--) {
      strings.add(rnd.nextInt(5) == 0 ? null : text(rnd));
    }
    return new Tree(text(rnd), rnd.nextInt(5) == 0 ? null : leaves, counts, rnd.nextInt(5) == 0 ? null : lists,
        depth > 0 && rnd.nextBoolean() ? tree(rnd, depth - 1) : null, strings, byName);
  }

  @Test
  void writesWhatDatabindWroteOnRandomDocuments() throws IOException {
    JsonReport ours = new JsonReport();
    ObjectMapper indented = databind(true);
    ObjectMapper compact = databind(false);
    ObjectMapper yaml = databindYaml();
    for (int seed = 0; seed < 1500; seed++) {
      Tree doc = tree(new Random(seed), 3);
      assertThat(json(ours, doc, true)).as("indented, seed %d", seed).isEqualTo(oracle(indented, doc) + "\n");
      assertThat(json(ours, doc, false)).as("compact, seed %d", seed).isEqualTo(oracle(compact, doc) + "\n");
      assertThat(yaml(doc)).as("yaml, seed %d", seed).isEqualTo(oracle(yaml, doc));
    }
  }

  @Test
  void writesTheReportsRecordsAsDatabindDid() throws IOException {
    JsonReport ours = new JsonReport();
    List<Object> docs = List.of(
        VersionReport.of("0.1.0", null, "2026-12-03", "17.0.15+6"),
        new BwSection("all_reduce", "name", null, 16, 2, List.of("a", "b"), 190.5, "peak", Double.NaN, null, 370.0,
            8, 400.0, 0.51, "socket-fallback", null, "bw-socket", true, 1L << 33,
            List.of(new BwSection.Size(8, "float", 0.0, null, null), new BwSection.Size(1 << 30, "float", 1e-7, 2.5, 0L))),
        Input.logs(List.of()), Input.manifest("a.yaml\u009b", 3, 2, 1), new Empty(), List.of(), Map.of());
    for (Object doc : docs) {
      assertThat(json(ours, doc, true)).as("%s", doc).isEqualTo(oracle(databind(true), doc) + "\n");
      assertThat(json(ours, doc, false)).as("%s", doc).isEqualTo(oracle(databind(false), doc) + "\n");
      assertThat(yaml(doc)).as("%s", doc).isEqualTo(oracle(databindYaml(), doc));
    }
  }

  /** The types RecordJson writes; a report record with a component of another type would fail at run time. */
  private static final Set<String> WRITTEN = Set.of("java.lang.String", "boolean", "java.lang.Boolean", "int",
      "java.lang.Integer", "long", "java.lang.Long", "double", "java.lang.Double");

  @Test
  void everyTypeAReportHoldsIsOneItWrites() {
    Set<String> notWritten = new TreeSet<>();
    for (Class<?> root : List.of(Report.class, LintReport.class, VersionReport.class)) {
      walk(root, root.getSimpleName(), new TreeSet<>(), notWritten);
    }
    assertThat(notWritten).as("record components RecordJson has no JSON form for").isEmpty();
  }

  private static void walk(Type t, String path, Set<String> seen, Set<String> notWritten) {
    if (t instanceof ParameterizedType p) {
      Type[] args = p.getActualTypeArguments();
      if (p.getRawType() == List.class) {
        walk(args[0], path + "[]", seen, notWritten);
      } else if (p.getRawType() == Map.class && args[0] == String.class) {
        walk(args[1], path + "{}", seen, notWritten);
      } else {
        notWritten.add(path + ": " + t.getTypeName());
      }
    } else if (t instanceof Class<?> c && c.isRecord()) {
      if (seen.add(c.getName())) {
        for (RecordComponent rc : c.getRecordComponents()) {
          walk(rc.getGenericType(), path + "." + rc.getName(), seen, notWritten);
        }
      }
    } else if (t instanceof GenericArrayType || !(t instanceof Class<?> c) || !WRITTEN.contains(c.getName())) {
      notWritten.add(path + ": " + t.getTypeName());
    }
  }

  @Test
  void aDocumentThatFailsHalfWayIsNotClosedIntoAWholeOne() {
    record Bad(String before, List<Object> items) {}
    Bad doc = new Bad("x", List.of("a", new Object()));
    for (boolean indent : new boolean[] {true, false}) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThatThrownBy(() -> {
        if (indent) {
          new JsonReport().write(doc, out);
        } else {
          new JsonReport().writeCompact(doc, out);
        }
      }).isInstanceOf(IllegalArgumentException.class);
      String written = out.toString(StandardCharsets.UTF_8);
      assertThat(written).contains("\"a\"");
      assertThatThrownBy(() -> new ObjectMapper().readTree(written)).as("%s", written)
          .isInstanceOf(IOException.class);
    }
    ByteArrayOutputStream yaml = new ByteArrayOutputStream();
    assertThatThrownBy(() -> new YamlReport().write(doc, yaml)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aValueOutsideTheClosedSetIsAnErrorNotAGuess() {
    record WithOptional(java.util.Optional<String> o) {}
    record WithIntKeys(Map<Integer, String> m) {}
    JsonReport ours = new JsonReport();
    assertThatThrownBy(() -> json(ours, new WithOptional(java.util.Optional.of("x")), true))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.util.Optional");
    assertThatThrownBy(() -> json(ours, new WithIntKeys(Map.of(1, "x")), true))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key must be a string");
  }
}
