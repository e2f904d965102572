package dev.nccltriage.rules;

/** A rule file that is wrong. The loader adds the file name; the message names the line. */
public final class RuleException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int line;

  public RuleException(int line, String message) {
    super(message);
    this.line = line;
  }

  public int line() {
    return line;
  }
}
