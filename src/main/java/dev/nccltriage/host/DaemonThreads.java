package dev.nccltriage.host;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named daemon threads for the tool's background work (parsing, probes, preloading). A thread that
 * dies of an exhausted heap says nothing: the thread that waits for its result meets the error and
 * prints the one line the tool gives for it. Left to the JVM, the dying thread would print its
 * trace, or, when printing needs memory too, "Exception: java.lang.OutOfMemoryError thrown from the
 * UncaughtExceptionHandler", on the stderr a preflight script reads. Anything else dies as the JVM
 * would have it: a trace, since it is a bug (a stack overflow included).
 */
public final class DaemonThreads implements ThreadFactory {
  /** The handler of every thread made here. */
  private static final Thread.UncaughtExceptionHandler QUIET_ON_OUT_OF_MEMORY = (t, e) -> {
    if (!(e instanceof OutOfMemoryError)) {
      t.getThreadGroup().uncaughtException(t, e);
    }
  };

  private final String name;
  private final AtomicInteger made = new AtomicInteger();

  public DaemonThreads(String name) {
    this.name = name;
  }

  @Override
  public Thread newThread(Runnable r) {
    Thread t = new Thread(r, name + "-" + made.incrementAndGet());
    t.setDaemon(true);
    t.setUncaughtExceptionHandler(QUIET_ON_OUT_OF_MEMORY);
    return t;
  }
}
