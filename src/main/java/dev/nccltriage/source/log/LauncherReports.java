package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.indexOf;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * A launcher's own line that reports a rank's (or the job's) abnormal end, read where the launcher
 * writes it: at the start of a line (after the wrappers a collector adds). These are the launchers'
 * format strings, not words that may appear anywhere:
 *
 * <ul>
 *   <li>Slurm's srun ({@code src/srun/libsrun/launch.c}, {@code _task_finish}), through its
 *       {@code error()} prefix: {@code srun: error: %s: %s %s: %s%s} (hosts, "task" or "tasks", the
 *       task ids, then {@code strsignal()} of the signal and " (core dumped)", or "Out Of Memory"),
 *       and {@code srun: error: %s: %s %s: Exited with exit code %d}. srun prints the task form
 *       only for a task that ended abnormally (a normal end is a verbose "Completed"); and
 *       {@code srun: error: Node failure on %s}.
 *   <li>Slurm's slurmstepd: {@code slurmstepd: error: *** JOB %u ON %s CANCELLED AT %s ***} (and
 *       {@code *** STEP %s ON ...}, "DUE TO TIME LIMIT" or "DUE TO PREEMPTION" after it), and its
 *       cgroup's {@code Detected %u oom_kill event(s) in ...} (older: {@code oom-kill event(s)}).
 *   <li>MPICH's and Intel MPI's Hydra, in the box it draws when a rank dies: {@code =   BAD
 *       TERMINATION OF ONE OF YOUR APPLICATION PROCESSES}, {@code =   KILLED BY SIGNAL: %d (%s)},
 *       and after the box {@code YOUR APPLICATION TERMINATED WITH THE EXIT STRING: %s (signal %d)}.
 *   <li>Open MPI's errmgr when a rank exited non-zero ({@code help-errmgr-base.txt},
 *       normal-termination-but): {@code %s job %s terminated normally, but %d %s returned} ("Primary
 *       job  terminated normally, but 1 process returned").
 *   <li>libstdc++'s verbose terminate handler ({@code vterminate.cc}), which then aborts the process:
 *       {@code terminate called after throwing an instance of '%s'}, {@code terminate called without
 *       an active exception}, {@code terminate called recursively} (PyTorch's watchdog thread ends so
 *       when it throws).
 *   <li>kubectl exec (client-go's remotecommand) when the command in the container exited non-zero:
 *       {@code command terminated with exit code %d} (137 = 128 + SIGKILL: the kernel's or the
 *       container's OOM killer, an eviction).
 *   <li>MPICH's MPI_Abort ({@code src/mpi/init/abort.c}): {@code application called MPI_Abort(%s, %d) -
 *       process %d}, alone on a line after the PMI client's "aborting job:", or after Intel MPI's
 *       {@code Abort(%d) on node %d (rank %d in comm %d): }.
 *   <li>Open MPI's errmgr when a daemon dropped out ({@code help-errmgr-base.txt}, lost-connection):
 *       {@code ORTE has lost communication with a remote daemon.} ("PRRTE" from Open MPI 5); it
 *       ends the job.
 *   <li>PyTorch's data-loader workers' signal handlers ({@code torch/csrc/DataLoader.cpp}), before the
 *       worker dies of the signal: {@code ERROR: Unexpected bus error encountered in worker. This
 *       might be caused by insufficient shared memory (shm).} (/dev/shm full), "Unexpected
 *       segmentation fault", "Unexpected floating-point exception".
 *   <li>Hydra ({@code hydra/core/utils.py}, {@code JobReturn.return_value}) when the task function
 *       raised, before it re-raises: {@code Error executing job with overrides: %s}.
 *   <li>dash ({@code sh -c} in most images) when a command it waited for was ended by a signal: {@code
 *       strsignal()} alone, "Killed", "Aborted", "Terminated", "Bus error", "Floating point
 *       exception", "Illegal instruction" (a container dumps no core, so no " (core dumped)"
 *       follows). (bash's report, "NAME: line N: PID Killed  COMMAND", and "Segmentation fault"
 *       are found anywhere in a line by {@link CrashMarkers}.)
 * </ul>
 *
 * Asked only of lines that nothing else took, and decided by their first byte for every other
 * line, so a healthy log pays one compare a line of other programs' output.
 */
final class LauncherReports {
  /** {@link #kind}: the line is no launcher's report of an abnormal end. */
  static final int NONE = -1;
  /** {@link #kind}: a report of an abnormal end of no kind that {@link FrameworkFailures} names. */
  static final int FAILED = 0;

  private static final byte[] SRUN_ERROR = ascii("srun: error: ");
  private static final byte[] STEPD_ERROR = ascii("slurmstepd: error: ");
  private static final byte[] TASK = ascii(": task");
  private static final byte[] NODE_FAILURE = ascii("Node failure on ");
  private static final byte[] KILLED = ascii("Killed");
  private static final byte[] OUT_OF_MEMORY = ascii("Out Of Memory");
  private static final byte[] STARS = ascii("*** ");
  private static final byte[] CANCELLED_AT = ascii(" CANCELLED AT ");
  private static final byte[] DETECTED = ascii("Detected ");
  private static final byte[] OOM_KILL = ascii(" oom_kill event");
  private static final byte[] OOM_KILL_OLD = ascii(" oom-kill event");
  private static final byte[] BAD_TERMINATION = ascii("BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES");
  private static final byte[] KILLED_BY_SIGNAL = ascii("KILLED BY SIGNAL: ");
  private static final byte[] EXIT_STRING = ascii("YOUR APPLICATION TERMINATED WITH THE EXIT STRING: ");
  private static final byte[] SIGNAL = ascii("(signal ");
  private static final byte[] PRIMARY_JOB = ascii("Primary job ");
  private static final byte[] TERMINATED_NORMALLY_BUT = ascii(" terminated normally, but ");
  private static final byte[] TERMINATE_CALLED = ascii("terminate called ");
  private static final byte[][] TERMINATE_REASONS = {ascii("after throwing an instance of '"),
      ascii("without an active exception"), ascii("recursively")};
  private static final byte[] COMMAND_TERMINATED = ascii("command terminated with exit code ");
  private static final byte[] ABORTED = ascii("Aborted");
  private static final byte[] MPI_ABORT = ascii("application called MPI_Abort(");
  private static final byte[] INTEL_ABORT = ascii("Abort(");
  private static final byte[] LOST_DAEMON = ascii("RTE has lost communication with a remote daemon");
  private static final byte[] UNEXPECTED = ascii("ERROR: Unexpected ");
  private static final byte[] IN_WORKER = ascii(" encountered in worker.");
  private static final byte[] BUS_ERROR = ascii("bus error");
  private static final byte[][] WORKER_SIGNALS = {BUS_ERROR, ascii("segmentation fault"), ascii("floating-point exception")};
  private static final byte[] HYDRA_JOB = ascii("Error executing job with overrides: ");
  private static final byte[] TERMINATED = ascii("Terminated");
  // strsignal() of the other signals that end a process with a crash (SIGSEGV's "Segmentation
  // fault" is a crash marker anywhere in a line, CrashMarkers): in a container core dumps are off,
  // so dash reports the name alone, without " (core dumped)"
  private static final byte[] BUS_ERROR_SIGNAL = ascii("Bus error");
  private static final byte[] FPE_SIGNAL = ascii("Floating point exception");
  private static final byte[] ILL_SIGNAL = ascii("Illegal instruction");

  private LauncherReports() {}

  /**
   * Whether a report can start with the bytes c, d (the first two of each case of {@link #kind}, and
   * of a logger's FATAL line):
   * one load for a byte after another program's blank, where most words start with one of those
   * letters. A second byte is a bit of 64 (a prefilter: kind decides).
   */
  static boolean mayStart(byte c, byte d) {
    return c > 0 && (SECOND[c] >>> d & 1) != 0;
  }

  private static final long[] SECOND = new long[128];

  // the first two bytes of each case of kind(): the one list both tables are made from
  private static final String[] PAIRS = {"sr", "sl", "= ", "YO", "Ki", "Ab", "ap", "OR", "ER", "Er", "Te", "te", "Pr",
      "PR", "co", "Bu", "Fl", "Il"};

  static {
    for (String pair : PAIRS) {
      SECOND[pair.charAt(0)] |= 1L << pair.charAt(1);
    }
    // and a logger's FATAL line ("F" MMDD, or TensorFlow's "F "): FrameworkFailures.fatalLine
    for (char c : " 0123456789".toCharArray()) {
      SECOND['F'] |= 1L << c;
    }
  }

  /**
   * What the line whose text starts at k (past its wrappers) reports: {@link #NONE}, {@link
   * #FAILED}, or a {@link FrameworkFailures} kind.
   */
  static int kind(byte[] b, int k, int e) {
    if (k >= e) {
      return NONE;
    }
    return switch (b[k]) {
      case 's' -> startsWith(b, k, e, SRUN_ERROR) ? srunError(b, k + SRUN_ERROR.length, e)
          : startsWith(b, k, e, STEPD_ERROR) ? stepd(b, k + STEPD_ERROR.length, e) : NONE;
      case '=' -> hydraBox(b, k, e);
      case 'Y' -> startsWith(b, k, e, EXIT_STRING) ? exitString(b, k + EXIT_STRING.length, e) : NONE;
      // dash's report of a foreground command a signal ended is strsignal() alone on a line
      case 'K' -> alone(b, k, e, KILLED) ? FrameworkFailures.RANK_KILLED : NONE;
      case 'A' -> alone(b, k, e, ABORTED) || intelAbort(b, k, e) ? FAILED : NONE;
      case 'a' -> startsWith(b, k, e, MPI_ABORT) ? FAILED : NONE;
      case 'O' -> startsWith(b, k + 1, e, LOST_DAEMON) ? FAILED : NONE;
      case 'E' -> startsWith(b, k, e, UNEXPECTED) ? workerSignal(b, k + UNEXPECTED.length, e)
          : startsWith(b, k, e, HYDRA_JOB) ? FAILED : NONE;
      case 'T' -> alone(b, k, e, TERMINATED) ? FAILED : NONE;
      case 'B' -> alone(b, k, e, BUS_ERROR_SIGNAL) ? FAILED : NONE;
      case 'F' -> alone(b, k, e, FPE_SIGNAL) ? FAILED : NONE;
      case 'I' -> alone(b, k, e, ILL_SIGNAL) ? FAILED : NONE;
      case 't' -> startsWith(b, k, e, TERMINATE_CALLED) ? terminateCalled(b, k + TERMINATE_CALLED.length, e) : NONE;
      case 'P' -> startsWith(b, k, e, PRIMARY_JOB) ? nonZeroRanks(b, k + PRIMARY_JOB.length, e)
          : k + 1 < e && b[k + 1] == 'R' && startsWith(b, k + 2, e, LOST_DAEMON) ? FAILED : NONE;
      case 'c' -> startsWith(b, k, e, COMMAND_TERMINATED) ? exitCode(b, k + COMMAND_TERMINATED.length, e) : NONE;
      default -> NONE;
    };
  }

  /** How far past the text's start a wrapper no table knows may reach ({@link UnknownWrappers}). */
  static final int MAX_WRAPPER = 256;
  /**
   * How many tokens a wrapper no table knows may hold, a token being what ends in a run of blanks,
   * tabs or colons: stern's Pod and container, compose's service and bar: two; grep -H's file name,
   * pdsh's host, cat -n's number: one.
   */
  static final int MAX_WRAPPER_TOKENS = 2;
  /** The shortest text with a report after a wrapper: a byte, a blank and "Killed". */
  private static final int MIN_WRAPPED = 8;

  /**
   * Where a report ({@link #kind}, or a logger's FATAL line, {@link FrameworkFailures#fatalLine})
   * starts in the text [t, e) after other bytes (a wrapper no table knows may stand before it:
   * stern's Pod and container, compose's service, grep -H's file name, pdsh's host), which {@link
   * WrappedReports} decides once the input's wrappers are known; else -1.
   * A report is looked for after each of the first {@link #MAX_WRAPPER_TOKENS} tokens within {@link
   * #MAX_WRAPPER} bytes (a wrapper is a few tokens, and the line's own words after them cost
   * nothing), then a signal's name alone at the line's end, after any bytes.
   */
  static int afterOtherBytes(byte[] b, int t, int e) {
    int end = Math.min(e, t + MAX_WRAPPER + 1);
    int q = t;
    while (q < end && (b[q] == ' ' || b[q] == '\t')) {
      q++; // cat -n's column; blank lines, indented ones (the blanks are no token)
    }
    if (e - q < MIN_WRAPPED) {
      return -1;
    }
    // q is the byte before the one looked at: a token starts after a separator (a blank, a tab, a
    // colon) that is not followed by another; a control byte (other than a tab), DEL or one above
    // ASCII ends the search, as no wrapper of a Pod, host or service holds one
    for (int n = 0; n < MAX_WRAPPER_TOKENS && q + 1 < end; ) {
      int at = q + 9 <= end ? nextBoundary(b, q) : -1;
      if (at == NO_BOUNDARY) {
        q += 8;
        continue;
      }
      if (at < 0) {
        // the last bytes, one at a time
        byte p = b[q];
        if (p <= ' ' && p != ' ' && p != '\t' || p == 0x7f) {
          break;
        }
        if (!isSeparator(p) || isSeparator(b[q + 1])) {
          q++;
          continue;
        }
        at = q;
      } else if (!isSeparator(b[at])) {
        break;
      }
      // past the tags a collector or launcher adds after it ("[1,0]<stdout>:", "[default0]:"),
      // and a time that starts with a date (stern's and compose's --timestamps: "2024-05-01T...")
      int i = at + 1;
      int r = b[i] == '[' || isoDate(b, i, end) ? Envelope.afterWrapperChain(b, i, end) : i;
      if (r + 1 < end && mayStart(b[r], b[r + 1])
          && (kind(b, r, e) != NONE || FrameworkFailures.fatalLine(b, r, e))) {
        return r;
      }
      n++;
      q = i;
    }
    return signalAtEnd(b, t, e);
  }

  private static boolean isSeparator(byte c) {
    return c == ' ' || c == ':' || c == '\t';
  }

  private static final long LOWS7 = 0x7F7F7F7F7F7F7F7FL;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long B_SPACE = Bytes.broadcast((byte) ' ');
  private static final long B_COLON = Bytes.broadcast((byte) ':');
  private static final long B_TAB = Bytes.broadcast((byte) '\t');
  private static final long B_DEL = Bytes.broadcast((byte) 0x7f);
  /** {@link #nextBoundary}: none in the eight bytes looked at. */
  private static final int NO_BOUNDARY = -2;

  /**
   * Of the eight bytes from q, the first that is a separator followed by a byte that is none, or
   * that ends the search (a control byte other than a tab, DEL, a byte above ASCII); else {@link
   * #NO_BOUNDARY}. Reads b[q, q + 9). A word at a time: other programs' lines before their first
   * NCCL record (a log without NCCL_DEBUG) are each searched so, and byte by byte that was a
   * seventh of such a line's time.
   */
  private static int nextBoundary(byte[] b, int q) {
    long w = Bytes.word(b, q);
    long next = Bytes.word(b, q + 1);
    long control = ~((w | HIGHS) - B_SPACE) & ~exactZeros(w ^ B_TAB); // below a blank, but a tab
    long stop = (w | control | exactZeros(w ^ B_DEL)) & HIGHS;
    long marks = stop | separators(w) & ~separators(next);
    return marks == 0 ? NO_BOUNDARY : q + Bytes.firstMarkedByte(marks);
  }

  private static long separators(long w) {
    return exactZeros(w ^ B_SPACE) | exactZeros(w ^ B_COLON) | exactZeros(w ^ B_TAB);
  }

  /** The high bit of each byte of x that is zero, and of no other (no borrow from a byte below). */
  private static long exactZeros(long x) {
    return ~(((x & LOWS7) + LOWS7) | x | LOWS7);
  }

  /**
   * Whether an ISO 8601 date starts at i ("2024-05-01"; its year's digits and dash tested only):
   * other tokens that start with a digit are many (a step, a value) and not worth a time's parse.
   */
  static boolean isoDate(byte[] b, int i, int end) {
    return i + 4 < end && b[i + 4] == '-' && Bytes.isDigit(b[i]) && Bytes.isDigit(b[i + 3]);
  }

  // the names by their last byte: a line's last byte picks the few to compare
  private static final byte[][] SIGNALS_D = {KILLED, ABORTED, TERMINATED};
  private static final byte[][] SIGNALS_R = {BUS_ERROR_SIGNAL};
  private static final byte[][] SIGNALS_N = {FPE_SIGNAL, ILL_SIGNAL};

  /**
   * Where a signal's name dash reports alone ("Killed", "Aborted", "Terminated", "Bus error", ...)
   * starts, if the text [k, e) ends in one after other bytes and a boundary; else -1.
   */
  static int signalAtEnd(byte[] b, int k, int e) {
    byte[][] names = switch (b[e - 1]) {
      case 'd' -> SIGNALS_D;
      case 'r' -> SIGNALS_R;
      case 'n' -> SIGNALS_N;
      default -> null;
    };
    if (names == null) {
      return -1;
    }
    for (byte[] word : names) {
      int w = e - word.length;
      if (w > k && startsWith(b, w, e, word) && !CrashMarkers.isNameByte(b[w - 1])) {
        return w;
      }
    }
    return -1;
  }


  /** Whether the line's text is {@code word} and nothing else. */
  private static boolean alone(byte[] b, int k, int e, byte[] word) {
    return k + word.length == e && startsWith(b, k, e, word);
  }

  /** Intel MPI's "Abort(%d) on node %d (rank %d in comm %d): " before MPICH's abort string. */
  private static boolean intelAbort(byte[] b, int k, int e) {
    return startsWith(b, k, e, INTEL_ABORT) && indexOf(b, k + INTEL_ABORT.length, e, MPI_ABORT) > k;
  }

  /** After a data-loader worker's "ERROR: Unexpected ": the signal, " encountered in worker." */
  private static int workerSignal(byte[] b, int i, int e) {
    for (byte[] signal : WORKER_SIGNALS) {
      if (startsWith(b, i, e, signal) && startsWith(b, i + signal.length, e, IN_WORKER)) {
        return signal == BUS_ERROR ? FrameworkFailures.SHM_EXHAUSTED : FAILED;
      }
    }
    return NONE;
  }

  /** After "terminate called ": one of the handler's three reasons. */
  private static int terminateCalled(byte[] b, int i, int e) {
    for (byte[] r : TERMINATE_REASONS) {
      if (startsWith(b, i, e, r)) {
        return FAILED;
      }
    }
    return NONE;
  }

  /** After kubectl's "exit code ": the code, whole, ending the line; 137 is a kill. */
  private static int exitCode(byte[] b, int i, int e) {
    int j = i;
    while (j < e && Bytes.isDigit(b[j])) {
      j++;
    }
    if (j == i || j != e || b[i] == '0') {
      return NONE;
    }
    return j - i == 3 && b[i] == '1' && b[i + 1] == '3' && b[i + 2] == '7' ? FrameworkFailures.RANK_KILLED : FAILED;
  }

  /** After "Primary job ": the job's id (empty or a number), " terminated normally, but N". */
  private static int nonZeroRanks(byte[] b, int i, int e) {
    int t = indexOf(b, i, Math.min(e, i + 24 + TERMINATED_NORMALLY_BUT.length), TERMINATED_NORMALLY_BUT);
    int n = t + TERMINATED_NORMALLY_BUT.length;
    return t >= 0 && n < e && b[n] >= '1' && b[n] <= '9' ? FAILED : NONE;
  }

  /** After "srun: error: ": a node the step ran on failed ("Node failure on %s"), or a task's end. */
  private static int srunError(byte[] b, int i, int e) {
    return startsWith(b, i, e, NODE_FAILURE) && i + NODE_FAILURE.length < e ? FAILED : srunTask(b, i, e);
  }

  /** "HOSTS: task[s] IDS: REASON" at i: the reason's kind; NONE if the line is not of that form. */
  private static int srunTask(byte[] b, int i, int e) {
    int t = indexOf(b, i, e, TASK);
    if (t <= i) {
      return NONE; // no host list before it
    }
    int j = t + TASK.length;
    if (j < e && b[j] == 's') {
      j++;
    }
    if (j >= e || b[j] != ' ') {
      return NONE;
    }
    int ids = ++j;
    while (j < e && (Bytes.isDigit(b[j]) || b[j] == '-' || b[j] == ',')) {
      j++;
    }
    if (j == ids || j + 2 >= e || b[j] != ':' || b[j + 1] != ' ') {
      return NONE;
    }
    int reason = j + 2;
    // strsignal(SIGKILL) is "Killed"; Slurm reports a task its cgroup's OOM killer ended so
    int end = reason + KILLED.length;
    boolean killed = startsWith(b, reason, e, KILLED) && (end == e || b[end] < 'a' || b[end] > 'z')
        || startsWith(b, reason, e, OUT_OF_MEMORY);
    return killed ? FrameworkFailures.RANK_KILLED : FAILED;
  }

  /** After "slurmstepd: error: ": a job or step cancelled, or the cgroup's OOM killer at work. */
  private static int stepd(byte[] b, int i, int e) {
    if (startsWith(b, i, e, STARS)) {
      return indexOf(b, i, e, CANCELLED_AT) > i ? FAILED : NONE;
    }
    if (startsWith(b, i, e, DETECTED)) {
      int j = i + DETECTED.length;
      int digits = j;
      while (j < e && Bytes.isDigit(b[j])) {
        j++;
      }
      if (j > digits && (startsWith(b, j, e, OOM_KILL) || startsWith(b, j, e, OOM_KILL_OLD))) {
        return FrameworkFailures.RANK_KILLED;
      }
    }
    return NONE;
  }

  /** A line of Hydra's box: "=", blanks, then its report of the rank that ended. */
  private static int hydraBox(byte[] b, int k, int e) {
    int i = k + 1;
    while (i < e && b[i] == ' ') {
      i++;
    }
    if (i == k + 1) {
      return NONE; // the box's rule, "=====..."
    }
    if (startsWith(b, i, e, BAD_TERMINATION)) {
      return FAILED;
    }
    if (startsWith(b, i, e, KILLED_BY_SIGNAL)) {
      return signalNine(b, i + KILLED_BY_SIGNAL.length, e) ? FrameworkFailures.RANK_KILLED : FAILED;
    }
    return NONE;
  }

  /** After Hydra's "EXIT STRING: ": "Killed (signal 9)", "Segmentation fault (signal 11)", ... */
  private static int exitString(byte[] b, int i, int e) {
    int sig = indexOf(b, i, e, SIGNAL);
    return sig >= 0 && signalNine(b, sig + SIGNAL.length, e) ? FrameworkFailures.RANK_KILLED : FAILED;
  }

  /** Whether the number at i is 9, whole (not 90). */
  private static boolean signalNine(byte[] b, int i, int e) {
    return i < e && b[i] == '9' && (i + 1 == e || !Bytes.isDigit(b[i + 1]));
  }
}
