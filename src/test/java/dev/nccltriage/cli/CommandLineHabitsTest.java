package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 13 items 10, 11, 14 and 15: what a person at a shell expects of the command line. */
class CommandLineHabitsTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"log", "bw", "lint", "check", "preflight", "capture", "guide", "rules", "completion"})
  void everySubcommandPrintsTheVersion(String command) {
    for (String flag : new String[] {"-V", "--version"}) {
      CliRun run = CliRun.run(command, flag);
      assertThat(run.exitCode()).isZero();
      assertThat(run.stdout()).startsWith("nccl-triage ").isEqualTo(CliRun.run("--version").stdout());
    }
  }

  @Test
  void noCommandListsEveryCommand() {
    CliRun run = CliRun.run();
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("log, bw, lint, check, preflight, capture, guide, rules, completion");
  }

  @Test
  void aMisspeltCommandGetsTheNearestOnes() {
    CliRun lgo = CliRun.run("lgo", "x.log");
    assertThat(lgo.exitCode()).isEqualTo(2);
    assertThat(lgo.stderr()).contains("unknown command 'lgo'").contains("Did you mean: log?");
    assertThat(CliRun.run("preflihgt").stderr()).contains("Did you mean: preflight?");
    assertThat(CliRun.run("zzz").stderr()).doesNotContain("Did you mean");
  }

  @Test
  void aLogFileGivenAsTheCommandIsPointedAtLog() {
    CliRun run = CliRun.run("samples/logs/01-healthy-ib-gdr-2.21.5.log");
    assertThat(run.stderr()).contains("To triage that file: nccl-triage log samples/logs/01-healthy-ib-gdr-2.21.5.log");
  }

  private static CliRun withTty(boolean stdinTty, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      Context ctx = new Context(new ByteArrayInputStream(new byte[0]), o, e, CliRun.ENV, CliRun.REPO, false, false,
          java.time.Clock.systemUTC(), Preload.lazy(), new dev.nccltriage.host.Cleanup(),
          new Context.Tty(stdinTty, () -> 0));
      int code = NcclTriage.mainWithoutExit(ctx, args);
      return new CliRun(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void readingStdinFromATerminalSaysSoOnce() {
    CliRun tty = withTty(true, "log");
    assertThat(tty.stderr()).startsWith("nccl-triage: reading an NCCL log from stdin (paste it, then Ctrl-D)");
    assertThat(tty.stderr().lines().filter(l -> l.contains("from stdin")).count()).isEqualTo(1);
    assertThat(withTty(true, "lint").stderr()).contains("reading Kubernetes YAML from stdin");
    assertThat(withTty(true, "bw").stderr()).contains("reading nccl-tests output from stdin");
    // a pipe, or a file named: nothing to say
    assertThat(withTty(false, "log").stderr()).doesNotContain("from stdin");
    assertThat(withTty(true, "log", "samples/logs/01-healthy-ib-gdr-2.21.5.log").stderr()).doesNotContain("from stdin");
  }

  @Test
  void aPidWithNoProcessIsAUsageError() {
    for (String cmd : new String[] {"check", "preflight"}) {
      CliRun run = CliRun.run(cmd, "--pid", "999999999");
      assertThat(run.exitCode()).as(cmd).isEqualTo(2);
      assertThat(run.stderr()).isEqualTo("nccl-triage: --pid 999999999: no such process (/proc/999999999 does not exist;"
          + " in a container, the training process is usually 1: see `ps -e` or /proc/*/cmdline)\n");
    }
    CliRun capture = CliRun.run("capture", "--pid", "999999999", "-o", tmp.resolve("c.tar.gz").toString());
    assertThat(capture.exitCode()).isEqualTo(2);
    assertThat(tmp.resolve("c.tar.gz")).doesNotExist();
    assertThat(CliRun.run("check", "--pid", String.valueOf(ProcessHandle.current().pid()), "-o", "json").exitCode())
        .isIn(0, 1, 3);
  }

  @Test
  void anEmptyRootAndAMissingFileAreUsageErrors() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    CliRun root = CliRun.run("check", "--root", empty.toString());
    assertThat(root.exitCode()).isEqualTo(2);
    assertThat(root.stderr()).contains("not a capture folder");
    CliRun bw = CliRun.run("bw", "/nonexistent");
    assertThat(bw.exitCode()).isEqualTo(2);
    assertThat(bw.stderr()).isEqualTo("nccl-triage: /nonexistent: No such file or directory\n");
  }

  @Test
  void widthComesFromTheTerminalWhenColumnsIsUnset() {
    Context tty = new Context(new ByteArrayInputStream(new byte[0]), System.out, System.err, Map.of(), CliRun.REPO,
        true, false, java.time.Clock.systemUTC(), Preload.lazy(), new dev.nccltriage.host.Cleanup(),
        new Context.Tty(false, () -> 132));
    assertThat(tty.width()).isEqualTo(132);
    Context columns = new Context(tty.in(), tty.out(), tty.err(), Map.of("COLUMNS", "90"), tty.cwd(), true, false,
        tty.clock(), tty.preload(), tty.cleanup(), tty.tty());
    assertThat(columns.width()).isEqualTo(90);
    Context pipe = new Context(tty.in(), tty.out(), tty.err(), Map.of(), tty.cwd(), false, false, tty.clock(),
        tty.preload(), tty.cleanup(), tty.tty());
    assertThat(pipe.width()).isEqualTo(100);
  }

  @Test
  void anEmptyNoColorLeavesColourOn() {
    Context empty = new Context(new ByteArrayInputStream(new byte[0]), System.out, System.err, Map.of("NO_COLOR", ""),
        CliRun.REPO, true);
    assertThat(empty.colour()).isTrue();
    Context set = new Context(empty.in(), empty.out(), empty.err(), Map.of("NO_COLOR", "1"), CliRun.REPO, true);
    assertThat(set.colour()).isFalse();
  }

  @Test
  void lintTextIsWrappedToTheWidth() {
    CliRun run = CliRun.run(new byte[0], Map.of("COLUMNS", "60"), false, "lint", "samples/k8s/bad/job-rdma-misconfigured.yaml");
    assertThat(run.stdout().lines().filter(l -> l.length() > 60 && l.strip().contains(" "))).isEmpty();
    assertThat(run.stdout()).contains("(K-rdma-no-multus)");
  }
}
