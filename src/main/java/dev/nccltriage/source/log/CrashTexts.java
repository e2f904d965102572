package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;

/**
 * What {@link CrashMarkers} looks for after an exception's name, in the rest of its line: the texts
 * that make a RuntimeError NCCL's or c10d's, and NCCL's own error strings. One per parser, kept for
 * the line being read ({@link TextsAhead}): a line of many exception names searches its bytes once.
 */
final class CrashTexts {
  // Before PyTorch 2.1 its distributed errors were RuntimeErrors, and JAX's are XlaRuntimeErrors:
  // one of these in its message makes it a failure (see CrashMarkers' RUNTIME)
  private static final byte[][] RUNTIME_TEXTS = {ascii("NCCL"), ascii("nccl"), ascii("store based barrier"),
      ascii("connect() timed out"), ascii("Socket Timeout"), ascii("waiting for clients"), ascii("connect to ("),
      ascii("CUDA out of memory"), ascii("RESOURCE_EXHAUSTED: Out of memory"), ascii("CUDA error: "),
      ascii("No CUDA GPUs are available"), ascii("NVIDIA driver on your system is too old")};
  // ncclGetErrorString's texts (src/init.cc), which a framework's exception quotes for a failed NCCL
  // call whatever its class (TensorFlow's errors_impl.InternalError, a library's own): "unhandled system
  // error (run with NCCL_DEBUG=INFO for details)", ..., "invalid usage (run with NCCL_DEBUG=WARN ...)"
  private static final byte[][] NCCL_ERROR_TEXTS = {ascii("unhandled system error"), ascii("unhandled cuda error"),
      ascii("remote process exited or there was a network error"),
      ascii("internal error - please report this issue to the NCCL developers"), ascii("(run with NCCL_DEBUG=")};

  private final TextsAhead runtime = new TextsAhead(RUNTIME_TEXTS);
  private final TextsAhead ncclErrors = new TextsAhead(NCCL_ERROR_TEXTS);

  /** Drops what was found: the next question is about another line (see {@link TextsAhead}). */
  void forget() {
    runtime.forget();
    ncclErrors.forget();
  }

  /** Whether [at, e) of the line holds one of c10d's or CUDA's texts that make a RuntimeError a failure. */
  boolean runtimeTextFrom(byte[] b, int at, int e) {
    return runtime.anyFrom(b, at, e);
  }

  /** Whether [at, e) of the line holds one of NCCL's error strings. */
  boolean ncclErrorTextFrom(byte[] b, int at, int e) {
    return ncclErrors.anyFrom(b, at, e);
  }
}
