package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A preloaded value is waited for by its thread's end, and what its task threw comes back as
 * itself: an exhausted heap on the preload thread used to be wrapped (an internal error, exit 4)
 * or, when wrapping it needed memory too, never reported, leaving a caller of join() to wait.
 */
class BackgroundTest {
  @Test
  void valueIsMadeOnceOnItsOwnThread() {
    AtomicInteger runs = new AtomicInteger();
    String[] thread = new String[1];
    Background<String> b = Background.start("test", () -> {
      runs.incrementAndGet();
      thread[0] = Thread.currentThread().getName();
      return "made";
    });
    assertThat(b.get()).isEqualTo("made");
    assertThat(b.get()).isEqualTo("made");
    assertThat(runs).hasValue(1);
    assertThat(thread[0]).startsWith("test-").isNotEqualTo(Thread.currentThread().getName());
  }

  @Test
  void anExhaustedHeapComesBackAsItself() {
    OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
    Background<String> b = Background.start("test", () -> {
      throw oom;
    });
    assertThatThrownBy(b::get).isSameAs(oom);
  }

  @Test
  void aRuntimeExceptionComesBackAsItself() {
    NcclTriage.UsageError bad = new NcclTriage.UsageError("rules/x.yaml: bad");
    Background<String> b = Background.start("test", () -> {
      throw bad;
    });
    assertThatThrownBy(b::get).isSameAs(bad);
  }

  @Test
  void aThreadThatCannotStartLeavesTheTaskToTheCaller() {
    ThreadFactory noNativeThreads = r -> new Thread(r) {
      @Override
      public synchronized void start() {
        throw new OutOfMemoryError("unable to create native thread");
      }
    };
    AtomicInteger runs = new AtomicInteger();
    Background<String> b = Background.start(() -> {
      runs.incrementAndGet();
      return Thread.currentThread().getName();
    }, noNativeThreads);
    assertThat(b.get()).isEqualTo(Thread.currentThread().getName());
    assertThat(b.get()).isEqualTo(Thread.currentThread().getName());
    assertThat(runs).hasValue(1);
  }

  @Test
  void aThreadThatEndsWithoutAnOutcomeLeavesTheTaskToTheCaller() {
    ThreadFactory dropsTheTask = r -> new Thread(() -> {});
    Background<String> b = Background.start(() -> "made here", dropsTheTask);
    assertThat(b.get()).isEqualTo("made here");
  }
}
