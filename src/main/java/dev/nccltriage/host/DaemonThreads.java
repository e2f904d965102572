package dev.nccltriage.host;

import java.util.Arrays;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named daemon threads for one pool of the tool's background work (parsing, probes), and the way
 * to wait for their results.
 *
 * <p>When the heap runs out, a pool's thread can die outside any task: waiting for work allocates
 * (a lock's queue node), and so does starting the thread that replaces it. The tasks it would have
 * run then never complete, and a plain {@code Future.get()} waits forever (seen: a 16 MiB heap on
 * Java 25, two parser threads, the tool asleep until killed). {@link #await} waits in slices and
 * gives up with the error that killed a thread of this pool.
 *
 * <p>Such a death says nothing itself: the thread that waits meets the error and prints the one
 * line the tool gives for it. Left to the JVM, the dying thread would print its trace, or, when
 * printing needs memory too, "Exception: java.lang.OutOfMemoryError thrown from the
 * UncaughtExceptionHandler", on the stderr a preflight script reads. Anything else that kills a
 * thread is also printed as the JVM would (a bug: a trace), and fails the waits the same way.
 */
public final class DaemonThreads implements ThreadFactory {
  // a death is rare and noticed a slice late at most; each slice that ends builds a timeout
  // exception with its stack (at 20 ms, 10 ms of the waiting thread's CPU on a 1 GiB log, taken
  // from the parser threads it waits for)
  private static final long SLICE_MS = 100;

  private final String name;
  private final AtomicInteger made = new AtomicInteger();
  private volatile Throwable death;
  private volatile Thread[] threads = new Thread[0];

  public DaemonThreads(String name) {
    this.name = name;
  }

  @Override
  public Thread newThread(Runnable r) {
    Thread t = new Thread(r, name + "-" + made.incrementAndGet());
    t.setDaemon(true);
    t.setUncaughtExceptionHandler(this::died);
    synchronized (this) {
      Thread[] all = Arrays.copyOf(threads, threads.length + 1);
      all[threads.length] = t;
      threads = all;
    }
    return t;
  }

  /**
   * Waits until every thread made here has ended, at most {@code millis} in all; false if one is
   * still alive then. Allocates nothing, so it can be called when the heap has run out.
   */
  public boolean awaitEnded(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000;
    Thread[] all = threads;
    for (int i = 0; i < all.length; i++) {
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return !anyAlive(all);
      }
      try {
        all[i].join(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !anyAlive(all);
      }
    }
    return !anyAlive(all);
  }

  private static boolean anyAlive(Thread[] all) {
    for (int i = 0; i < all.length; i++) {
      if (all[i].isAlive()) {
        return true;
      }
    }
    return false;
  }

  private void died(Thread t, Throwable e) {
    if (death == null) {
      death = e;
    }
    if (!(e instanceof OutOfMemoryError)) {
      t.getThreadGroup().uncaughtException(t, e);
    }
  }

  /**
   * The value of {@code f}, a task of this pool. Throws a CompletionException with what the task
   * threw, or with what killed a thread of this pool while {@code f} was still pending.
   */
  public <T> T await(Future<T> f) throws InterruptedException {
    while (true) {
      try {
        return f.get(SLICE_MS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        Throwable d = death;
        if (d != null && !f.isDone()) {
          throw new CompletionException(d);
        }
      } catch (ExecutionException e) {
        throw new CompletionException(e.getCause());
      }
    }
  }

  /** {@link #await}, for a caller that is never interrupted on purpose: an interrupt is kept for later. */
  public <T> T join(Future<T> f) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return await(f);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
