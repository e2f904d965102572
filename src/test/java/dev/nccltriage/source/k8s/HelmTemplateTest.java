package dev.nccltriage.source.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 13 item 9: a Helm chart's template given to lint as it is gets one plain line naming the
 * file, the template's line and what to do (render it with helm template), exit 2; not SnakeYAML's
 * internal event text. A rendered manifest that merely holds a Go template in a string still lints.
 */
class HelmTemplateTest {
  @TempDir Path tmp;

  static Stream<Arguments> templates() {
    return Stream.of(
        Arguments.of("an action in a name", """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: {{ .Release.Name }}-train
            spec:
              template:
                spec:
                  containers:
                  - name: trainer
                    image: "{{ .Values.image }}"
            """, 4),
        Arguments.of("a condition around the document", """
            {{- if .Values.enabled }}
            apiVersion: v1
            kind: Pod
            metadata:
              name: x
            spec:
              containers:
              - name: c
                image: i
            {{- end }}
            """, 1),
        Arguments.of("a number from values", """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: x
            spec:
              replicas: {{ .Values.replicas }}
              template:
                spec:
                  containers:
                  - name: c
            """, 6),
        Arguments.of("a range over values", """
            apiVersion: v1
            kind: Pod
            metadata:
              name: x
            spec:
              containers:
              - name: c
                image: i
                env:
                {{- range $k, $v := .Values.env }}
                - name: {{ $k }}
                  value: {{ $v | quote }}
                {{- end }}
            """, 10),
        Arguments.of("an include after valid objects", """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: fine
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: x
              labels:
                {{- include "chart.labels" . | nindent 4 }}
            spec:
              containers:
              - name: c
            """, 11));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("templates")
  void aTemplateIsNamedAsOneLine(String what, String text, int line) throws Exception {
    Path file = tmp.resolve("deployment.yaml");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    CliRun run = CliRun.run("lint", file.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr().lines().toList()).hasSize(1);
    assertThat(run.stderr()).startsWith("nccl-triage: " + file + ":" + line + ": this is a Helm/Go template")
        .contains("render it first").contains("helm template").doesNotContain("org.yaml").doesNotContain("Event");
    // the same from stdin, as `cat chart/templates/x.yaml | nccl-triage lint -` gives it
    CliRun stdin = CliRun.runWithStdin(text.getBytes(StandardCharsets.UTF_8), "lint", "-");
    assertThat(stdin.exitCode()).isEqualTo(2);
    assertThat(stdin.stderr()).startsWith("nccl-triage: -:" + line + ": this is a Helm/Go template");
  }

  /** A rendered manifest may quote a Go template (Argo, Alertmanager): it parses, and is linted. */
  @Test
  void goTemplatesInsideValuesAreNotTemplates() {
    String text = """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: alertmanager
        data:
          tmpl: |
            {{ define "slack.text" }}{{ .CommonAnnotations.summary }}{{ end }}
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: step
          annotations:
            workflows.argoproj.io/template: "{{inputs.parameters.x}}"
        spec:
          containers:
          - name: c
            args: ["{{ .Values.literal }}"]
        """;
    CliRun run = CliRun.runWithStdin(text.getBytes(StandardCharsets.UTF_8), "lint", "-o", "json");
    assertThat(run.stderr()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.json().at("/inputs/0/podTemplates").asInt()).isEqualTo(1);
  }

  /** Bad YAML far from a (valid, quoted) Go template keeps the plain YAML error. */
  @Test
  void otherYamlErrorsStayYamlErrors() {
    String text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alertmanager\ndata:\n  tmpl: |\n"
        + "    {{ .CommonAnnotations.summary }}\n---\na: 1\nb: 2\nc: 3\nd: 4\ne: [1,\n";
    CliRun run = CliRun.runWithStdin(text.getBytes(StandardCharsets.UTF_8), "lint", "-");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).matches("nccl-triage: -:1\\d: invalid YAML: .*\n").doesNotContain("Helm");
  }

  /** Jackson's "got this instead: <org.yaml.snakeyaml.events...>" for a key that is a mapping or list. */
  @Test
  void aComplexKeyIsSaidPlainly() {
    for (String text : new String[] {"kind: Pod\n? {a: 1}\n: x\n", "kind: Pod\n[a, b]: x\n"}) {
      CliRun run = CliRun.runWithStdin(text.getBytes(StandardCharsets.UTF_8), "lint", "-");
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.stderr()).matches("nccl-triage: -:\\d: invalid YAML: a key must be plain text, not a (mapping|list).*\n")
          .doesNotContain("org.yaml").doesNotContain("Event");
    }
  }

  @Test
  void eventTextIsReworded() {
    assertThat(YamlErrors.plain("Unexpected <org.yaml.snakeyaml.events.SequenceStartEvent(anchor=null)> here"))
        .isEqualTo("Unexpected a list here");
    assertThat(YamlErrors.plain("while scanning a simple key\n in 'reader', line 3")).isEqualTo("while scanning a simple key");
  }

  /** SnakeYAML's context and problem, without its marks; the line is the problem's, not where the parser stood. */
  @Test
  void theProblemIsSaidAndItsLineNamed() {
    String message = "while scanning for the next token\n"
        + "found character '\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation)\n"
        + " in 'reader', line 2, column 1:\n    \tapiVersion: v1\n    ^\n";
    assertThat(YamlErrors.plain(message)).isEqualTo("while scanning for the next token: found character '\\t(TAB)' "
        + "that cannot start any token. (Do not use \\t(TAB) for indentation)");
    assertThat(YamlErrors.problemLine(message)).isEqualTo(2);
    String quoted = "while scanning a quoted scalar\n in 'reader', line 1, column 4:\n    a: 'x\n       ^\n"
        + "found unexpected end of stream\n in 'reader', line 9, column 1:\n    \n    ^\n";
    assertThat(YamlErrors.plain(quoted)).isEqualTo("while scanning a quoted scalar: found unexpected end of stream");
    assertThat(YamlErrors.problemLine(quoted)).isEqualTo(9);
    assertThat(YamlErrors.problemLine("mapping values are not allowed here")).isZero();
    assertThat(YamlErrors.problemLine(" in 'reader', line 99999999999, column 1:")).isZero();
    assertThat(YamlErrors.plain("Document nesting depth (1001) exceeds the maximum allowed (1000, from "
        + "`StreamReadConstraints.getMaxNestingDepth()`)")).isEqualTo("Document nesting depth (1001) exceeds the maximum allowed (1000)");

    CliRun run = CliRun.runWithStdin("kind: Pod\napiVersion: v1\nspec:\n\tcontainers: []\n".getBytes(StandardCharsets.UTF_8), "lint", "-");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).isEqualTo("nccl-triage: -:4: invalid YAML: while scanning for the next token: found character "
        + "'\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation)\n");
  }
}
