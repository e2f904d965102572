package dev.nccltriage.source.k8s;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What no object Kubernetes stores can hold (1.5 MiB an object) is refused with its line: a line
 * past 2 MiB (read by SnakeYAML it costs the square of its length: 44 s for a 300 MB line), an
 * object past 8 MiB.
 */
class ManifestLimitsTest {
  @Test
  void aLineLongerThanAnyObjectsIsRefusedWithItsNumber() {
    // a document of one plain scalar (a file of junk): the block reader hands it to SnakeYAML at once
    String text = "x".repeat((int) LineWindow.MAX_LINE_CHARS + 10);
    assertThatThrownBy(() -> new ManifestSource(null, Set.of()).parse("long.yaml", text))
        .isInstanceOf(ManifestException.class).hasMessageStartingWith("long.yaml:1: a line longer than 2 MiB");
  }

  @Test
  void anObjectLargerThanTheLimitIsRefused() {
    StringBuilder b = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {\n");
    for (int i = 0; b.length() <= ManifestSource.MAX_OBJECT_CHARS; i++) {
      b.append("  k").append(i).append(": \"").append("v".repeat(1000)).append("\",\n");
    }
    b.append("}\n");
    assertThatThrownBy(() -> new ManifestSource(null, Set.of()).parse("big.yaml", b.toString()))
        .isInstanceOf(ManifestException.class).hasMessageContaining("an object larger than 8 MiB");
  }
}
