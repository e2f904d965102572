package dev.nccltriage.host;

import java.time.Duration;
import org.apache.commons.exec.ExecuteWatchdog;
import org.apache.commons.exec.Watchdog;

/**
 * commons-exec's watchdog for one command, killing the command's whole tree ({@link ProcessTree})
 * where the stock one only destroys the direct child, which a probe ignoring SIGTERM survives and
 * whose children it never reaches. It also keeps the {@link Process} (the executor launches it on
 * its own thread), so the runner reads the real exit code and can kill the tree itself: on a
 * signal, when its wait is interrupted, when a grandchild holds a pipe.
 */
final class TreeWatchdog extends ExecuteWatchdog {
  private final String marker;
  private final Duration grace;
  private Process process;
  private Exception launchFailure;
  private boolean launchDone;
  private boolean exited;
  private boolean timedOut;
  private boolean cancelled;

  /** The only constructor a subclass can reach is the deprecated one; it is the same watchdog. */
  @SuppressWarnings("deprecation")
  TreeWatchdog(Duration timeout, String marker, Duration grace) {
    super(Math.max(1, timeout.toMillis()));
    this.marker = marker;
    this.grace = grace;
  }

  @Override
  public synchronized void start(Process p) {
    process = p;
    launchDone = true;
    notifyAll();
    super.start(p);
    if (cancelled) {
      // cancelled while the executor's thread was still launching it
      ProcessTree.kill(p, marker, Duration.ZERO);
    }
  }

  @Override
  public synchronized void failedToStart(Exception e) {
    launchFailure = e;
    launchDone = true;
    notifyAll();
    super.failedToStart(e);
  }

  /** The executor calls this once the process has exited. */
  @Override
  public synchronized void stop() {
    exited = true;
    super.stop();
  }

  @Override
  public synchronized void timeoutOccured(Watchdog w) {
    if (process != null && !exited && process.isAlive()) {
      timedOut = true;
      ProcessTree.kill(process, marker, grace);
    }
    super.timeoutOccured(w);
  }

  /** Whether the command ran past its time and was killed for it. */
  @Override
  public synchronized boolean killedProcess() {
    return timedOut;
  }

  /**
   * Kills the tree now and whatever the executor's thread launches from here on. A launch already
   * under way is awaited for {@code grace}, so a signal landing between {@code execute} and the
   * fork, with the JVM about to halt, still leaves no probe.
   */
  synchronized void cancel(Duration killGrace) {
    cancelled = true;
    long end = System.nanoTime() + grace.toNanos();
    while (!launchDone) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return; // never launched, or so late that start() will kill it itself
      }
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (process != null) {
      ProcessTree.kill(process, marker, killGrace);
    }
  }

  /** Kills what the command left: a finished command's grandchildren still holding its pipes. */
  synchronized void killTree() {
    if (process != null) {
      ProcessTree.kill(process, marker, grace);
    }
  }

  synchronized Process process() {
    return process;
  }

  synchronized Exception launchFailure() {
    return launchFailure;
  }
}
