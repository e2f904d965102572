package dev.nccltriage.rules;

/** A rule file that cannot be used; the message is one line naming the file and line. */
public final class RuleFileException extends Exception {
  private static final long serialVersionUID = 1L;

  public RuleFileException(String message) {
    super(message);
  }
}
