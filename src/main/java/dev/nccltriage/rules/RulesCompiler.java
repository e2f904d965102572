package dev.nccltriage.rules;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Build step (process-classes): parses the rule files listed in {@code rules/INDEX} and writes
 * their trees ({@link YamlTrees}) for the jar. Only parses; the rules are checked by the loader
 * and by the tests, where errors name file and line.
 *
 * <p>Usage: {@code RulesCompiler RULES_DIR OUTPUT_FILE}
 */
public final class RulesCompiler {
  private RulesCompiler() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: RulesCompiler RULES_DIR OUTPUT_FILE");
    }
    Path dir = Path.of(args[0]);
    Map<String, byte[]> files = new LinkedHashMap<>();
    for (String name : BuiltInRules.names(Files.readString(dir.resolve("INDEX")))) {
      files.put(name, Files.readAllBytes(dir.resolve(name)));
    }
    Map<String, YamlNode> trees = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      try {
        trees.put(f.getKey(), YamlNode.read(new InputStreamReader(new ByteArrayInputStream(f.getValue()),
            StandardCharsets.UTF_8)));
      } catch (IOException | RuleException e) {
        throw new IOException("rules/" + f.getKey() + ": cannot parse: " + e.getMessage(), e);
      }
    }
    Path out = Path.of(args[1]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, YamlTrees.encode(YamlTrees.checksum(files), trees));
  }
}
