package dev.nccltriage.host;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * What must be undone if the tool is stopped by a signal (Kubernetes sends SIGTERM, a terminal
 * SIGINT, a closed session SIGHUP): probe process trees still running, a half-written capture.
 * Main runs {@link #run} from a JVM shutdown hook; commands register an undo step while it
 * applies and withdraw it when their work is finished (or cleaned up by themselves). One instance
 * per run, passed down, so tests stay independent.
 */
public final class Cleanup {
  private final List<Task> tasks = new ArrayList<>();
  private boolean started;
  private Integer exitStatus;

  /** Registers {@code undo}; it runs at most once, on shutdown, unless withdrawn first. */
  public synchronized Task register(Runnable undo) {
    Task t = new Task(undo);
    if (!started) {
      tasks.add(t);
    }
    return t;
  }

  /** True once a signal (or a test) has started the cleanup: work still running is being undone. */
  public synchronized boolean started() {
    return started;
  }

  /** Runs every registered undo step, newest first (probes are killed before their folder goes). */
  public void run() {
    List<Task> todo;
    synchronized (this) {
      if (started) {
        return;
      }
      started = true;
      todo = new ArrayList<>(tasks);
      tasks.clear();
    }
    for (int i = todo.size() - 1; i >= 0; i--) {
      try {
        todo.get(i).undo.run();
      } catch (RuntimeException e) {
        // one failed step must not stop the others; the process is exiting anyway
      }
    }
  }

  /**
   * The status the process is to exit with once the cleanup is done, in place of the JVM's
   * 128+signal: a wrapped command's own, as if it had been exec'd ({@code preflight -- CMD}).
   */
  public synchronized void exitWith(int status) {
    exitStatus = status;
  }

  /** What {@link #exitWith} set; empty when the signal's own status stands. */
  public synchronized OptionalInt exitStatus() {
    return exitStatus == null ? OptionalInt.empty() : OptionalInt.of(exitStatus);
  }

  private synchronized boolean withdraw(Task t) {
    return !started && tasks.remove(t);
  }

  /** A registered undo step. */
  public final class Task {
    private final Runnable undo;

    private Task(Runnable undo) {
      this.undo = undo;
    }

    /**
     * Withdraws the step because the work is finished. False when the cleanup has already started
     * (or did before the step was registered): the work was interrupted and is being undone.
     */
    public boolean withdraw() {
      return Cleanup.this.withdraw(this);
    }
  }

  /** The work was stopped because the tool is shutting down; not a failure of the work itself. */
  public static final class Interrupted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Interrupted() {
      super("interrupted");
    }
  }
}
