package dev.nccltriage.source.log;

/** An input that cannot be read at all (missing, a directory, unreadable, corrupt gzip). */
public final class LogInputException extends Exception {
  private static final long serialVersionUID = 1L;

  public LogInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
