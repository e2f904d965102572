package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trees the build stores for the built-in rules are exactly what the YAML parses to. */
class StoredTreesTest {
  private static final Path RULES = Path.of("rules");

  private static Map<String, byte[]> files() throws IOException {
    Map<String, byte[]> files = new LinkedHashMap<>();
    for (String name : BuiltInRules.names(Files.readString(RULES.resolve("INDEX")))) {
      files.put(name, Files.readAllBytes(RULES.resolve(name)));
    }
    return files;
  }

  private static Map<String, YamlNode> parsed(Map<String, byte[]> files) throws IOException {
    Map<String, YamlNode> trees = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      trees.put(f.getKey(), YamlNode.read(new StringReader(new String(f.getValue(), StandardCharsets.UTF_8))));
    }
    return trees;
  }

  private static byte[] built() throws IOException {
    try (InputStream in = RuleLoader.class.getResourceAsStream(YamlTrees.RESOURCE)) {
      assertThat(in).as("the build writes " + YamlTrees.RESOURCE + " (exec-maven-plugin, process-classes)").isNotNull();
      return in.readAllBytes();
    }
  }

  @Test
  void theBuildStoresTheTreesOfTheRepositorysYaml() throws IOException {
    Map<String, byte[]> files = files();
    YamlTrees.Stored stored = YamlTrees.decode(built());
    assertThat(stored).isNotNull();
    assertThat(stored.checksum()).isEqualTo(YamlTrees.checksum(files));
    assertThat(stored.trees()).isEqualTo(parsed(files));
  }

  @Test
  void everyKindOfValueSurvivesTheRoundTrip() throws IOException {
    YamlNode tree = YamlNode.read(new StringReader("""
        a: text
        b: 42
        c: 2.5
        d: true
        e: ~
        f: [1, "x", {g: h}, -7, "", "é ✓"]
        g: -1.0e300
        text: a
        """));
    YamlTrees.Stored back = YamlTrees.decode(YamlTrees.encode(-3, Map.of("t.yaml", tree)));
    assertThat(back.checksum()).isEqualTo(-3);
    assertThat(back.trees()).containsExactly(Map.entry("t.yaml", tree));
  }

  @Test
  void storedTreesThatAreDamagedOrOfAnotherFormAreNotUsed() throws IOException {
    byte[] good = built();
    for (int n = 0; n < good.length; n += n < 1024 ? 1 : 211) {
      assertThat(YamlTrees.decode(java.util.Arrays.copyOf(good, n))).as("cut at %d", n).isNull();
    }
    byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
    assertThat(YamlTrees.decode(longer)).as("a byte too many").isNull();
    byte[] older = good.clone();
    older[3] = '1'; // "NTR1": the form before, a stream of fixed-width fields
    assertThat(YamlTrees.decode(older)).isNull();
    Random random = new Random(7);
    for (int i = 0; i < 400; i++) {
      byte[] b = good.clone();
      b[12 + random.nextInt(b.length - 12)] ^= (byte) (1 + random.nextInt(255));
      YamlTrees.decode(b); // null or some trees, never an exception nor an allocation past its size
    }
    byte[] huge = {0x4e, 0x54, 0x52, 0x32, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07};
    assertThat(YamlTrees.decode(huge)).as("a count past the end").isNull();
  }

  @Test
  void storedTreesNestedPastAnyRuleFileAreNotUsed() {
    int depth = 200_000; // a list in a list ...: damaged bytes, never a stack overflow
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    b.writeBytes(new byte[] {0x4e, 0x54, 0x52, 0x32, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 'f', 1, 0});
    for (int i = 0; i < depth; i++) {
      b.writeBytes(new byte[] {5, 1, 1}); // LIST, line 1, one element
    }
    b.writeBytes(new byte[] {0, 1}); // NULL, line 1
    assertThat(YamlTrees.decode(b.toByteArray())).isNull();
  }

  @Test
  void theLoadedRulesAreThoseOfTheYaml() throws IOException, RuleFileException {
    assertThat(names(new RuleLoader().loadBuiltIn())).isEqualTo(names(fromYaml(files())));
  }

  private static List<Rule> fromYaml(Map<String, byte[]> files) throws RuleFileException {
    RuleLoader loader = new RuleLoader();
    RuleSet.Builder set = new RuleSet.Builder();
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      loader.load("rules/" + f.getKey(), new StringReader(new String(f.getValue(), StandardCharsets.UTF_8)), set);
    }
    return set.rules();
  }

  private static List<String> names(List<Rule> rules) {
    return rules.stream().map(Object::toString).toList();
  }

  /** Rule files whose YAML says one thing and whose stored trees, made from other YAML, another. */
  private static Map<String, byte[]> stale(Path dir) throws IOException {
    Map<String, byte[]> yaml = new LinkedHashMap<>();
    yaml.put("INDEX", "a.yaml\n".getBytes(StandardCharsets.UTF_8));
    yaml.put("a.yaml", lints("NOW"));
    Map<String, byte[]> before = Map.of("a.yaml", lints("BEFORE"));
    yaml.put(YamlTrees.FILE, YamlTrees.encode(YamlTrees.checksum(before), parsed(before)));
    return yaml;
  }

  private static byte[] lints(String id) {
    return ("lints:\n  - id: " + id + "\n    severity: warn\n    layer: nccl-env\n"
        + "    when: {fact: env.NCCL_IB_HCA, known: true}\n    message: m\n    fix: f\n").getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void inAClassFolderTheYamlWinsOverTreesMadeFromOtherYaml(@TempDir Path dir) throws Exception {
    for (Map.Entry<String, byte[]> f : stale(dir).entrySet()) {
      Files.write(dir.resolve(f.getKey()), f.getValue());
    }
    List<Rule> rules = BuiltInRules.load(new RuleLoader(), name -> url(dir.resolve(name)));
    assertThat(rules).extracting(Rule::id).containsExactly("NOW");
    assertThat(names(rules)).isEqualTo(names(fromYaml(Map.of("a.yaml", lints("NOW")))));
  }

  @Test
  void inAJarTheStoredTreesAreTakenAsTheyAre(@TempDir Path dir) throws Exception {
    Path jar = dir.resolve("r.jar");
    try (OutputStream o = Files.newOutputStream(jar); ZipOutputStream z = new ZipOutputStream(o)) {
      for (Map.Entry<String, byte[]> f : stale(dir).entrySet()) {
        z.putNextEntry(new ZipEntry("rules/" + f.getKey()));
        z.write(f.getValue());
        z.closeEntry();
      }
    }
    List<Rule> rules = BuiltInRules.load(new RuleLoader(), name -> url(URI.create("jar:" + jar.toUri() + "!/rules/" + name)));
    assertThat(rules).extracting(Rule::id).containsExactly("BEFORE");
  }

  @Test
  void withoutStoredTreesTheYamlIsRead(@TempDir Path dir) throws Exception {
    for (Map.Entry<String, byte[]> f : stale(dir).entrySet()) {
      if (!f.getKey().equals(YamlTrees.FILE)) {
        Files.write(dir.resolve(f.getKey()), f.getValue());
      }
    }
    List<Rule> rules = BuiltInRules.load(new RuleLoader(), name -> Files.exists(dir.resolve(name)) ? url(dir.resolve(name)) : null);
    assertThat(rules).extracting(Rule::id).containsExactly("NOW");
  }

  private static URL url(Path p) {
    return url(p.toUri());
  }

  private static URL url(URI u) {
    try {
      return u.toURL();
    } catch (java.net.MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }
}
