package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.nccltriage.cli.ToolProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner itself, on what commons-exec gets wrong by default (issue 11 items 7, 8): its
 * synchronous wait has no bound, its stop timeout adds 2 s per pipe and then hides the exit code
 * behind -1, its watchdog only destroys the direct child, and its launch error is a wrapper.
 */
class ExecRunnerTest {
  private static final Duration HANG = Duration.ofSeconds(20);

  @TempDir Path tmp;

  private ExecRunner runner(Duration timeout, Cleanup cleanup) {
    return new ExecRunner(timeout, timeout.multipliedBy(2),
        Map.of("PATH", tmp.resolve("bin") + ":" + ToolProcess.SYSTEM_PATH), 1 << 20, cleanup);
  }

  private Path script(String name, String body) throws IOException {
    return ToolProcess.script(tmp.resolve("bin"), name, body);
  }

  /** A daemon left by a command that then exits 3 holds stdout: the code stands, the wait ends. */
  @Test
  void aGrandchildHoldingThePipeNeitherHidesTheExitCodeNorHoldsTheRun() throws Exception {
    String sleep = "sleep 985.432101";
    script("leaves-daemon", "echo before\n( " + sleep + " & )\nexit 3\n");

    long start = System.nanoTime();
    CommandResult r = assertTimeoutPreemptively(HANG,
        () -> runner(Duration.ofSeconds(10), new Cleanup()).run(List.of("leaves-daemon")));
    double seconds = (System.nanoTime() - start) / 1e9;

    assertThat(r.status()).as("%s", r).isEqualTo("failed");
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.stdout()).isEqualTo("before\n");
    assertThat(seconds).as("pipes are read for a grace, then what holds them is killed").isLessThan(2.0);
    assertThat(ToolProcess.leftovers(sleep)).as("the daemon (once SIGKILL has had time to land)").isEmpty();
  }

  /** Ignores SIGTERM, and so does the child it waits for: both are gone at the timeout. */
  @Test
  void aTimeoutKillsTheTreeAndSaysTimeout() throws Exception {
    String sleep = "sleep 985.432102";
    script("hangs", "trap '' TERM\necho started\n( trap '' TERM; " + sleep + " )\n");

    CommandResult r = assertTimeoutPreemptively(HANG,
        () -> runner(Duration.ofSeconds(1), new Cleanup()).run(List.of("hangs")));

    assertThat(r.status()).as("%s", r).isEqualTo("timeout");
    assertThat(r.stdout()).isEqualTo("started\n");
    assertThat(r.millis()).isBetween(900L, 3000L);
    assertThat(ToolProcess.leftovers(sleep)).as("the child (once SIGKILL has had time to land)").isEmpty();
  }

  @Test
  void stdinIsClosedAndOnlyPathAndLocaleAreInherited() throws Exception {
    script("show", "cat\nenv | sort\n");

    CommandResult r = assertTimeoutPreemptively(HANG,
        () -> runner(Duration.ofSeconds(10), new Cleanup()).run(List.of("show", "${PATH}", "a b")));

    assertThat(r.status()).as("%s", r).isEqualTo("ok");
    assertThat(r.stdout().lines().map(l -> l.replaceAll("=.*", "")))
        .containsExactly("LC_ALL", ProcessTree.MARKER, "PATH", "PWD");
  }

  @Test
  void argumentsReachTheCommandUnchanged() throws Exception {
    script("args", "for a; do echo \"[$a]\"; done\n");

    CommandResult r = runner(Duration.ofSeconds(10), new Cleanup()).run(List.of("args", "${PATH}", "a b", "\"q\"", ""));

    assertThat(r.stdout()).isEqualTo("[${PATH}]\n[a b]\n[\"q\"]\n[]\n");
  }

  /** The interpreter is missing: the launch fails, and the reason is the operating system's. */
  @Test
  void aCommandThatCannotStartIsAnErrorWithItsReason() throws Exception {
    Files.writeString(script("broken", ""), "#!/nonexistent/interpreter\n");

    CommandResult r = runner(Duration.ofSeconds(10), new Cleanup()).run(List.of("broken"));

    assertThat(r.status()).isEqualTo("error");
    assertThat(r.stderr()).contains("broken").contains("No such file").doesNotContain("null");
  }

  /** A signal while a command runs: the cleanup kills its tree and the runner says interrupted. */
  @Test
  void aCleanupKillsTheRunningCommandAndTheRunIsInterrupted() throws Exception {
    String sleep = "sleep 985.432103";
    script("slow", "trap '' TERM\n" + sleep + "\n");
    Cleanup cleanup = new Cleanup();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<CommandResult> run = pool.submit(() -> runner(Duration.ofSeconds(60), cleanup).run(List.of("slow")));
      awaitRunning(sleep);

      cleanup.run();

      assertThat(ToolProcess.leftovers(sleep)).as("after the cleanup (once SIGKILL has had time to land)").isEmpty();
      assertThatThrownBy(() -> run.get(20, java.util.concurrent.TimeUnit.SECONDS))
          .hasCauseInstanceOf(Cleanup.Interrupted.class);
    } finally {
      pool.shutdownNow();
    }
  }

  /** The probe pool is shut down: the wait is interrupted, the tree killed, never a timeout. */
  @Test
  void anInterruptedWaitKillsTheCommandAndIsNoTimeout() throws Exception {
    String sleep = "sleep 985.432104";
    script("slow", "trap '' TERM\n" + sleep + "\n");
    ExecutorService pool = Executors.newSingleThreadExecutor();
    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    pool.submit(() -> {
      try {
        thrown.complete(new AssertionError("returned " + runner(Duration.ofSeconds(60), new Cleanup()).run(List.of("slow"))));
      } catch (RuntimeException e) {
        thrown.complete(e);
      }
    });
    awaitRunning(sleep);

    pool.shutdownNow();

    assertThat(thrown.get(20, java.util.concurrent.TimeUnit.SECONDS)).isInstanceOf(Cleanup.Interrupted.class);
    assertThat(gone(sleep)).as("after the interrupt (SIGKILL at once, its delivery not awaited)").isEmpty();
  }

  /** What still runs after a second: a SIGKILL sent without waiting lands within it. */
  private static List<String> gone(String sleep) throws InterruptedException {
    long end = System.nanoTime() + 1_000_000_000L;
    while (!ToolProcess.processesMatching(sleep).isEmpty() && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    return ToolProcess.processesMatching(sleep);
  }

  private static void awaitRunning(String sleep) throws InterruptedException {
    long end = System.nanoTime() + 20_000_000_000L;
    while (ToolProcess.processesMatching(sleep).isEmpty()) {
      assertThat(System.nanoTime() < end).as("the command started within 20 s").isTrue();
      Thread.sleep(20);
    }
  }
}
