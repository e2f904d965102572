package dev.nccltriage.source.k8s;

/** A manifest that cannot be read or parsed: one line naming file:line. */
public final class ManifestException extends Exception {
  private static final long serialVersionUID = 1L;

  public ManifestException(String message) {
    super(message);
  }
}
