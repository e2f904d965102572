package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;

/**
 * What a framework's or a launcher's failure line says, by the texts PyTorch prints
 * (torch/csrc/distributed/c10d: socket.cpp, TCPStore.cpp, ProcessGroupNCCL.cpp; its CUDA caching
 * allocator; torchrun's agent) and Open MPI's mpirun: a failure of its rendezvous (the c10d TCPStore
 * at MASTER_ADDR:MASTER_PORT that every rank joins before NCCL starts), a collective that its
 * watchdog timed out, a rank out of GPU memory, a rank killed by SIGKILL, /dev/shm too small.
 * {@link #kind} is asked only of a line that {@link CrashMarkers} found to be a failure, so its cost
 * is a failing job's, not a healthy log's ({@link LauncherReports} names the kind of the reports it
 * reads itself; {@link #storeUnresolved} is a warning's test, asked of c10 log lines only).
 */
final class FrameworkFailures {
  /** "The client socket has timed out after ...ms while trying to connect to (host, port)." and "... failed to connect to (...)". */
  static final int STORE_CONNECT = 1;
  /** "Timed out after N seconds waiting for clients. k/n clients joined." (rank 0 waited for ranks that never came), torchrun's RendezvousTimeoutError. */
  static final int STORE_CLIENTS = 2;
  /** "... retrieving ncclUniqueId from [0] via c10d key-value store ..., but store->get(...) got error": the store went away. */
  static final int STORE_LOST = 3;
  /** "Watchdog caught collective operation timeout: WorkNCCL(...) ran for N milliseconds before timing out." */
  static final int COLLECTIVE_TIMEOUT = 4;
  /**
   * "CUDA out of memory. Tried to allocate ...": the CUDA caching allocator's (torch.OutOfMemoryError,
   * a RuntimeError before 1.13); XLA's "RESOURCE_EXHAUSTED: Out of memory while trying to allocate".
   */
  static final int GPU_OUT_OF_MEMORY = 5;
  /**
   * A rank died of SIGKILL, as its launcher reports it: torchrun's agent "failed (exitcode: -9)",
   * mpirun's "exited on signal 9 (Killed)", bash's "line N: PID Killed", a CalledProcessError's "died
   * with <Signals.SIGKILL: 9>", DeepSpeed's "exits with return code = -9" (137 for each where the rank
   * is a shell whose child SIGKILL ended: "returned non-zero exit status 137"), srun's, slurmstepd's and
   * Hydra's ({@link LauncherReports}), the kernel's OOM killer's "Killed process %d (%s)" in a pasted
   * dmesg (the kernel's OOM killer, a container's memory limit, an eviction: nothing the rank could
   * print).
   */
  static final int RANK_KILLED = 6;
  /**
   * /dev/shm ran out under PyTorch's shared tensors (its data-loader workers' batches): "unable to
   * allocate shared memory(shm) for file", "... are out of shared memory", "insufficient shared memory (shm)".
   */
  static final int SHM_EXHAUSTED = 7;
  /**
   * Not a failure by itself, and no line {@link #kind} answers: c10d's warning that the store's host
   * name did not resolve, "The %s network addresses of (%s, %d) cannot be retrieved (gai error: %d -
   * %s)." (socket.cpp), which it prints on each try ({@link #storeUnresolved}). In Kubernetes the
   * name of rank 0's Service often resolves only once its Pod is Ready: a job that connects later
   * printed it too.
   */
  static final int STORE_UNRESOLVED = 8;
  /**
   * Not a failure by itself either: the line of a Python exception that ends a traceback with no
   * "[rankN]: " tag ({@link Tracebacks}), which an uncaught exception and a printed one share.
   */
  static final int PYTHON_EXCEPTION = 9;
  /**
   * The process found no GPU: PyTorch's "No CUDA GPUs are available", CUDA's "no CUDA-capable device
   * is detected" (cudaErrorNoDevice) in a framework's error.
   */
  static final int NO_GPU = 10;
  /**
   * The node's driver is older than the image's CUDA: CUDA's "CUDA driver version is insufficient
   * for CUDA runtime version" (cudaErrorInsufficientDriver), PyTorch's "The NVIDIA driver on your
   * system is too old" in a framework's error.
   */
  static final int DRIVER_TOO_OLD = 11;
  /** The evidence key of each kind, at kind - 1 (LogFactSet reads them by these names). */
  static final String[] EVIDENCE_KEYS = {"rendezvousConnect", "rendezvousClients", "rendezvousLost", "collectiveTimeouts",
      "gpuOutOfMemory", "rankKilled", "shmExhausted", "rendezvousUnresolved", "pythonException", "noGpu", "driverTooOld"};

  private static final byte[] CONNECT_TO = ascii("connect to (");
  private static final byte[] WAITING_FOR_CLIENTS = ascii("waiting for clients");
  private static final byte[] KEY_VALUE_STORE = ascii("via c10d key-value store");
  private static final byte[] WATCHDOG = ascii("Watchdog caught collective operation timeout");
  // PyTorch before 2.1, RuntimeError's texts: the store's barrier found fewer workers than the
  // world size; a rank's connect to the store timed out
  private static final byte[] STORE_BARRIER = ascii("store based barrier");
  private static final byte[] CONNECT_TIMED_OUT = ascii("connect() timed out");
  // socket.cpp: "The client socket has failed to connect to any network address of (%s, %d)."; torchrun's
  // c10d rendezvous: "The connection to the C10d store has failed." (RendezvousConnectionError), and
  // RendezvousTimeoutError, raised with no message when the nodes it waited for did not join
  private static final byte[] CONNECT_ANY = ascii("connect to any network address of (");
  private static final byte[] C10D_STORE_FAILED = ascii("connection to the C10d store has failed");
  private static final byte[] RENDEZVOUS_TIMEOUT = ascii("RendezvousTimeoutError");
  private static final byte[] CUDA_OOM = ascii("CUDA out of memory");
  // a CUDA call's own failure to allocate, through PyTorch's C10_CUDA_CHECK: "CUDA error: %s"
  private static final byte[] CUDA_ERROR_OOM = ascii("CUDA error: out of memory");
  // XLA's (JAX's) allocator: "RESOURCE_EXHAUSTED: Out of memory while trying to allocate N bytes."
  private static final byte[] XLA_OOM = ascii("RESOURCE_EXHAUSTED: Out of memory");
  private static final byte[] SIGNAL_KILL = ascii("exited on signal 9");
  // subprocess.CalledProcessError's text for a child a signal ended ("Command '%s' died with %r.");
  private static final byte[] DIED_OF_SIGKILL = ascii("died with <Signals.SIGKILL: 9>");
  // where launchers put a rank's exit code: torchrun's agent "failed (exitcode: %s)", DeepSpeed's
  // "%s exits with return code = %d", CalledProcessError's "Command '%s' returned non-zero exit status
  // %d."; SIGKILL's is -9, or 137 (128 + 9) where the rank is a shell whose child it ended
  private static final byte[][] EXIT_CODE_BEFORE = {ascii("(exitcode: "), ascii("exits with return code = "),
      ascii("returned non-zero exit status ")};
  private static final byte[][] SIGKILL_CODES = {ascii("-9"), ascii("137")};
  private static final byte[][] SHM_TEXTS = {ascii("allocate shared memory(shm)"), ascii("out of shared memory"),
      ascii("insufficient shared memory")};

  private static final byte[][] NO_GPU_TEXTS = {ascii("No CUDA GPUs are available"), ascii("no CUDA-capable device is detected")};
  private static final byte[][] DRIVER_TEXTS = {ascii("CUDA driver version is insufficient for CUDA runtime version"),
      ascii("NVIDIA driver on your system is too old")};

  private FrameworkFailures() {}

  // every phrase kind() looks for, found in one pass (PhraseSet); bit k of its answer is PHRASES' k
  private static final byte[] KILLED = ascii("Killed"); // CrashMarkers.hasKillReport's, which it then reads
  private static final PhraseSet PHRASES = new PhraseSet(CUDA_OOM, XLA_OOM, CUDA_ERROR_OOM, // 0-2
      EXIT_CODE_BEFORE[0], EXIT_CODE_BEFORE[1], EXIT_CODE_BEFORE[2], SIGNAL_KILL, KILLED, // 3-7
      DIED_OF_SIGKILL, SHM_TEXTS[0], SHM_TEXTS[1], SHM_TEXTS[2], NO_GPU_TEXTS[0], NO_GPU_TEXTS[1], // 8-13
      DRIVER_TEXTS[0], DRIVER_TEXTS[1], // 14-15
      WATCHDOG, WAITING_FOR_CLIENTS, STORE_BARRIER, RENDEZVOUS_TIMEOUT, KEY_VALUE_STORE, // 16-20
      CONNECT_TO, CONNECT_TIMED_OUT, CONNECT_ANY, C10D_STORE_FAILED); // 21-24
  private static final long P_OOM = 0b111;
  private static final long P_EXIT_CODE = 0b111 << 3;
  private static final long P_SIGNAL_KILL = 1 << 6;
  private static final long P_KILLED = 1 << 7;
  private static final long P_DIED = 1 << 8;
  private static final long P_SHM = 0b111 << 9;
  private static final long P_NO_GPU = 0b11 << 12;
  private static final long P_DRIVER = 0b11 << 14;
  private static final long P_WATCHDOG = 1 << 16;
  private static final long P_CLIENTS = 0b111 << 17;
  private static final long P_STORE_LOST = 1 << 20;
  private static final long P_CONNECT = 0b1111 << 21;

  /** The kind of failure the line b[s, e) reports, or 0. */
  static int kind(byte[] b, int s, int e) {
    long p = PHRASES.present(b, s, e);
    if (p == 0) {
      return 0;
    }
    if ((p & P_OOM) != 0) {
      return GPU_OUT_OF_MEMORY;
    }
    if ((p & P_EXIT_CODE) != 0 && sigkillCode(b, s, e) || (p & P_SIGNAL_KILL) != 0 && wholeNumberAfter(b, s, e, SIGNAL_KILL)
        || (p & P_KILLED) != 0 && CrashMarkers.hasKillReport(b, s, e) || (p & P_DIED) != 0) {
      return RANK_KILLED;
    }
    return (p & P_SHM) != 0 ? SHM_EXHAUSTED
        : (p & P_NO_GPU) != 0 ? NO_GPU
        : (p & P_DRIVER) != 0 ? DRIVER_TOO_OLD
        : (p & P_WATCHDOG) != 0 ? COLLECTIVE_TIMEOUT
        : (p & P_CLIENTS) != 0 ? STORE_CLIENTS
        : (p & P_STORE_LOST) != 0 ? STORE_LOST
        : (p & P_CONNECT) != 0 ? STORE_CONNECT : 0;
  }

  private static final byte[] GAI_ERROR = ascii("cannot be retrieved (gai error: ");
  private static final byte[] RANK_TAG = ascii("[rank");

  /**
   * Whether the c10/glog line whose level letter is at w ({@link #logLevelAt}) is c10d's warning of
   * an unresolved store host name ({@link #STORE_UNRESOLVED}): a "[W..." line that holds the text.
   */
  static boolean storeUnresolved(byte[] b, int w, int e) {
    return b[w] == 'W' && Bytes.indexOf(b, w, e, GAI_ERROR) >= 0;
  }

  private static final byte[] PROCESS_GROUP_NCCL = ascii("ProcessGroupNCCL.cpp:");

  /**
   * Whether the c10/glog line whose level letter is at w ({@link #logLevelAt}) is an error that
   * PyTorch's NCCL process group logged: level E, from ProcessGroupNCCL.cpp, "[E1204
   * 17:46:59.007000 481 ProcessGroupNCCL.cpp:1316] ..." (before 2.4 "[E ProcessGroupNCCL.cpp:475]
   * ..."). It logs at that level only on its failure path: a collective's error or timeout found by
   * its watchdog, the heartbeat monitor's timeout ("Process will be terminated"), the communicators'
   * abort, the process taken down.
   */
  static boolean processGroupError(byte[] b, int w, int e) {
    if (b[w] != 'E' || w + 1 >= e || b[w + 1] != ' ' && !Bytes.isDigit(b[w + 1])) {
      return false;
    }
    int close = Bytes.indexOfByte(b, w, Math.min(e, w + 96), (byte) ']');
    return close > w && Bytes.indexOf(b, w, close, PROCESS_GROUP_NCCL) >= 0;
  }

  /**
   * Whether the level letter at w (-1: none) is a FATAL one of glog's (and absl's, c10's) format,
   * "F" MMDD " " hh:mm:ss.uuuuuu " " thread " " file ":" line "] " message, or TensorFlow's after its
   * timestamp, "F " file ":" line "] ": the logger aborts the process after such a line.
   */
  static boolean fatalLine(byte[] b, int w, int e) {
    if (w < 0 || w + 2 >= e || b[w] != 'F') {
      return false;
    }
    int i = w + 1;
    if (Bytes.isDigit(b[i])) {
      int date = i;
      while (i < e && i - date < 4 && Bytes.isDigit(b[i])) {
        i++;
      }
      if (i - date != 4 || i >= e || b[i] != ' ') {
        return false;
      }
    } else if (b[i] != ' ') {
      return false;
    }
    int close = Bytes.indexOfByte(b, i, Math.min(e, i + 160), (byte) ']');
    int j = close - 1;
    if (close < 0 || j <= i || !Bytes.isDigit(b[j])) {
      return false;
    }
    while (j > i && Bytes.isDigit(b[j])) {
      j--;
    }
    // file:line, then "] " and the message (or the line's end)
    return b[j] == ':' && (close + 1 == e || b[close + 1] == ' ');
  }

  /**
   * Where the level letter of a c10/glog line "[&lt;level&gt;..." is, its text starting at t (after
   * PyTorch's "[rankN]:", if any); -1 if the text is no such line. Asked once a line, for both tests
   * above; other lines pay a compare of their first byte.
   */
  static int logLevelAt(byte[] b, int t, int e) {
    if (t + 1 >= e || b[t] != '[') {
      return -1;
    }
    int w = t;
    if (Bytes.startsWith(b, t, e, RANK_TAG)) {
      w = Bytes.indexOfByte(b, t, Math.min(e, t + 16), (byte) ']');
      w = w >= 0 && w + 2 < e && b[w + 1] == ':' ? w + 2 : e;
    }
    return w + 1 < e && b[w] == '[' ? w + 1 : -1;
  }

  /** Whether a launcher's exit code in [s, e) ({@link #EXIT_CODE_BEFORE}) is SIGKILL's, whole ("-9", not "-90"). */
  private static boolean sigkillCode(byte[] b, int s, int e) {
    for (byte[] before : EXIT_CODE_BEFORE) {
      int at = Bytes.indexOf(b, s, e, before);
      if (at >= 0) {
        int i = at + before.length;
        for (byte[] code : SIGKILL_CODES) {
          int end = i + code.length;
          if (Bytes.startsWith(b, i, e, code) && (end == e || !Bytes.isDigit(b[end]))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether {@code text} (ending in a number) is in [s, e) with no digit after it: "signal 9", not 90. */
  private static boolean wholeNumberAfter(byte[] b, int s, int e, byte[] text) {
    int at = Bytes.indexOf(b, s, e, text);
    int after = at + text.length;
    return at >= 0 && (after == e || !Bytes.isDigit(b[after]));
  }

}
