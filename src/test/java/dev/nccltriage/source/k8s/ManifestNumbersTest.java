package dev.nccltriage.source.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.FactValue;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 11 item 1 for manifests: resource quantities, counts, memory limits and ports that do not fit
 * a long are unusual values. The template is still read, a quantity that cannot be read still counts
 * as present (as any other unreadable quantity), and the number of Pods becomes unknown instead of a
 * wrapped one (99999999999999999999 read as 7766279631452241919).
 */
class ManifestNumbersTest {
  private static final String POD = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: train
      spec:
        parallelism: %s
        template:
          spec:
            containers:
            - name: trainer
              ports:
              - containerPort: %s
              resources:
                limits:
                  nvidia.com/gpu: %s
                  rdma/hca: %s
                  memory: %s
      """;

  @ParameterizedTest(name = "parallelism {0}, port {1}, gpu {2}, rdma {3}, memory {4}")
  @CsvSource(delimiter = '|', value = {
      "99999999999999999999 | 1 | 8 | 1 | 1Gi",
      "1e400 | 1 | 8 | 1 | 1Gi",
      "4611686018427387904 | 1 | 8 | 1 | 1Gi",
      "-1e400 | 1 | 8 | 1 | 1Gi",
      "2 | 4294967296 | 99999999999999999999 | 99999999999999999999 | 1e400Gi",
      "2 | 99999999999999999999 | 1e400 | 1e400 | 99999999999999999999Ei",
      "2 | -1 | .inf | .nan | 1e400",
  })
  void anOverflowingNumberIsUnknownAndTheTemplateIsRead(String parallelism, String port, String gpu, String rdma,
      String memory) throws ManifestException {
    String yaml = POD.formatted(parallelism, port, gpu, rdma, memory);
    // a second Pod-count key multiplies: 2^62 x 4 does not fit either
    yaml = yaml.replace("spec:\n  parallelism", "spec:\n  replicas: 4\n  parallelism");
    List<PodTemplate> t = new ManifestSource(null, Set.of()).parse("job.yaml", yaml);
    assertThat(t).singleElement().satisfies(p -> {
      assertThat(p.name()).isEqualTo("train");
      Object pods = p.facts().get("k8s.pods").map(FactValue::value).orElse(null);
      if (parallelism.equals("2")) {
        assertThat(pods).isEqualTo(8L);
      } else {
        assertThat(pods).as("k8s.pods").isNull();
      }
      assertThat(p.facts().get("k8s.gpuRequested").map(FactValue::value).orElse(null)).isEqualTo(true);
    });
  }

  /** YAML's !!binary (a Secret's data, an annotation) is a value, not an unreadable manifest. */
  @org.junit.jupiter.api.Test
  void aBinaryValueIsReadAsItsBase64Text() throws ManifestException {
    String yaml = POD.formatted("2", "1", "8", "1", "1Gi").replace("  name: train\n",
        "  name: train\n  annotations:\n    blob: !!binary aGVsbG8=\n");
    List<PodTemplate> t = new ManifestSource(null, Set.of()).parse("job.yaml", yaml);
    assertThat(t).singleElement().satisfies(p -> assertThat(p.name()).isEqualTo("train"));
  }
}
