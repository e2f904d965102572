package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every copied sample under {@code src/test/resources/probes} is named in at least one test of
 * this package, and every sample has its provenance file beside it.
 */
class SampleCoverageTest {

  @Test
  void everySampleIsUsedByATest() throws IOException {
    Path samples = Path.of("src/test/resources/probes");
    Path tests = Path.of("src/test/java/dev/nccltriage/source/probe/parse");
    StringBuilder all = new StringBuilder();
    try (Stream<Path> s = Files.list(tests)) {
      for (Path p : s.filter(x -> x.toString().endsWith("Test.java")).toList()) {
        all.append(Files.readString(p));
      }
    }
    List<String> unused = new ArrayList<>();
    List<Path> txt;
    try (Stream<Path> s = Files.walk(samples)) {
      txt = s.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
    }
    for (Path p : txt) {
      String name = p.getFileName().toString().replaceFirst("\\.txt$", "");
      if (all.indexOf("\"" + name + "\"") < 0 && all.indexOf("/" + name + "\"") < 0) {
        unused.add(samples.relativize(p).toString());
      }
      assertThat(p.resolveSibling(name + ".meta.json")).exists();
    }
    assertThat(txt).hasSizeGreaterThanOrEqualTo(70);
    assertThat(unused).as("samples without a test").isEmpty();
  }
}
