package dev.nccltriage.cli;

import dev.nccltriage.source.log.Progress;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shows how much of a large log has been read, on stderr, only when stderr is a terminal: a line
 * rewritten in place at most four times a second, erased when reading ends. Data on stdout is
 * never touched.
 */
final class TerminalProgress implements Progress {
  private static final long SHOW_FROM = 64L << 20;
  private final PrintStream err;
  private final Clock clock;
  private final AtomicLong read = new AtomicLong();
  private volatile long total;
  private long lastShown;
  private boolean shown;

  private TerminalProgress(PrintStream err, Clock clock) {
    this.err = err;
    this.clock = clock;
  }

  static Progress forContext(Context ctx) {
    return ctx.stderrIsTerminal() ? new TerminalProgress(ctx.err(), ctx.clock()) : Progress.NONE;
  }

  @Override
  public void expect(long bytes) {
    total = bytes;
  }

  @Override
  public void advance(long bytes) {
    long now = read.addAndGet(bytes);
    if (total < SHOW_FROM) {
      return;
    }
    long t = clock.millis();
    synchronized (this) {
      if (t - lastShown < 250) {
        return;
      }
      lastShown = t;
      shown = true;
      int pct = (int) Math.min(99, now * 100 / total);
      err.printf(Locale.ROOT, "\rreading log: %,d of %,d MiB (%d%%)", now >> 20, total >> 20, pct);
      err.flush();
    }
  }

  @Override
  public synchronized void done() {
    if (shown) {
      err.print("\r\u001b[K");
      err.flush();
    }
  }
}
