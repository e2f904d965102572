package dev.nccltriage.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The trees the build stores for the built-in rules are exactly what the YAML parses to. */
class StoredTreesTest {
  private static final Path RULES = Path.of("rules");

  private static Map<String, byte[]> files() throws IOException {
    Map<String, byte[]> files = new LinkedHashMap<>();
    for (String name : RuleLoader.builtInNames(Files.readString(RULES.resolve("INDEX")))) {
      files.put(name, Files.readAllBytes(RULES.resolve(name)));
    }
    return files;
  }

  private static Map<String, YamlNode> parsed(Map<String, byte[]> files) throws IOException {
    Map<String, YamlNode> trees = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      trees.put(f.getKey(), YamlNode.read(new StringReader(new String(f.getValue(), "UTF-8"))));
    }
    return trees;
  }

  @Test
  void theJarHoldsTheTreesOfTheRepositorysYaml() throws IOException {
    Map<String, byte[]> files = files();
    try (InputStream in = RuleLoader.class.getResourceAsStream(YamlTrees.RESOURCE)) {
      assertThat(in).as("the build writes " + YamlTrees.RESOURCE + " (exec-maven-plugin, process-classes)").isNotNull();
      Map<String, YamlNode> stored = YamlTrees.read(new DataInputStream(in), YamlTrees.checksum(files));
      assertThat(stored).as("stored trees for these files").isNotNull().isEqualTo(parsed(files));
    }
  }

  @Test
  void treesForOtherYamlAreNotUsed() throws IOException {
    Map<String, byte[]> files = files();
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    YamlTrees.write(new DataOutputStream(b), YamlTrees.checksum(files), parsed(files));
    files.put("extra.yaml", "lints: []\n".getBytes("UTF-8"));
    assertThat(YamlTrees.read(new DataInputStream(new ByteArrayInputStream(b.toByteArray())),
        YamlTrees.checksum(files))).isNull();
  }

  @Test
  void everyKindOfValueSurvivesTheRoundTrip() throws IOException {
    YamlNode tree = YamlNode.read(new StringReader("""
        a: text
        b: 42
        c: 2.5
        d: true
        e: ~
        f: [1, "x", {g: h}]
        """));
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    YamlTrees.write(new DataOutputStream(b), 7, Map.of("t.yaml", tree));
    Map<String, YamlNode> back = YamlTrees.read(new DataInputStream(new ByteArrayInputStream(b.toByteArray())), 7);
    assertThat(back).containsExactly(Map.entry("t.yaml", tree));
  }

  @Test
  void theLoadedRulesAreThoseOfTheYaml() throws IOException, RuleFileException {
    RuleLoader loader = new RuleLoader();
    RuleSet.Builder fromYaml = new RuleSet.Builder();
    for (Map.Entry<String, byte[]> f : files().entrySet()) {
      loader.load("rules/" + f.getKey(), new StringReader(new String(f.getValue(), "UTF-8")), fromYaml);
    }
    List<String> expected = fromYaml.rules().stream().map(Object::toString).toList();
    assertThat(loader.loadBuiltIn().stream().map(Object::toString).toList()).isEqualTo(expected);
  }
}
