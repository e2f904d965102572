package dev.nccltriage.rules;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the built-in rules come from: the trees the build stored beside the YAML
 * ({@link YamlTrees}), else the YAML listed in {@code rules/INDEX}. Where the YAML can change after
 * the build (a class folder: tests, an IDE), the trees are used only while they match it. A jar is
 * built in one step from one tree, so there the stored trees are taken as they are: reading the
 * YAML only to compare was ~25 of a cold start's ~75 ms of loading rules.
 */
final class BuiltInRules {
  private BuiltInRules() {}

  /** Where the built-in rule files are found: a name under rules/ to its URL, or null. */
  interface Resources {
    URL find(String name);
  }

  // a class, not a lambda: linking a lambda's call site costs a cold start a millisecond or more
  static final Resources OWN = new Resources() {
    @Override
    public URL find(String name) {
      return BuiltInRules.class.getResource("/rules/" + name);
    }
  };

  /** The file names listed in an INDEX text, in order. */
  static List<String> names(String index) {
    return index.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
  }

  /** The rules of the files {@code resources} finds, read by {@code loader}, in file order. */
  static List<Rule> load(RuleLoader loader, Resources resources) throws RuleFileException {
    URL url = resources.find(YamlTrees.FILE);
    YamlTrees.Stored stored = url == null ? null : storedTrees(url);
    Map<String, YamlNode> trees = null;
    Map<String, byte[]> files = null;
    if (stored != null && !"file".equals(url.getProtocol())) {
      trees = stored.trees();
    } else {
      files = new LinkedHashMap<>();
      for (String name : names(new String(resource(resources, "INDEX"), StandardCharsets.UTF_8))) {
        files.put(name, resource(resources, name));
      }
      if (stored != null && stored.checksum() == YamlTrees.checksum(files)) {
        trees = stored.trees();
      }
    }
    RuleSet.Builder set = new RuleSet.Builder();
    if (trees != null) {
      for (Map.Entry<String, YamlNode> t : trees.entrySet()) {
        loader.loadTree("rules/" + t.getKey(), t.getValue(), set);
      }
    } else {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        loader.load("rules/" + f.getKey(), new InputStreamReader(new ByteArrayInputStream(f.getValue()), StandardCharsets.UTF_8), set);
      }
    }
    return set.rules();
  }

  private static byte[] resource(Resources resources, String name) throws RuleFileException {
    URL url = resources.find(name);
    if (url == null) {
      throw new RuleFileException(name.equals("INDEX") ? "rules/INDEX is missing from the jar"
          : "rules/" + name + ": listed in rules/INDEX but missing from the jar");
    }
    try (InputStream in = url.openStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new RuleFileException("rules/" + name + ": " + e.getMessage());
    }
  }

  /** The stored trees, or null when there are none that this build can read (then YAML is read). */
  private static YamlTrees.Stored storedTrees(URL url) {
    try (InputStream in = url.openStream()) {
      return YamlTrees.decode(in.readAllBytes());
    } catch (IOException e) {
      return null;
    }
  }
}
