package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM's own way to run a wrapped command (java -jar ... preflight -- CMD): the command's exit
 * status is returned as it is, and the cleanup a signal starts stops the command with SIGTERM,
 * waits for it and leaves its status as the one the process exits with.
 */
class WrappedCommandTest {
  private static final Duration HANG = Duration.ofSeconds(30);

  @TempDir Path tmp;

  private int run(Cleanup cleanup, String script) throws Exception {
    return WrappedCommand.run(List.of("/bin/sh", "-c", script), System.getenv(), tmp, cleanup);
  }

  @Test
  void theCommandsExitCodeIsReturnedAndNothingIsLeftForTheShutdownHook() throws Exception {
    Cleanup cleanup = new Cleanup();
    assertThat(assertTimeoutPreemptively(HANG, () -> run(cleanup, "exit 7"))).isEqualTo(7);
    assertThat(assertTimeoutPreemptively(HANG, () -> run(cleanup, "pwd > where"))).isZero();
    assertThat(Files.readString(tmp.resolve("where")).strip()).as("its working folder").isEqualTo(tmp.toString());
    cleanup.run();
    assertThat(cleanup.exitStatus()).as("withdrawn once the command ended").isEmpty();
  }

  @Test
  void aCommandKilledBySignalNGives128PlusN() throws Exception {
    assertThat(assertTimeoutPreemptively(HANG, () -> run(new Cleanup(), "kill -KILL $$"))).isEqualTo(137);
  }

  /** The shutdown hook's path: SIGTERM to the command, which traps it and exits 42; 42 is ours. */
  @Test
  void aSignalToTheToolIsPassedOnAndTheCommandsStatusBecomesTheExitStatus() throws Exception {
    Cleanup cleanup = new Cleanup();
    Path ready = tmp.resolve("ready");
    CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> {
      try {
        return run(cleanup, "trap 'echo TERM > got; exit 42' TERM; : > ready; while :; do sleep 0.1; done");
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    assertTimeoutPreemptively(HANG, () -> {
      while (!Files.exists(ready)) {
        assertThat(status).as("the command still runs").isNotDone();
        Thread.sleep(20);
      }
    });

    assertTimeoutPreemptively(HANG, cleanup::run); // what Main's shutdown hook does on SIGTERM

    assertThat(Files.readString(tmp.resolve("got")).strip()).isEqualTo("TERM");
    assertThat(cleanup.exitStatus()).hasValue(42);
    assertThat(assertTimeoutPreemptively(HANG, () -> status.join())).isEqualTo(42);
  }

  @Test
  void aSignalBeforeTheLaunchMeansTheCommandNeverStarts() {
    Cleanup cleanup = new Cleanup();
    cleanup.run();
    assertThatThrownBy(() -> run(cleanup, ": > started")).isInstanceOf(Cleanup.Interrupted.class);
    assertThat(tmp.resolve("started")).doesNotExist();
    assertThat(cleanup.exitStatus()).isEmpty();
  }
}
