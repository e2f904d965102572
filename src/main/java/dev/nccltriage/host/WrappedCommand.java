package dev.nccltriage.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a wrapped training command as a child of this JVM, sharing its standard streams, for
 * {@code java -jar ... preflight -- CMD} where no launcher can exec it (a JVM cannot replace
 * itself). The child gets this process's environment and working folder. A signal that stops the
 * tool (the kubelet's SIGTERM to PID 1, SIGINT, SIGHUP) is passed on to the command as SIGTERM
 * (the JVM's shutdown hook does not say which signal came; a terminal's SIGINT reaches the
 * command directly anyway), the tool waits for the command to end however long it takes, as an
 * exec'd command would be waited for, and the command's status becomes the tool's
 * ({@link Cleanup#exitWith}): its exit code, or 128+N when a signal N killed it.
 */
public final class WrappedCommand {
  private WrappedCommand() {}

  /** Runs {@code argv} (its program already found) to its end and gives its exit status. */
  public static int run(List<String> argv, Map<String, String> env, Path cwd, Cleanup cleanup) throws IOException {
    AtomicReference<Process> child = new AtomicReference<>();
    CountDownLatch launched = new CountDownLatch(1);
    // registered before the launch: a signal during it waits for the launch, then stops the child
    Cleanup.Task stop = cleanup.register(() -> {
      awaitQuietly(launched);
      Process p = child.get();
      if (p != null) {
        p.destroy();
        cleanup.exitWith(waitQuietly(p));
      }
    });
    if (cleanup.started()) {
      launched.countDown();
      throw new Cleanup.Interrupted(); // stopped before the command started: it never will
    }
    ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).inheritIO();
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p;
    try {
      p = pb.start();
      child.set(p);
    } finally {
      launched.countDown();
    }
    int status = waitQuietly(p);
    stop.withdraw(); // false after a signal: the hook has the same status and exits with it
    return status;
  }

  private static int waitQuietly(Process p) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return p.waitFor();
        } catch (InterruptedException e) {
          interrupted = true; // the command's end is what this thread waits for, nothing else
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
