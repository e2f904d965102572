package dev.nccltriage.cli;

import dev.nccltriage.host.DaemonThreads;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * One value made on a thread of its own while the caller does other work. {@link #get()} waits for
 * the thread's end, not for a future to be completed: when the heap runs out, completing a future
 * exceptionally needs memory too and can fail, and a caller joining that future would wait forever.
 * What the task threw, {@code get()} throws as itself (an OutOfMemoryError stays one, so the tool
 * reports the heap, not an internal error). A task whose thread could not start or died without
 * an outcome is run by the caller.
 */
final class Background<T> implements Supplier<T> {
  private final Supplier<T> task;
  private final Thread thread;
  // written by the thread before it ends, read after join(): the join orders them
  private T value;
  private Throwable failure;
  private boolean done;

  private Background(Supplier<T> task, ThreadFactory threads) {
    this.task = task;
    this.thread = threads.newThread(this::run);
    try {
      thread.start();
    } catch (OutOfMemoryError e) {
      // no native thread left (a Pod's pids limit, a full heap): get() runs the task itself
    }
  }

  static <T> Background<T> start(String name, Supplier<T> task) {
    return new Background<>(task, new DaemonThreads(name));
  }

  /** For tests: threads from {@code threads}. */
  static <T> Background<T> start(Supplier<T> task, ThreadFactory threads) {
    return new Background<>(task, threads);
  }

  private void run() {
    try {
      value = task.get();
    } catch (Throwable t) { // NOPMD: every outcome goes to get(), Errors included
      failure = t;
    }
    done = true;
  }

  @Override
  public synchronized T get() {
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true; // the value is still owed: wait on, and keep the interrupt for later
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (!done) {
      run();
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException(failure); // a sneaky checked exception: a bug
    }
    return value;
  }
}
