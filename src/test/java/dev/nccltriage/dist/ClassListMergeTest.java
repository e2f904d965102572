package dev.nccltriage.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dist/bin/merge-classlists.awk} merges the class lists of the launchers' training runs:
 * Java 24+ numbers every class and fails the dump on a number seen twice (the bundle's build failed
 * so when the lists were only deduplicated by line); Java 17's lists have no numbers.
 */
class ClassListMergeTest {
  private static final Path AWK_PROGRAM = CliRun.REPO.resolve("dist/bin/merge-classlists.awk");

  private static List<String> merge(Path dir, String... lists) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("awk", "-f", AWK_PROGRAM.toString()));
    for (int i = 0; i < lists.length; i++) {
      Path f = dir.resolve("list" + i);
      Files.writeString(f, lists[i]);
      cmd.add(f.toString());
    }
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, "no awk here: " + e.getMessage());
      return List.of();
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out.lines().toList();
  }

  @Test
  void java25ListsMergeWithEachClassOnceAndNoNumberTwice(@TempDir Path dir) throws Exception {
    String first = "# NOTE: Do not modify this file.\n@lambda-form-invoker [LF_RESOLVE] a b L_L\n"
        + "java/lang/Object id: 0\nA id: 1\n@cp A 1 2\nB id: 2\n@lambda-proxy A run ()V\n";
    String second = "# comment\n@lambda-form-invoker [LF_RESOLVE] a b L_L\n@lambda-form-invoker [LF_RESOLVE] c d L_L\n"
        + "java/lang/Object id: 0\nC id: 1\nA id: 2\n@cp A 1 2 3\n@cp C 4\n@lambda-proxy A run ()V\n"
        + "@lambda-proxy C get ()V\n";
    List<String> merged = merge(dir, first, second);
    assertThat(merged).containsExactly("@lambda-form-invoker [LF_RESOLVE] a b L_L", "java/lang/Object id: 0",
        "A id: 1", "@cp A 1 2", "B id: 2", "@lambda-proxy A run ()V", "@lambda-form-invoker [LF_RESOLVE] c d L_L",
        "C id: 3", "@cp C 4", "@lambda-proxy C get ()V");
    Set<String> ids = new HashSet<>();
    for (String l : merged) {
      if (l.contains(" id: ")) {
        assertThat(ids.add(l.substring(l.indexOf(" id: ")))).as("id of %s used once", l).isTrue();
      }
    }
  }

  @Test
  void java17ListsMergeWithEachLineOnce(@TempDir Path dir) throws Exception {
    String first = "java/lang/Object\nA\n@lambda-proxy A run ()V\n";
    String second = "java/lang/Object\nC\nA\n@lambda-proxy A run ()V\n@lambda-proxy C get ()V\n\n";
    assertThat(merge(dir, first, second)).containsExactly("java/lang/Object", "A", "@lambda-proxy A run ()V", "C",
        "@lambda-proxy C get ()V");
  }

  @Test
  void bothLaunchersMergeTheirTrainingRunsWithIt() throws IOException {
    assertThat(Files.readString(CliRun.REPO.resolve("dist/bin/nccl-triage"))).contains("dist/bin/merge-classlists.awk");
    assertThat(Files.readString(CliRun.REPO.resolve("dist/bundle/build-bundle.sh")))
        .contains("dist/bin/merge-classlists.awk");
  }
}
