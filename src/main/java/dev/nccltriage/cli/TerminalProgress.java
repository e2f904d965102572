package dev.nccltriage.cli;

import dev.nccltriage.source.log.Progress;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shows how much of a large log has been read, on stderr, only when stderr is a terminal: a line
 * rewritten in place at most four times a second, erased when reading ends. With a known total
 * (plain files) it shows MiB of MiB and a percentage, never past 100 (a log still being written
 * grows while it is read); without one (stdin, a pipe, gzip) MiB read and lines per second, once
 * reading has taken a second. Data on stdout is never touched.
 */
final class TerminalProgress implements Progress {
  private static final long SHOW_FROM = 64L << 20;
  private static final long SHOW_AFTER_MS = 1000;
  private final PrintStream err;
  private final Clock clock;
  private final AtomicLong read = new AtomicLong();
  private final AtomicLong lines = new AtomicLong();
  private volatile long total;
  private long started = -1;
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
    advance(bytes, 0);
  }

  @Override
  public void advance(long bytes, long newLines) {
    long now = read.addAndGet(bytes);
    long lineCount = lines.addAndGet(newLines);
    long size = total;
    if (size >= 0 && size < SHOW_FROM) {
      return;
    }
    long t = clock.millis();
    synchronized (this) {
      if (started < 0) {
        started = t;
      }
      if (t - lastShown < 250 || size < 0 && t - started < SHOW_AFTER_MS) {
        return;
      }
      lastShown = t;
      shown = true;
      if (size >= 0) {
        long shownBytes = Math.min(now, size);
        int pct = (int) Math.min(100, shownBytes * 100 / size);
        err.printf(Locale.ROOT, "\rreading log: %,d of %,d MiB (%d%%)\u001b[K", shownBytes >> 20, size >> 20, pct);
      } else {
        double seconds = Math.max(0.001, (t - started) / 1000.0);
        err.printf(Locale.ROOT, "\rreading log: %,d MiB, %,d lines (%,d lines/s)\u001b[K", now >> 20, lineCount,
            Math.round(lineCount / seconds));
      }
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
