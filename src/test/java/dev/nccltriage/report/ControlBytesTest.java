package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 14: a log line quoted as evidence may carry BEL, an ANSI escape (clear the screen,
 * set the title) or C1 controls. Text and markdown show them escaped; only the report's own colour
 * codes reach a terminal. JSON escapes them too.
 */
class ControlBytesTest {
  /** BEL, "clear screen", "set the window title", DEL, C1 CSI, backspace. */
  private static final String NASTY = "\u0007\u001b[2J\u001b]0;pwned\u0007\u007f\u009b31m\b";

  @TempDir Path tmp;

  private Path nastyLog() throws IOException {
    List<String> lines = Files.readAllLines(CliRun.REPO.resolve("samples/logs/02-socket-no-device-k8s-2.19.3.log"));
    Path log = tmp.resolve("nasty.log");
    Files.writeString(log, lines.stream().map(l -> l + NASTY).collect(Collectors.joining("\n", "", "\n")),
        StandardCharsets.UTF_8);
    return log;
  }

  /** The characters of the output that a terminal would act on, other than newline (and tab). */
  private static List<String> controls(String out, boolean allowColour) {
    String s = allowColour ? out.replaceAll("\u001b\\[(0|1|2|31|32|33)m", "") : out;
    return s.chars().filter(c -> (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f))
        .mapToObj(c -> String.format("U+%04X", c)).distinct().toList();
  }

  @Test
  void theLogReallyCarriesControlsIntoTheReport() throws IOException {
    CliRun json = CliRun.run("log", nastyLog().toString(), "-o", "json");
    assertThat(json.stdout()).as("evidence quotes the lines").contains("\\u0007");
    assertThat(controls(json.stdout(), false)).as("raw controls in JSON").isEmpty();
  }

  /** -o yaml (issue 13) carries the same strings: SnakeYAML escapes them in double-quoted scalars. */
  @Test
  void yamlEscapesControlsToo() throws IOException {
    String log = nastyLog().toString();
    CliRun yaml = CliRun.run("log", log, "-o", "yaml");
    assertThat(controls(yaml.stdout(), false)).as("raw controls in YAML").isEmpty();
    assertThat(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml.stdoutBytes()))
        .as("the same strings once parsed").isEqualTo(CliRun.run("log", log, "-o", "json").json());
  }

  /** lint's JSON went through its own writer, which let C1 controls of a manifest through. */
  @Test
  void lintsJsonEscapesAManifestsControls() throws IOException {
    String pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
        + "    k8s.v1.cni.cncf.io/networks: \"bad net\\x9b31m\"\nspec:\n  containers:\n  - name: c\n";
    CliRun run = CliRun.runWithStdin(pod.getBytes(StandardCharsets.UTF_8), "lint", "-o", "json");
    assertThat(run.stdout()).contains("K-multus-malformed").contains("\\u009b");
    assertThat(controls(run.stdout(), false)).isEmpty();
  }

  @Test
  void lintsTextAndMarkdownEscapeAManifestsControls() {
    String pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"p\\a\"\n  annotations:\n"
        + "    k8s.v1.cni.cncf.io/networks: \"bad net\\x9b31m\\a\"\nspec:\n  containers:\n  - name: c\n";
    for (String form : List.of("text", "markdown")) {
      CliRun run = CliRun.runWithStdin(pod.getBytes(StandardCharsets.UTF_8), "lint", "-o", form);
      assertThat(run.stdout()).as(form).contains("K-multus-malformed");
      assertThat(controls(run.stdout(), false)).as(form).isEmpty();
    }
  }

  @Test
  void textAndMarkdownShowControlsEscaped() throws IOException {
    String log = nastyLog().toString();
    for (String form : List.of("text", "markdown")) {
      CliRun run = CliRun.run("log", log, "-o", form);
      assertThat(controls(run.stdout(), false)).as(form).isEmpty();
      assertThat(run.stdout()).as(form).contains("\\x07");
    }
  }

  @Test
  void onATerminalOnlyTheReportsOwnColoursPass() throws IOException {
    CliRun run = CliRun.run(new byte[0], Map.of("COLUMNS", "100"), true, "log", nastyLog().toString());
    assertThat(run.stdout()).contains("\u001b[");
    assertThat(controls(run.stdout(), true)).isEmpty();
    assertThat(run.stdout()).doesNotContain("\u001b[2J").doesNotContain("\u001b]0;");
  }

  @Test
  void aCapturesHostDataIsEscapedToo() throws IOException {
    Path dir = tmp.resolve("cap");
    copy(CliRun.REPO.resolve("samples/captures/no-secondary-interface"), dir);
    // names of interfaces and the environment are quoted in the ladder's "observed" text
    Path env = dir.resolve(".nccl-triage/env");
    Files.writeString(env, Files.readString(env) + "NCCL_SOCKET_IFNAME=net1" + NASTY + "\n");
    for (String form : List.of("text", "markdown")) {
      CliRun run = CliRun.run("check", "--root", dir.toString(), "-o", form);
      assertThat(run.exitCode()).as(run.stderr()).isIn(0, 1, 3);
      assertThat(controls(run.stdout(), false)).as(form).isEmpty();
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (var s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isSymbolicLink(p)) {
          Files.createSymbolicLink(t, Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }
}
