package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletionException;
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

  @Test
  void aWaitEndsWithTheErrorThatKilledAThreadOfThePool() throws Exception {
    DaemonThreads threads = new DaemonThreads("work");
    java.util.concurrent.CompletableFuture<String> stranded = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CompletableFuture<String> completed = java.util.concurrent.CompletableFuture.completedFuture("v");
    OutOfMemoryError heap = new OutOfMemoryError("Java heap space");
    Thread t = threads.newThread(() -> {
      throw heap;
    });
    t.start();
    t.join();
    assertThatThrownBy(() -> threads.await(stranded)).isInstanceOf(CompletionException.class).hasCauseReference(heap);
    assertThatThrownBy(() -> threads.join(stranded)).isInstanceOf(CompletionException.class).hasCauseReference(heap);
    assertThat(threads.join(completed)).isEqualTo("v");
  }

  @Test
  void aTaskFailureComesBackAsTheCause() {
    DaemonThreads threads = new DaemonThreads("work");
    IllegalStateException bug = new IllegalStateException("bug");
    assertThatThrownBy(() -> threads.join(java.util.concurrent.CompletableFuture.failedFuture(bug)))
        .isInstanceOf(CompletionException.class).hasCauseReference(bug);
  }

  @Test
  void awaitEndedWaitsForEveryThreadMadeAndNoLonger() throws Exception {
    DaemonThreads threads = new DaemonThreads("work");
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Thread quick = threads.newThread(() -> { });
    Thread held = threads.newThread(() -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    quick.start();
    held.start();
    assertThat(threads.awaitEnded(50)).isFalse();
    release.countDown();
    assertThat(threads.awaitEnded(10_000)).isTrue();
    assertThat(held.isAlive()).isFalse();
  }
}
