package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Units are parsed once each, merged in their order; the first waits for the threads' first turns. */
class OrderedPoolTest {
  private static OrderedPool.Source<Integer> upTo(int n) {
    int[] next = {0};
    return () -> next[0] < n ? next[0]++ : null;
  }

  private static OrderedPool<Integer> pool(int threads) {
    return new OrderedPool<>(threads, () -> new OrderedPool.Worker(new LineReader(64), new PrefixCache()));
  }

  @Test
  void everyUnitOnceAndMergedInOrder() throws LogInputException {
    for (int threads = 1; threads <= 4; threads++) {
      for (int n = 0; n <= 20; n++) {
        List<Integer> parsed = Collections.synchronizedList(new ArrayList<>());
        List<Integer> merged = new ArrayList<>();
        pool(threads).run(upTo(n), (u, w) -> {
          parsed.add(u);
          return new LogAccumulator();
        }, (u, acc) -> merged.add(u));
        assertThat(merged).as("%d threads, %d units", threads, n)
            .containsExactlyElementsOf(IntStream.range(0, n).boxed().toList());
        assertThat(parsed).containsExactlyInAnyOrderElementsOf(merged);
      }
    }
  }

  @Test
  void theFirstUnitWaitsUntilTheThreadsHadOneEach() throws LogInputException {
    // one thread runs units in the order they are submitted
    List<Integer> parsed = new ArrayList<>();
    pool(1).run(upTo(5), (u, w) -> {
      parsed.add(u);
      return new LogAccumulator();
    }, (u, acc) -> { });
    assertThat(parsed).containsExactly(1, 0, 2, 3, 4);
  }

  @Test
  void aFailingUnitFailsTheRunWithItsMessage() {
    assertThatThrownBy(() -> pool(3).run(upTo(9), (u, w) -> {
      if (u == 4) {
        throw new LogInputException("unit 4: broken", null);
      }
      return new LogAccumulator();
    }, (u, acc) -> { })).isInstanceOf(LogInputException.class).hasMessage("unit 4: broken");
  }

  /**
   * When one part fails, the others stop at their next read before the run returns: what they
   * hold is garbage when the error is reported (an exhausted heap's exit path needs memory too).
   */
  @Test
  void aFailureStopsTheOtherPartsBeforeTheRunReturns() throws Exception {
    java.util.concurrent.atomic.AtomicInteger reading = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
    java.io.InputStream endless = new java.io.InputStream() {
      @Override
      public int read() {
        return 'x';
      }

      @Override
      public int read(byte[] b, int off, int len) {
        java.util.Arrays.fill(b, off, off + len, (byte) '\n');
        return len;
      }
    };
    assertThatThrownBy(() -> pool(2).run(upTo(3), (u, w) -> {
      if (u == 1) {
        reading.incrementAndGet();
        started.countDown();
        try {
          w.reader().read(endless, Long.MAX_VALUE, (b, s, e, n, t, esc) -> { });
        } catch (java.io.IOException e) {
          // stopped
        } finally {
          reading.decrementAndGet();
        }
        return new LogAccumulator();
      }
      awaitQuietly(started);
      throw new LogInputException("unit " + u + ": broken", null);
    }, (u, acc) -> { })).isInstanceOf(LogInputException.class).hasMessageEndingWith(": broken");
    assertThat(reading).as("a part still reading after the run returned").hasValue(0);
  }

  /** A parser thread that dies outside any unit (the heap ran out while it waited for work) fails the run; it never hangs. */
  @Test
  void aThreadThatDiesBetweenUnitsFailsTheRun() {
    OutOfMemoryError heap = new OutOfMemoryError("Java heap space");
    assertThatThrownBy(() -> pool(2).run(upTo(4), (u, w) -> {
          if (u == 0) {
            // the thread itself dies, as a thread does when the pool's own code runs out of heap;
            // its unit is left pending, as its queued units would be
            Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), heap);
            awaitQuietly(new java.util.concurrent.CountDownLatch(1)); // until the pool stops it
          }
          return new LogAccumulator();
        }, (u, acc) -> { })).isSameAs(heap);
  }

  private static void awaitQuietly(java.util.concurrent.CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A Pod at its pids limit: the system refuses threads (the JVM's OutOfMemoryError "unable to
   * create native thread"). The units are parsed with the threads that did start, or on the
   * calling thread when none did: each once, merged in order.
   */
  @Test
  void threadsTheSystemRefusesAreDoneWithout() throws LogInputException {
    for (int allowed = 0; allowed <= 2; allowed++) {
      int[] made = {0};
      int cap = allowed;
      OrderedPool<Integer> pool = new OrderedPool<>(3, () -> new OrderedPool.Worker(new LineReader(64), new PrefixCache()),
          f -> r -> {
            if (made[0]++ >= cap) {
              throw new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource limits reached");
            }
            return f.newThread(r);
          });
      List<Integer> merged = new ArrayList<>();
      java.util.Set<String> on = java.util.Collections.synchronizedSet(new java.util.HashSet<>());
      pool.run(upTo(20), (u, w) -> {
        on.add(Thread.currentThread().getName());
        return new LogAccumulator();
      }, (u, acc) -> merged.add(u));
      assertThat(merged).as("%d threads allowed", allowed).containsExactlyElementsOf(IntStream.range(0, 20).boxed().toList());
      if (allowed == 0) {
        assertThat(on).as("parsed on").containsExactly(Thread.currentThread().getName());
      } else {
        assertThat(on).as("parsed on").hasSizeLessThanOrEqualTo(allowed).allMatch(n -> n.startsWith("parse-"));
      }
    }
  }
}
