package dev.nccltriage.source.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast block-YAML reader against SnakeYAML: for every input, reading with it (and SnakeYAML from
 * wherever it declines) hands on the same objects, with the same values, lines and line texts, as
 * SnakeYAML alone, or fails with the same message. Inputs: the samples (as they are, and without
 * comments, which the fast reader leaves to SnakeYAML), the shapes of {@code kubectl get -o yaml}, a
 * decline at every place a hand-over can happen, and seeded mutations of all of them.
 */
class BlockYamlTest {
  private static final String JOB = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: train-%1$d
        namespace: team-%1$d
        labels: {}
        annotations:
          note: 'it''s %1$d'
          empty: ""
      spec:
        parallelism: 2
        completions:
        suspend: false
        template:
          metadata:
            labels:
              app: train-%1$d
          spec:
            hostNetwork: true
            containers:
            - name: trainer
              image: nvcr.io/nvidia/pytorch:24.05-py3
              args: []
              command:
              - python
              -
              - "train.py"
              env:
              - name: NCCL_DEBUG
                value: INFO
              - name: NCCL_IB_HCA
                value: mlx5_0,mlx5_1
              -   name: NCCL_SOCKET_IFNAME
                  value: ~
              resources:
                limits:
                  nvidia.com/gpu: "8"
                  rdma/hca: 1
                requests:
                  memory: 10Gi
              securityContext:
                capabilities:
                  add:
                    - IPC_LOCK
                runAsUser: 1000
            volumes:
            -
              name: dshm
              emptyDir:
                medium: Memory
      """;

  private static String job(int i) {
    return JOB.formatted(i);
  }

  private static String indented(String s, String by) {
    return s.lines().map(l -> l.isEmpty() ? l : by + l).reduce("", (a, b) -> a + b + "\n");
  }

  private static String docs(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append("---\n").append(job(i));
    }
    return sb.toString();
  }

  /** kubectl's List: items at the key's column; {@code deep} puts them two columns in. */
  private static String list(int n, boolean deep) {
    StringBuilder sb = new StringBuilder("apiVersion: v1\nitems:\n");
    for (int i = 0; i < n; i++) {
      String item = indented(job(i), "  ");
      item = "- " + item.substring(2);
      sb.append(deep ? indented(item, "  ") : item);
    }
    return sb.append("kind: List\nmetadata:\n  resourceVersion: \"\"\n").toString();
  }

  static Stream<String> shapes() throws IOException {
    List<String> out = new ArrayList<>();
    out.add(docs(3));
    out.add(job(7));
    out.add(list(3, false));
    out.add(list(3, true));
    out.add(docs(2) + "---\n" + list(2, false) + "---\n" + job(9));
    out.add("apiVersion: v1\nitems: []\nkind: List\n---\n" + job(1));
    out.add("---\n---\n# only a comment\n---\n" + job(2) + "...\n");
    out.add(job(3).replace("\n", "\r\n"));
    // a decline in a document, in an item, after the items, and invalid YAML after good objects
    out.add(docs(2) + "---\n" + job(5).replace("name: trainer", "name: &a trainer") + "---\n" + job(6));
    out.add(list(4, false).replace("train-2\n  namespace", "train-2 # two\n  namespace"));
    out.add(list(4, true).replace("train-3\n    namespace", "train-3\n    namespace: !!str x\n    n2"));
    out.add(list(2, false).replace("kind: List\n", "kind: List\nextra: |\n  text\n"));
    out.add(list(3, false).replace("image: nvcr.io", "image: [nvcr.io"));
    out.add(docs(3).replace("medium: Memory", "medium: Memory\n  bad: indentation"));
    out.add(list(3, false) + "\tkey: tab\n");
    out.add(docs(2).replace("value: INFO", "value: \"INFO\\u0041\""));
    out.add(docs(2).replace("value: INFO", "value: 'multi\n          line'"));
    out.add(docs(2).replace("value: INFO", "value: plain\n          continued"));
    out.add(docs(2).replace("value: INFO", "value: 0x1F\n                x: 1e3\n                y: 2024-01-01\n                z: yes"));
    out.add("\uFEFF" + job(1));
    out.add("%YAML 1.1\n---\n" + job(1));
    out.add("- a\n- b\n");
    out.add("just text\n");
    out.add(job(4).replace("namespace: team-4", "namespace: équipe"));
    try (Stream<Path> s = Files.walk(CliRun.REPO.resolve("samples/k8s"))) {
      for (Path p : s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        String text = Files.readString(p);
        out.add(text);
        out.add(text.lines().map(l -> l.replaceAll("\\s*#.*$", "")).reduce("", (a, b) -> a + b + "\n"));
      }
    }
    return out.stream();
  }

  /** What SnakeYAML alone, or the fast reader and SnakeYAML after it, hand on: or the message of the error. */
  private static List<String> read(String text, boolean fast) {
    List<String> out = new ArrayList<>();
    try {
      new ManifestSource(null, Set.of(), fast).objects("in.yaml", new StringReader(text), (o, lines) -> {
        Set<Integer> at = new TreeSet<>();
        lines(o, at);
        StringBuilder sb = new StringBuilder(o.toString());
        for (int n : at) {
          sb.append('\n').append(n).append(": ").append(lines.apply(n));
        }
        out.add(sb.toString());
      });
    } catch (ManifestException e) {
      out.add("error: " + e.getMessage());
    }
    return out;
  }

  private static void lines(Node n, Set<Integer> at) {
    at.add(n.line());
    at.add(n.keyLine());
    if (n.value() instanceof Map<?, ?>) {
      n.map().values().forEach(v -> lines(v, at));
    } else if (n.value() instanceof List<?>) {
      n.list().forEach(v -> lines(v, at));
    }
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void sameObjectsAsSnakeYaml(String text) {
    List<String> slow = read(text, false);
    assertThat(read(text, true)).containsExactlyElementsOf(slow);
  }

  @Test
  void theFastReaderReadsKubectlOutputWithoutHandingOver() throws IOException {
    for (String text : List.of(docs(5), list(5, false), list(5, true))) {
      BlockYaml b = new BlockYaml(new StringReader(text), 1 << 20, new ScalarTypes());
      List<Node> got = new ArrayList<>();
      assertThat(b.read((o, lines) -> got.add(o))).isNull();
      assertThat(got).hasSizeGreaterThanOrEqualTo(5);
    }
  }

  @Test
  void seededMutationsGiveTheSameObjectsOrTheSameError() throws IOException {
    List<String> seeds = shapes().toList();
    Random r = new Random(Long.getLong("mutation.seed", 11));
    String[] bits = {" ", "  ", "- ", ": ", ":", "#", "'", "\"", "{}", "[]", "{", "[", "&a ", "*a", "!", "|", ">",
        "---", "...", "\t", "\r", "~", "null", "true", "07", "1.5", "\\", "%", "@", "items:", "\n", "-", "?"};
    for (int i = 0; i < Integer.getInteger("mutation.count", 3000); i++) {
      String s = seeds.get(r.nextInt(seeds.size()));
      StringBuilder sb = new StringBuilder(s);
      for (int k = 1 + r.nextInt(3); k > 0 && sb.length() > 0; k--) {
        int at = r.nextInt(sb.length());
        switch (r.nextInt(3)) {
          case 0 -> sb.insert(at, bits[r.nextInt(bits.length)]);
          case 1 -> sb.deleteCharAt(at);
          default -> sb.replace(at, Math.min(sb.length(), at + 1 + r.nextInt(3)), bits[r.nextInt(bits.length)]);
        }
      }
      String text = sb.toString();
      assertThat(read(text, true)).as("mutation %d:%n%s", i, text).containsExactlyElementsOf(read(text, false));
    }
  }
}
