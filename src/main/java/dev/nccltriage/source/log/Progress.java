package dev.nccltriage.source.log;

/**
 * Hears how far reading has got, so a command can show progress on a terminal. Sources only
 * report; whether and how anything is shown is the command's business.
 */
public interface Progress {
  Progress NONE = new Progress() {};

  /** Bytes about to be read from plain files (0 when unknown, e.g. stdin or gzip). */
  default void expect(long bytes) {}

  /** Bytes read since the last call; may be called from several threads. */
  default void advance(long bytes) {}

  default void done() {}
}
