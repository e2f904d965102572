package dev.nccltriage.source.log;

/**
 * Hears how far reading has got, so a command can show progress on a terminal. Sources only
 * report; whether and how anything is shown is the command's business.
 */
public interface Progress {
  Progress NONE = new Progress() {};

  /**
   * Bytes about to be read, or {@link #UNKNOWN} when an input's size is not known ahead (stdin, a
   * pipe, a gzip file: its bytes read are the uncompressed ones).
   */
  default void expect(long bytes) {}

  long UNKNOWN = -1;

  /** Bytes read since the last call; may be called from several threads. */
  default void advance(long bytes) {}

  /** Bytes and lines read since the last call; may be called from several threads. */
  default void advance(long bytes, long lines) {
    advance(bytes);
  }

  default void done() {}
}
