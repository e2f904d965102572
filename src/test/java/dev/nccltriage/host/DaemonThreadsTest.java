package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A background thread that dies of an exhausted heap leaves the report to the thread that waits
 * for it; anything else still reaches the thread group (the JVM's trace).
 */
class DaemonThreadsTest {
  @Test
  void anExhaustedHeapIsQuietAndABugIsNot() throws Exception {
    List<Throwable> reported = Collections.synchronizedList(new ArrayList<>());
    ThreadGroup group = new ThreadGroup("recording") {
      @Override
      public void uncaughtException(Thread t, Throwable e) {
        reported.add(e);
      }
    };
    IllegalStateException bug = new IllegalStateException("a bug");
    StackOverflowError deep = new StackOverflowError();
    List<Thread> made = new ArrayList<>();
    Thread starter = new Thread(group, () -> {
      DaemonThreads threads = new DaemonThreads("work");
      made.add(threads.newThread(() -> {
        throw new OutOfMemoryError("Java heap space");
      }));
      made.add(threads.newThread(() -> {
        throw deep;
      }));
      made.add(threads.newThread(() -> {
        throw bug;
      }));
    });
    starter.start();
    starter.join();
    for (Thread t : made) {
      t.start();
      t.join();
    }
    assertThat(made).extracting(Thread::getName).containsExactly("work-1", "work-2", "work-3");
    assertThat(made).allMatch(Thread::isDaemon);
    assertThat(reported).containsExactlyInAnyOrder(deep, bug);
  }
}
