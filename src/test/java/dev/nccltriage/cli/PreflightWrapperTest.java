package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nccltriage.ladder.Captures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12, "a preflight that sees the training image itself": {@code preflight [OPTIONS] --
 * COMMAND...} in the training container runs the ladder, then the training command, whose exit
 * code becomes ours; a failed ladder keeps it from running; a SIGTERM to the wrapper reaches it.
 * Each is shown the three ways the wrapper can be started: the JVM alone ({@code java ... Main},
 * which runs the command as its child), and the bundle's and the checkout's launchers (which exec
 * it: it keeps the launcher's PID), each launcher under /bin/sh and bash. The fake training
 * command is a script that records its PID, arguments and environment, then exits with the code
 * it is given, or waits for SIGTERM, traps it and exits 42.
 */
class PreflightWrapperTest {
  private static final String HEALTHY = "samples/captures/healthy-8hca-gdr-net1";
  private static final String FAILED = "samples/captures/memlock-64k-no-ipc-lock";
  private static final String PROBE_SLEEP = "sleep 987.654321";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How the wrapper is started. */
  enum Way {
    JAVA(null, null),
    BUNDLE_SH("/bin/sh", "bundle"),
    BUNDLE_BASH("bash", "bundle"),
    CHECKOUT_SH("/bin/sh", "checkout"),
    CHECKOUT_BASH("bash", "checkout");

    final String shell;
    final String launcher;

    Way(String shell, String launcher) {
      this.shell = shell;
      this.launcher = launcher;
    }

    boolean execs() {
      return launcher != null;
    }
  }

  @TempDir Path tmp;

  /** What a run left: its exit code, its streams, and the fake command's records (null: it did not run). */
  record Run(int code, String stdout, String stderr, Path marks, long wrapperPid) {
    String mark(String name) throws IOException {
      Path f = marks.resolve(name);
      return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : null;
    }

    boolean commandRan() {
      return Files.exists(marks.resolve("pid"));
    }

    /** stderr's first line is the JSON report (stdout is the command's). */
    JsonNode json() throws IOException {
      String first = stderr.lines().findFirst().orElse("");
      assertThat(first).as("stderr's first line:\n%s", stderr).startsWith("{\"schemaVersion\"");
      return JSON.readTree(first);
    }

    String lastErrLine() {
      List<String> lines = stderr.lines().toList();
      return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    @Override
    public String toString() {
      return "exit " + code + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
  }

  // ---------------------------------------------------------------- fixtures

  /** The fake training command: {@code train.sh MARKS CODE|wait [ARG...]}. */
  private Path fake() throws IOException {
    return ToolProcess.script(tmp.resolve("image"), "train.sh", """
        d=$1
        trap 'echo TERM > "$d/signal"; exit 42' TERM
        printf '%s\\n' "$@" > "$d/args"
        printf 'LC_CTYPE=%s GATE=%s JTO=%s\\n' "${LC_CTYPE-unset}" "${NCCL_TRIAGE_GATE_ONLY-unset}" \\
          "${JAVA_TOOL_OPTIONS-unset}" > "$d/env"
        echo "training stdout"
        echo "training stderr" >&2
        echo $$ > "$d/pid"
        if [ "$2" = wait ]; then
          while :; do sleep 0.1; done
        fi
        exit "$2"
        """);
  }

  private List<String> command(Way way, List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>();
    if (way == Way.JAVA) {
      cmd.addAll(ToolProcess.command(Files.createDirectories(tmp.resolve("java-tmp")), args.toArray(String[]::new)));
      return cmd;
    }
    cmd.add(way.shell);
    cmd.add((way.launcher.equals("bundle") ? Launchers.bundle(tmp) : Launchers.checkout(tmp)).toString());
    cmd.addAll(args);
    return cmd;
  }

  private Process start(Way way, Map<String, String> env, List<String> args) throws IOException {
    Map<String, String> all = new LinkedHashMap<>(Map.of("PATH", ToolProcess.SYSTEM_PATH, "LANG", "C"));
    all.putAll(env);
    return ToolProcess.builder(command(way, args), all)
        .redirectOutput(tmp.resolve("stdout.txt").toFile())
        .redirectError(tmp.resolve("stderr.txt").toFile())
        .start();
  }

  private Run finish(Process p) throws Exception {
    try {
      int code = ToolProcess.await(p);
      return new Run(code, Files.readString(tmp.resolve("stdout.txt"), StandardCharsets.UTF_8),
          Files.readString(tmp.resolve("stderr.txt"), StandardCharsets.UTF_8), marks(), p.pid());
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private Path marks() throws IOException {
    return Files.createDirectories(tmp.resolve("marks"));
  }

  /** preflight OPTIONS -- train.sh MARKS CODE ARGS. */
  private List<String> wrapper(List<String> options, String code, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("preflight"));
    all.addAll(options);
    all.add("--");
    all.add(fake().toString());
    all.add(marks().toString());
    all.add(code);
    all.addAll(List.of(args));
    return all;
  }

  private Run run(Way way, List<String> options, String code, String... args) throws Exception {
    return finish(start(way, Map.of(), wrapper(options, code, args)));
  }

  // ---------------------------------------------------------------- the three promises

  @ParameterizedTest(name = "{0}")
  @EnumSource(Way.class)
  void afterAHealthyLadderTheCommandRunsAndItsExitCodeIsOurs(Way way) throws Exception {
    // the bundle's launcher keeps the JVM variables from its JVM, not from the command
    Map<String, String> env = way.launcher != null && way.launcher.equals("bundle")
        ? Map.of("JAVA_TOOL_OPTIONS", "-Dfor.the.image=1") : Map.of();
    // "@FILE" of a file that exists is no argument file to expand (picocli's default)
    String hostfile = "@" + Files.writeString(tmp.resolve("hostfile"), "node-0 slots=8\n");
    Run r = finish(start(way, env, wrapper(List.of("--root", HEALTHY), "7", "two words", hostfile, "--", "-h")));

    assertThat(r.code).as("%s", r).isEqualTo(7);
    assertThat(r.mark("args")).as("its arguments, untouched")
        .isEqualTo(marks() + "\n7\ntwo words\n" + hostfile + "\n--\n-h\n");
    assertThat(r.stdout).as("stdout is the command's alone").isEqualTo("training stdout\n");
    assertThat(Captures.schemaErrors(r.json())).isEmpty();
    assertThat(r.json().path("command").asText()).isEqualTo("preflight");
    assertThat(r.json().at("/verdict/status").asText()).isEqualTo("healthy");
    assertThat(r.stderr).contains("\nnccl-triage preflight: HEALTHY\n",
        "\nnccl-triage: preflight passed; running " + fake() + "\ntraining stderr\n");
    assertThat(r.mark("env")).as("the environment it was given, not the JVM's")
        .isEqualTo("LC_CTYPE=unset GATE=unset JTO=" + env.getOrDefault("JAVA_TOOL_OPTIONS", "unset") + "\n");
    long pid = Long.parseLong(r.mark("pid").strip());
    if (way.execs()) {
      assertThat(pid).as("exec'd: the command has the launcher's PID").isEqualTo(r.wrapperPid);
    } else {
      assertThat(pid).as("the JVM's child").isNotEqualTo(r.wrapperPid);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Way.class)
  void afterAFailedLadderTheCommandDoesNotRunAndTheExitCodeIsThePreflights(Way way) throws Exception {
    Run r = run(way, List.of("--root", FAILED), "7");

    assertThat(r.code).as("%s", r).isEqualTo(1);
    assertThat(r.commandRan()).as("the command ran").isFalse();
    assertThat(r.stdout).isEmpty();
    assertThat(r.json().at("/verdict/layer").asText()).isEqualTo("container-security");
    assertThat(r.lastErrLine()).isEqualTo("nccl-triage: preflight failed (exit 1); " + fake() + " was not run");
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Way.class)
  void aSigtermToTheWrapperReachesTheCommandWhoseStatusBecomesOurs(Way way) throws Exception {
    Process p = start(way, Map.of(), wrapper(List.of("--root", HEALTHY), "wait"));
    try {
      awaitFile(marks().resolve("pid"), p);
    } catch (Throwable t) {
      finish(p);
      throw t;
    }
    p.destroy(); // SIGTERM, as the kubelet sends it to PID 1
    Run r = finish(p);
    assertThat(r.mark("signal")).as("the command's TERM trap ran; %s", r).isEqualTo("TERM\n");
    assertThat(r.code).as("the command's own status after its trap").isEqualTo(42);
    if (way.execs()) {
      assertThat(Long.parseLong(r.mark("pid").strip())).isEqualTo(r.wrapperPid);
    }
  }

  // ---------------------------------------------------------------- the edges

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Way.class, names = {"JAVA", "BUNDLE_SH", "CHECKOUT_SH"})
  void aCommandNotFoundIs127AndOneNotExecutableIs126LikeAShell(Way way) throws Exception {
    List<String> args = new ArrayList<>(List.of("preflight", "--root", HEALTHY, "--", "no-such-training-command", "x"));
    Run missing = finish(start(way, Map.of(), args));
    assertThat(missing.code).as("%s", missing).isEqualTo(127);
    assertThat(missing.lastErrLine()).isEqualTo("nccl-triage: cannot run the training command: no-such-training-command:"
        + " not found in PATH (" + ToolProcess.SYSTEM_PATH + ")");

    Path plain = Files.writeString(tmp.resolve("train.py"), "print('hi')\n");
    args.set(4, plain.toString());
    Run denied = finish(start(way, Map.of(), args));
    assertThat(denied.code).as("%s", denied).isEqualTo(126);
    assertThat(denied.lastErrLine()).isEqualTo("nccl-triage: cannot run the training command: " + plain
        + ": not executable (permission denied)");
  }

  /**
   * An inconclusive ladder (the healthy capture without what tells whether GPUDirect RDMA works)
   * does not keep the command from running at the default --fail-on problem; with --fail-on warn,
   * for the demanding, it does, with the preflight's exit code 3.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Way.class, names = {"JAVA", "BUNDLE_SH"})
  void anInconclusiveLadderStopsTheCommandOnlyWithFailOnWarn(Way way) throws Exception {
    Path root = tmp.resolve("inconclusive");
    Captures.copyTree(CliRun.REPO.resolve(HEALTHY), root);
    for (String gone : List.of("sys/module", "sys/kernel/mm", "proc/modules", "proc/driver/nvidia/version")) {
      Captures.deleteTree(root.resolve(gone));
    }

    Run lenient = run(way, List.of("--root", root.toString()), "7");
    assertThat(lenient.json().at("/verdict/status").asText()).as("%s", lenient).isEqualTo("inconclusive");
    assertThat(lenient.code).as("%s", lenient).isEqualTo(7);
    assertThat(lenient.stderr).contains("nccl-triage: preflight inconclusive, which fails only with --fail-on warn; running ");

    Files.delete(marks().resolve("pid"));
    Run strict = run(way, List.of("--root", root.toString(), "--fail-on", "warn"), "7");
    assertThat(strict.code).as("%s", strict).isEqualTo(3);
    assertThat(strict.commandRan()).isFalse();
  }

  /**
   * A SIGTERM while the ladder still runs (probes that hang): the probes are killed, the command
   * never starts, the status is 143. Through the launcher the signal reaches the shell, which
   * passes it on to the JVM.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Way.class, names = {"JAVA", "BUNDLE_SH", "CHECKOUT_BASH"})
  void aSigtermDuringTheLadderStopsItAndTheCommandNeverStarts(Way way) throws Exception {
    Path bin = tmp.resolve("probes");
    for (String tool : List.of("ibv_devinfo", "rdma", "ip", "nvidia-smi")) {
      ToolProcess.script(bin, tool, PROBE_SLEEP + "\n");
    }
    List<String> args = wrapper(List.of("--timeout", "60"), "7");
    Process p = start(way, Map.of("PATH", bin + ":" + ToolProcess.SYSTEM_PATH), args);
    try {
      long end = System.nanoTime() + 30_000_000_000L;
      while (ToolProcess.processesMatching(PROBE_SLEEP).size() < 4) {
        assertThat(p.isAlive()).as("the wrapper still runs").isTrue();
        assertThat(System.nanoTime()).as("the probes started within 30 s").isLessThan(end);
        Thread.sleep(50);
      }
      p.destroy();
      Run r = finish(p);
      assertThat(r.code).as("%s", r).isEqualTo(143);
      assertThat(r.commandRan()).isFalse();
      assertThat(ToolProcess.leftovers(PROBE_SLEEP)).as("probes left running").isEmpty();
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      ToolProcess.leftovers(PROBE_SLEEP);
    }
  }

  /** --help before the -- is help, through the launcher as through the JVM: nothing runs. */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Way.class, names = {"JAVA", "BUNDLE_SH"})
  void helpBeforeTheDashesRunsNothing(Way way) throws Exception {
    Run r = run(way, List.of("--help"), "7");
    assertThat(r.code).as("%s", r).isZero();
    assertThat(r.stdout).startsWith("Usage: nccl-triage preflight").contains("[--]", "[COMMAND...]", "126", "127");
    assertThat(r.commandRan()).isFalse();
  }

  // ---------------------------------------------------------------- usage (in-process)

  private static CliRun gateOnly(String... args) {
    return CliRun.run(new byte[0], Map.of("COLUMNS", "100", "PATH", ToolProcess.SYSTEM_PATH,
        PreflightCommand.GATE_ONLY, "1"), false, args);
  }

  @Test
  void argumentsThatAreNoOptionsMustFollowTheDashes() {
    CliRun stray = gateOnly("preflight", "--root", HEALTHY, "torchrun");
    assertThat(stray.exitCode()).as("%s", stray).isEqualTo(2);
    assertThat(stray.stderr()).startsWith("nccl-triage: preflight takes no arguments (torchrun); to run a training"
        + " command after it, put it after --");
    assertThat(stray.stdout()).isEmpty();

    CliRun before = gateOnly("preflight", "--root", HEALTHY, "oops", "--", "torchrun");
    assertThat(before.exitCode()).isEqualTo(2);
    assertThat(before.stderr()).startsWith("nccl-triage: preflight: no arguments before --, only options: [oops]");

    CliRun none = gateOnly("preflight", "--root", HEALTHY, "--");
    assertThat(none.exitCode()).isEqualTo(2);
    assertThat(none.stderr()).startsWith("nccl-triage: preflight: no command after --");
  }

  /** The launchers' contract: gate only, exit 0 for "run it", and nothing started by the JVM. */
  @Test
  void gateOnlyDecidesAndStartsNothing() throws IOException {
    CliRun go = gateOnly(wrapper(List.of("--root", HEALTHY), "7").toArray(String[]::new));
    assertThat(go.exitCode()).as("%s", go.stderr()).isZero();
    assertThat(go.stdout()).isEmpty();
    assertThat(go.stderr()).endsWith("nccl-triage: preflight passed; running " + fake() + "\n");
    assertThat(marks().resolve("pid")).doesNotExist();
  }

  private static void awaitFile(Path f, Process p) throws InterruptedException {
    long end = System.nanoTime() + 60_000_000_000L;
    while (!Files.exists(f)) {
      assertThat(p.isAlive()).as("the wrapper still runs").isTrue();
      assertThat(System.nanoTime()).as("%s within 60 s", f).isLessThan(end);
      Thread.sleep(20);
    }
  }
}
