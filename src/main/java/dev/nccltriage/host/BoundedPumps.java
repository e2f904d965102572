package dev.nccltriage.host;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.exec.PumpStreamHandler;

/**
 * commons-exec's stream handler for one command: stdin closed (no input stream given), stdout and
 * stderr kept up to a cap, and a bounded {@link #stop}. A grandchild that inherited stdout keeps
 * the pipe open after the command ended, and the stock stop waits for the pumps without end, or
 * with {@code setStopTimeout(t)} for t plus 2 s per pump and then reports a failure that hides
 * the exit code. Here the pumps get {@code grace}; if one still reads, {@code onHeld} kills what
 * the command left and they get {@code grace} once more, after which they are abandoned (daemon
 * threads on a pipe of a killed tree).
 */
final class BoundedPumps extends PumpStreamHandler {
  private final Duration grace;
  private final Runnable onHeld;
  private final Capped out;
  private final Capped err;
  private final List<Thread> pumps = new ArrayList<>();

  BoundedPumps(int maxOutput, Duration grace, Runnable onHeld) {
    this(new Capped(maxOutput), new Capped(maxOutput), grace, onHeld);
  }

  private BoundedPumps(Capped out, Capped err, Duration grace, Runnable onHeld) {
    super(out, err);
    this.out = out;
    this.err = err;
    this.grace = grace;
    this.onHeld = onHeld;
  }

  @Override
  protected synchronized Thread createPump(InputStream is, OutputStream os, boolean closeWhenExhausted) {
    Thread t = super.createPump(is, os, closeWhenExhausted);
    pumps.add(t);
    return t;
  }

  /** Never throws: a held pipe is not the command's failure, its exit code stands. */
  @Override
  public void stop() {
    if (!joinAll()) {
      onHeld.run();
      joinAll();
    }
  }

  private boolean joinAll() {
    List<Thread> all;
    synchronized (this) {
      all = List.copyOf(pumps);
    }
    long end = System.nanoTime() + grace.toNanos();
    for (Thread t : all) {
      long left = end - System.nanoTime();
      try {
        t.join(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return all.stream().noneMatch(Thread::isAlive);
  }

  String out() {
    return out.text();
  }

  String err() {
    return err.text();
  }

  boolean truncated() {
    return out.truncated() || err.truncated();
  }

  /** Keeps the first {@code max} bytes and drops the rest, so a chatty tool cannot fill memory. */
  private static final class Capped extends OutputStream {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final int max;
    private boolean truncated;

    Capped(int max) {
      this.max = max;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      int room = Math.max(0, max - buf.size());
      buf.write(b, off, Math.min(room, len));
      truncated |= len > room;
    }

    synchronized boolean truncated() {
      return truncated;
    }

    synchronized String text() {
      return buf.toString(StandardCharsets.UTF_8);
    }
  }
}
