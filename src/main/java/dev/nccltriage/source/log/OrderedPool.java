package dev.nccltriage.source.log;

import dev.nccltriage.host.DaemonThreads;
import dev.nccltriage.host.IoProblems;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Parses units of input on a fixed number of threads and hands the results over in the order the
 * units came. At most twice as many units as threads are in flight: parsed units wait for their
 * turn to merge, and a stream is cut into units only as fast as they are parsed. The first unit
 * waits until every thread has had one: it holds the lines each process prints once at start-up
 * (version, interfaces, HCA lists: regular expressions and Strings), cheap once the JIT has
 * compiled the parser and costly before.
 */
final class OrderedPool<U> {
  interface Source<U> {
    /** The next unit, or null when there are none left. */
    U next() throws LogInputException;
  }

  interface Work<U> {
    LogAccumulator parse(U unit, Worker worker) throws LogInputException;
  }

  interface Merge<U> {
    void accept(U unit, LogAccumulator acc);
  }

  /** What a thread keeps from unit to unit: its line buffer and its prefix cache. */
  record Worker(LineReader reader, PrefixCache prefixes) {}

  /** A unit in flight; its future is set when it is submitted (the first one later than the rest). */
  private static final class Slot<U> {
    final U unit;
    Future<LogAccumulator> future;

    Slot(U unit) {
      this.unit = unit;
    }
  }

  private final int wanted;
  private final Supplier<Worker> workers;
  private final UnaryOperator<ThreadFactory> threadsOf;

  OrderedPool(int threads, Supplier<Worker> workers) {
    this(threads, workers, UnaryOperator.identity());
  }

  /** For tests: the pool's threads come from {@code threadsOf} applied to its own factory. */
  OrderedPool(int threads, Supplier<Worker> workers, UnaryOperator<ThreadFactory> threadsOf) {
    this.wanted = threads;
    this.workers = workers;
    this.threadsOf = threadsOf;
  }

  void run(Source<U> source, Work<U> work, Merge<U> merge) throws LogInputException {
    DaemonThreads threadsOfPool = new DaemonThreads("parse");
    ThreadPoolExecutor pool = new ThreadPoolExecutor(wanted, wanted, 0L, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(), threadsOf.apply(threadsOfPool));
    int threads = start(pool);
    if (threads == 0) {
      pool.shutdownNow();
      inOrder(source, work, merge);
      return;
    }
    BlockingQueue<Worker> idle = new ArrayBlockingQueue<>(threads);
    for (int i = 0; i < threads; i++) {
      idle.add(workers.get());
    }
    Deque<Slot<U>> inFlight = new ArrayDeque<>();
    Slot<U> held = null; // the first unit, until `threads` others are submitted
    int othersSubmitted = 0;
    boolean first = true;
    boolean more = true;
    boolean done = false;
    try {
      while (true) {
        while (more && inFlight.size() < 2 * threads) {
          U u = source.next();
          if (u == null) {
            more = false;
            break;
          }
          Slot<U> slot = new Slot<>(u);
          inFlight.addLast(slot);
          if (first) {
            first = false;
            held = slot;
            continue;
          }
          submit(pool, idle, work, slot);
          if (held != null && ++othersSubmitted >= threads) {
            submit(pool, idle, work, held);
            held = null;
          }
        }
        if (held != null) { // fewer units than threads, or the window is full: no more waiting
          submit(pool, idle, work, held);
          held = null;
        }
        Slot<U> next = inFlight.pollFirst();
        if (next == null) {
          done = true;
          return;
        }
        LogAccumulator acc;
        try {
          acc = threadsOfPool.await(next.future);
        } catch (CompletionException e) {
          throw failure(e.getCause());
        }
        merge.accept(next.unit, acc);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogInputException("interrupted", e);
    } finally {
      if (done) {
        pool.shutdownNow();
      } else {
        stop(pool, threadsOfPool);
      }
    }
  }

  /**
   * Starts the pool's threads; returns how many the system let start. A Pod at its pids limit (or a
   * ulimit -u) refuses threads with OutOfMemoryError "unable to create native thread": the parse
   * then goes on with the threads there are, or on the calling thread when there are none, rather
   * than failing a run that one thread can do.
   */
  private int start(ThreadPoolExecutor pool) {
    try {
      while (pool.prestartCoreThread()) {
        // one more started
      }
    } catch (OutOfMemoryError e) {
      // refused: those started so far do the work
    }
    int started = pool.getPoolSize();
    if (started > 0 && started < wanted) {
      pool.setCorePoolSize(started); // so that a unit waits in the queue instead of asking for a thread
      pool.setMaximumPoolSize(started);
    }
    return started;
  }

  /** Each unit parsed on this thread and merged, in order. */
  private void inOrder(Source<U> source, Work<U> work, Merge<U> merge) throws LogInputException {
    Worker w = workers.get();
    for (U u = source.next(); u != null; u = source.next()) {
      merge.accept(u, work.parse(u, w));
    }
  }

  /**
   * Stops the pool after a failure and waits (not long) for its threads to end: the other units'
   * parses stop within 64 lines (LineReader), and what they hold must be garbage before the error
   * is reported (an exhausted heap: reporting it needs memory too).
   */
  private static void stop(ExecutorService pool, DaemonThreads threadsOfPool) {
    try {
      pool.shutdownNow();
    } catch (OutOfMemoryError e) {
      // the list of unrun tasks could not be made; the pool had stopped and interrupted its
      // threads before: the error being thrown already stands for this one
    }
    threadsOfPool.awaitEnded(10_000);
  }

  /**
   * A worker's input problem, its read error, or what is not the input's doing (the heap ran out,
   * a bug): each as itself, so that a bug is not reported as an unreadable file.
   */
  private static LogInputException failure(Throwable cause) {
    if (cause instanceof LogInputException l) {
      return l;
    }
    if (cause instanceof java.io.IOException io) {
      return new LogInputException("cannot read: " + IoProblems.describe(io), io);
    }
    if (cause instanceof Error err) {
      throw err;
    }
    throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
  }

  private void submit(ExecutorService pool, BlockingQueue<Worker> idle, Work<U> work, Slot<U> slot) {
    slot.future = pool.submit(() -> {
      Worker w = idle.take();
      try {
        return work.parse(slot.unit, w);
      } finally {
        idle.add(w);
      }
    });
  }
}
