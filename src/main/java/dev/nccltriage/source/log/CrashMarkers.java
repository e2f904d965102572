package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.startsWith;
import static dev.nccltriage.source.log.Bytes.zeroBytes;
import static dev.nccltriage.source.log.Bytes.zeroBytesUnmasked;

/**
 * The lines of other programs around NCCL that say the job crashed, a collective failed, or a
 * distributed framework raised its error.
 */
final class CrashMarkers {
  private static final byte[][] CRASH_S = {ascii("SIGSEGV"), ascii("SIGABRT"), ascii("SIGBUS"),
      ascii("Segmentation fault")};
  private static final byte[] CORE_DUMPED = ascii("core dumped");
  private static final byte[] WATCHDOG = ascii("Watchdog caught collective operation timeout");
  private static final byte[] FATAL_PYTHON = ascii("Fatal Python error");
  // Open MPI when a rank calls MPI_Abort (it then kills every rank); glog/absl after a FATAL log line
  // or a failed CHECK (XLA, TensorFlow, and other C++ around NCCL): the process aborts
  private static final byte[] MPI_ABORT = ascii("MPI_ABORT was invoked");
  private static final byte[] CHECK_FAILURE = ascii("Check failure stack trace");
  // Launchers when a rank dies, by their format strings: Open MPI's and PRRTE's mpirun ("%s noticed
  // that process rank %lu with PID %lu on node %s exited on signal %d (%s).", "%s detected that one
  // or more processes exited with non-zero status", "%s has exited due to process rank %lu with PID
  // %lu on node %s ..."), Slurm's srun ("srun: error: %s: task %s: Exited with exit code %d")
  private static final byte[][] EXITED = {ascii("exited on signal "), ascii("exited with non-zero status"),
      ascii("exited due to process rank "), ascii("Exited with exit code ")};
  // DeepSpeed's launcher when a rank fails: "%s exits with return code = %d" (a code other than 0)
  private static final byte[] EXITS_WITH = ascii("exits with return code = ");
  // torchrun's agent: "failed (exitcode: %s) local_rank: %s (pid: %s) of binary: %s"
  private static final byte[] FAILED_EXITCODE = ascii("failed (exitcode: ");
  // bash's report of a job a signal ended (strsignal(SIGKILL) is "Killed"), after "NAME: line N: "
  private static final byte[] KILLED = ascii("Killed");
  private static final byte[] TERMINATED = ascii("Terminated");
  private static final byte[] ABORTED = ascii("Aborted");
  // and strsignal()'s names of the other signals a crash raises, without " (core dumped)" where core
  // dumps are off (a container's usual limit): SIGBUS (a Pod's /dev/shm full), SIGFPE, SIGILL
  private static final byte[] BUS_ERROR = ascii("Bus error");
  private static final byte[] FPE = ascii("Floating point exception");
  private static final byte[] ILLEGAL = ascii("Illegal instruction");
  private static final byte[] LINE = ascii(": line ");
  // PyTorch's distributed excepthook (init_process_group installs it) puts "[rank<N>]: " before each
  // line of an uncaught exception's traceback; Python calls an excepthook for no other exception
  private static final byte[] RANK_TAG = ascii("[rank");
  // (there, also an exception named "...Exception", as Python's own base class is)
  private static final byte[] EXCEPTION = ascii("Exception");
  // The last line of an uncaught exception that a distributed job's framework raises when a rank
  // fails, "<module>.<Class>Error: message" or the name alone: PyTorch's distributed errors
  // (torch/distributed's DistError and its DistBackendError, DistStoreError, DistNetworkError),
  // torchrun's ChildFailedError and rendezvous errors, Horovod's HorovodInternalError, CuPy's NcclError,
  // PyTorch's GPU out of memory (torch.cuda.OutOfMemoryError from 1.13, torch.OutOfMemoryError from 2.5),
  // subprocess.CalledProcessError (what accelerate's and DeepSpeed's launchers raise when a rank fails),
  // PyTorch's AcceleratorError (2.8+: a CUDA error such as an illegal memory access), Ray Train's
  // TrainingFailedError (its run failed after its retries)
  private static final byte[][] ERROR_CLASSES = {ascii("DistBackend"), ascii("DistStore"), ascii("DistNetwork"),
      ascii("Dist"), ascii("ChildFailed"), ascii("RendezvousTimeout"), ascii("RendezvousConnection"),
      ascii("RendezvousClosed"),
      ascii("HorovodInternal"), ascii("Nccl"), ascii("OutOfMemory"), ascii("CalledProcess"), ascii("Accelerator"),
      ascii("TrainingFailed")};
  // Ray re-raises a task's exception in the caller as "ray.exceptions.RayTaskError(<Class>): ...": one of
  // those classes inside it is that failure too
  private static final byte[] RAY_TASK_ERROR = ascii("RayTaskError(");
  // torchrun's agent when it got a signal (SIGTERM from a Pod's deletion or eviction, SIGINT, SIGHUP):
  // "torch.distributed.elastic.multiprocessing.api.SignalException: Process %d got signal: %d"; it stops
  // its workers
  private static final byte[] SIGNAL = ascii("Signal");
  // (an exception raised without a message prints its name alone)
  private static final byte[] ERROR = ascii("Error");
  // Before PyTorch 2.1 its distributed errors were RuntimeErrors, and JAX's are XlaRuntimeErrors: one
  // is a failure when its text is NCCL's or c10d's (a communicator aborted, "NCCL operation ...
  // failed", the unique id not fetched, the store's barrier or connect timing out) or the GPU's memory
  // ran out (PyTorch before 1.13: "CUDA out of memory"; XLA: "RESOURCE_EXHAUSTED: Out of memory ..."),
  // or CUDA failed ("CUDA error: %s", PyTorch's C10_CUDA_CHECK before 2.8: an illegal memory access,
  // an ECC error; the context is lost with it, nothing goes on) or could not start (no GPU, a driver
  // too old: torch.cuda's lazy init), not any RuntimeError of the program's (CrashTexts holds those texts)
  private static final byte[] RUNTIME = ascii("Runtime");
  private static final byte[] XLA = ascii("Xla");
  private static final byte[][] NCCL_RESULTS = {ascii("ncclSystemError"), ascii("ncclInternalError"),
      ascii("ncclRemoteError"), ascii("ncclUnhandledCudaError"), ascii("ncclInvalidUsage"),
      ascii("ncclInvalidArgument"), ascii("ncclTimeout")};

  private CrashMarkers() {}

  private static final long B_S = Bytes.broadcast((byte) 'S');
  private static final long B_C = Bytes.broadcast((byte) 'c');
  private static final long B_W = Bytes.broadcast((byte) 'W');
  private static final long B_F = Bytes.broadcast((byte) 'F');
  private static final long B_N = Bytes.broadcast((byte) 'n');
  private static final long B_I = Bytes.broadcast((byte) 'I');
  private static final long B_E = Bytes.broadcast((byte) 'e');
  private static final long B_O = Bytes.broadcast((byte) 'o');
  private static final long B_A = Bytes.broadcast((byte) 'a');
  private static final long B_E_UPPER = Bytes.broadcast((byte) 'E');
  private static final long B_R = Bytes.broadcast((byte) 'r');
  private static final long B_M_UPPER = Bytes.broadcast((byte) 'M');
  private static final long B_P_UPPER = Bytes.broadcast((byte) 'P');
  private static final long B_H = Bytes.broadcast((byte) 'h');
  private static final long B_X = Bytes.broadcast((byte) 'x');
  private static final long B_I_LOWER = Bytes.broadcast((byte) 'i');
  private static final long B_K_UPPER = Bytes.broadcast((byte) 'K');
  private static final long B_T_UPPER = Bytes.broadcast((byte) 'T');
  private static final long B_A_UPPER = Bytes.broadcast((byte) 'A');
  private static final long B_B = Bytes.broadcast((byte) 'b');
  private static final long B_B_UPPER = Bytes.broadcast((byte) 'B');
  private static final long B_L = Bytes.broadcast((byte) 'l');
  private static final long B_U = Bytes.broadcast((byte) 'u');

  /**
   * A crash or a failed collective printed by the program around NCCL. Most lines of a job's log
   * are other programs' and pass through here, so the two bytes that start a marker ("SI", "Se",
   * "co", "Wa", "Fa", "nc", "Er", "MP", "Ch", "xi", "xc", "Ki", "Te", "Ab", "Bu", "Il") are
   * looked for eight positions at a time (the word at i and the one a byte later), and only where
   * both match is a marker compared.
   */
  static boolean isCrash(byte[] b, int s, int e) {
    return isCrash(b, s, e, new CrashTexts());
  }

  /** As {@link #isCrash(byte[], int, int)}, what it searches for after a position kept in {@code texts} for the line. */
  static boolean isCrash(byte[] b, int s, int e, CrashTexts texts) {
    int i = s;
    for (; i + 9 <= e; i += 8) {
      long w = Bytes.word(b, i);
      // noFirstByte, written out (C1 does not inline a method of its size), its two halves kept:
      // the pair terms of the capitals run only for a word with a capital, those of 'c', 'n',
      // 'x' only for a word with one of them
      long low = w & LOWS;
      long capital = (low + FROM_A) & ~(low + PAST_Z) & ~w & HIGHS;
      long zc = zeroBytes(w ^ B_C);
      long zn = zeroBytes(w ^ B_N);
      long zx = zeroBytes(w ^ B_X);
      if ((capital | zc | zn | zx) == 0) {
        continue;
      }
      long next = Bytes.word(b, i + 1);
      long c = zeroBytesUnmasked(next ^ B_C); // second byte of "nc" and "xc"
      long i2 = zeroBytesUnmasked(next ^ B_I_LOWER); // second byte of "xi" and "Ki"
      long marks = zc & zeroBytesUnmasked(next ^ B_O) | zn & c | zx & (i2 | c);
      if (capital != 0) {
        marks |= zeroBytes(w ^ B_S) & (zeroBytesUnmasked(next ^ B_I) | zeroBytesUnmasked(next ^ B_E))
            | (zeroBytes(w ^ B_W) | zeroBytes(w ^ B_F)) & zeroBytesUnmasked(next ^ B_A)

            | zeroBytes(w ^ B_E_UPPER) & zeroBytesUnmasked(next ^ B_R)
            | zeroBytes(w ^ B_M_UPPER) & zeroBytesUnmasked(next ^ B_P_UPPER)
            | zeroBytes(w ^ B_C_UPPER) & zeroBytesUnmasked(next ^ B_H)
            | zeroBytes(w ^ B_K_UPPER) & i2
            | zeroBytes(w ^ B_T_UPPER) & zeroBytesUnmasked(next ^ B_E)
            | zeroBytes(w ^ B_A_UPPER) & zeroBytesUnmasked(next ^ B_B);
        long bus = zeroBytes(w ^ B_B_UPPER);
        long ill = zeroBytes(w ^ B_I);
        if ((bus | ill) != 0) { // rare in a word: the two pairs' terms only then
          marks |= bus & zeroBytesUnmasked(next ^ B_U) | ill & zeroBytesUnmasked(next ^ B_L);
        }
      }
      while (marks != 0) {
        // a borrow may mark a position that is no such pair: markerAt looks at the bytes themselves
        if (markerAt(b, s, i + Bytes.firstMarkedByte(marks), e, texts)) {
          return true;
        }
        marks &= marks - 1;
      }
    }
    for (; i < e - 1; i++) {
      if (mayStart(b[i]) && markerAt(b, s, i, e, texts)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a marker's pair may start with c (the scans' tails test each byte: a call of markerAt
   * for each of a line's last bytes cost a short line most of its time).
   */
  private static boolean mayStart(byte c) {
    return c > 0 && FIRST_BYTES[c];
  }

  private static final boolean[] FIRST_BYTES = new boolean[128];
  private static final boolean[] CLASS_ENDS = new boolean[128]; // the last byte of each of ERROR_CLASSES

  static {
    for (char c : "SWFEMCKTABIcnx".toCharArray()) {
      FIRST_BYTES[c] = true;
    }
    for (byte[] c : ERROR_CLASSES) {
      CLASS_ENDS[c[c.length - 1]] = true;
    }
  }

  private static final long LOWS = 0x7F7F7F7F7F7F7F7FL;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long FROM_A = Bytes.broadcast((byte) (0x80 - 'A'));
  private static final long PAST_Z = Bytes.broadcast((byte) (0x80 - 'Z' - 1));

  /**
   * Whether no byte of w can start a marker or the envelope: every pair's first byte is a capital
   * letter or one of 'c', 'n', 'x'. A cheap test (a capital by two adds, no borrow between bytes;
   * three compares) that lets the pair terms skip a word of digits, blanks, punctuation and much
   * lower-case text. The scans write it out in two halves (C1 does not inline a method of its
   * size); stated whole here for the test of its arithmetic on every byte value.
   */
  static boolean noFirstByte(long w) {
    long low = w & LOWS;
    long capital = (low + FROM_A) & ~(low + PAST_Z) & ~w & HIGHS;
    return (capital | zeroBytes(w ^ B_C) | zeroBytes(w ^ B_N) | zeroBytes(w ^ B_X)) == 0;
  }

  private static final long B_N_UPPER = Bytes.broadcast((byte) 'N');
  private static final long B_C_UPPER = Bytes.broadcast((byte) 'C');
  private static final byte[] NCCL = ascii("NCCL ");
  /** {@link #ncclOrCrash}: a crash marker starts before the "NCCL " found (or in the line, if none). */
  static final long CRASH = 1L << 32;
  /**
   * {@link #ncclOrCrash}: a "] I" or "] W" may be in the bytes it read (a prefilter: never missing
   * one that is there), where before 2.3 a record's level follows its device ("[0] INFO"): a line
   * with none is not searched for that level again. (Other loggers' brackets are followed by
   * other bytes: "[2024-05-01 10:00:00] [INFO] [engine.py:12:step]".)
   */
  static final long BRACKET = 1L << 33;
  /**
   * {@link #ncclOrCrash}: a "co" is in the bytes it read (a prefilter: a line read whole without it
   * holds no " comm 0x", which {@link MessageParser#commAt} would otherwise search its text for).
   */
  static final long CO = 1L << 34;
  /**
   * {@link #ncclOrCrash}: a '#' is in the bytes it read before their last (a prefilter: a line read
   * whole without one is no line of nccl-tests' preamble, {@link TestsPreamble}).
   */
  static final long HASH = 1L << 35;
  private static final long B_HASH = Bytes.broadcast((byte) '#');
  private static final long B_CLOSE = Bytes.broadcast((byte) ']');
  private static final long B_SPACE = Bytes.broadcast((byte) ' ');

  /**
   * The first "NCCL " in [s, e) ({@code Bytes.indexOf}'s answer) in the low 32 bits, -1 if there is
   * none, with {@link #CRASH} if a marker of {@link #isCrash} starts before it: one pass for the
   * envelope search and the crash search. Most lines of a job's log that are not NCCL's are
   * searched for both; with no "NCCL " the answer to isCrash for the whole line is known.
   */
  static long ncclOrCrash(byte[] b, int s, int e) {
    return ncclOrCrash(b, s, s, e, new CrashTexts());
  }

  /**
   * As {@link #ncclOrCrash(byte[], int, int)} from {@code from} on, in the line that starts at s
   * (where the markers that look back stop): after an "NCCL " that was no envelope, the rest.
   */
  static long ncclOrCrash(byte[] b, int s, int from, int e, CrashTexts texts) {
    long crash = 0;
    int i = from;
    for (; i + 9 <= e; i += 8) {
      long w = Bytes.word(b, i);
      // isCrash's filter and terms and "NC", written out again: a method of them is beyond what C1
      // inlines, and a call per eight bytes of other programs' lines costs more than the copy
      long low = w & LOWS;
      long capital = (low + FROM_A) & ~(low + PAST_Z) & ~w & HIGHS;
      long zc = zeroBytes(w ^ B_C);
      long zn = zeroBytes(w ^ B_N);
      long zx = zeroBytes(w ^ B_X);
      long zb = zeroBytes(w ^ B_CLOSE);
      long zh = zeroBytes(w ^ B_HASH);
      if ((capital | zc | zn | zx | zb | zh) == 0) {
        continue;
      }
      if (zh != 0) {
        crash |= HASH;
      }
      long next = Bytes.word(b, i + 1);
      // (every "] " is marked at its ']', a borrow may mark more: the byte after the blank decides)
      for (long br = zb & zeroBytesUnmasked(next ^ B_SPACE); br != 0; br &= br - 1) {
        if (oldLevelByte(b, i + Bytes.firstMarkedByte(br) + 2, e)) {
          crash |= BRACKET;
        }
      }
      long c = zeroBytesUnmasked(next ^ B_C);
      long i2 = zeroBytesUnmasked(next ^ B_I_LOWER);
      long marks = zc & zeroBytesUnmasked(next ^ B_O) | zn & c | zx & (i2 | c);
      if (capital != 0) {
        marks |= zeroBytes(w ^ B_N_UPPER) & zeroBytesUnmasked(next ^ B_C_UPPER)
            | zeroBytes(w ^ B_S) & (zeroBytesUnmasked(next ^ B_I) | zeroBytesUnmasked(next ^ B_E))
            | (zeroBytes(w ^ B_W) | zeroBytes(w ^ B_F)) & zeroBytesUnmasked(next ^ B_A)

            | zeroBytes(w ^ B_E_UPPER) & zeroBytesUnmasked(next ^ B_R)
            | zeroBytes(w ^ B_M_UPPER) & zeroBytesUnmasked(next ^ B_P_UPPER)
            | zeroBytes(w ^ B_C_UPPER) & zeroBytesUnmasked(next ^ B_H)
            | zeroBytes(w ^ B_K_UPPER) & i2
            | zeroBytes(w ^ B_T_UPPER) & zeroBytesUnmasked(next ^ B_E)
            | zeroBytes(w ^ B_A_UPPER) & zeroBytesUnmasked(next ^ B_B);
        long bus = zeroBytes(w ^ B_B_UPPER);
        long ill = zeroBytes(w ^ B_I);
        if ((bus | ill) != 0) { // rare in a word: the two pairs' terms only then
          marks |= bus & zeroBytesUnmasked(next ^ B_U) | ill & zeroBytesUnmasked(next ^ B_L);
        }
      }
      while (marks != 0) {
        // a borrow may mark a position that is no such pair: the bytes themselves are looked at
        int at = i + Bytes.firstMarkedByte(marks);
        byte x = b[at];
        if (x == 'N') {
          if (startsWith(b, at, e, NCCL)) {
            return at | crash;
          }
        } else {
          if (x == 'c') {
            crash |= CO; // (its only pair: "co")
          }
          if ((crash & CRASH) == 0 && markerAt(b, s, at, e, texts)) {
            crash |= CRASH;
          }
        }
        marks &= marks - 1;
      }
    }
    for (; i < e - 1; i++) {
      if (b[i] == 'N' && startsWith(b, i, e, NCCL)) {
        return i | crash;
      }
      if (b[i] == ']' && b[i + 1] == ' ' && oldLevelByte(b, i + 2, e)) {
        crash |= BRACKET;
      }
      if (b[i] == 'c' && b[i + 1] == 'o') {
        crash |= CO;
      }
      if (b[i] == '#') {
        crash |= HASH;
      }
      if ((crash & CRASH) == 0 && mayStart(b[i]) && markerAt(b, s, i, e, texts)) {
        crash |= CRASH;
      }
    }
    return 0xFFFFFFFFL | crash; // -1 in the low bits
  }

  /** Whether the first byte of an old level token, INFO's or WARN's, is at i (before e). */
  private static boolean oldLevelByte(byte[] b, int i, int e) {
    return i < e && (b[i] == 'I' || b[i] == 'W');
  }

  /** Whether one of the markers starts (an exception's: its "Error:") at i (s <= i, i + 1 < e). */
  private static boolean markerAt(byte[] b, int s, int i, int e, CrashTexts texts) {
    byte x = b[i];
    byte y = b[i + 1];
    switch (x) {
      case 'S' -> {
        if (y == 'I' || y == 'e') {
          for (byte[] c : CRASH_S) {
            if (startsWith(b, i, e, c)) {
              return true;
            }
          }
        }
        return false;
      }
      case 'c' -> {
        return y == 'o' && startsWith(b, i, e, CORE_DUMPED);
      }
      case 'E' -> {
        if (y != 'r' || !startsWith(b, i, e, ERROR)) {
          return false;
        }
        return nameEnds(b, i + 5, e)
            ? errorClassBefore(b, s, i) || runtimeErrorOfNccl(b, s, i, i + 5, e, texts) || uncaughtInRank(b, s, i)
                || ncclErrorText(b, i + 5, e, texts)
            : rayWrapped(b, s, i, e) && (errorClassBefore(b, s, i) || runtimeErrorOfNccl(b, s, i, i + 6, e, texts));
      }
      case 'x' -> {
        if (y == 'i') {
          return launcherExit(b, s, i, e);
        }
        // "Floating point exception" is found by its "xc" (no pair of its own for "Fl")
        int fpe = i - 1 - (FPE.length - "exception".length());
        return y == 'c' && i > s && (startsWith(b, i - 1, e, EXCEPTION) && nameEnds(b, i - 1 + EXCEPTION.length, e)
            && (uncaughtInRank(b, s, i - 1) || signalException(b, s, i - 1)) || fpe > s && shellReport(b, s, fpe, e, FPE));
      }
      case 'K' -> {
        return y == 'i' && (shellKilled(b, s, i, e) || kernelKilled(b, s, i, e));
      }
      case 'T' -> {
        return y == 'e' && shellReport(b, s, i, e, TERMINATED);
      }
      case 'A' -> {
        return y == 'b' && shellReport(b, s, i, e, ABORTED);
      }
      case 'W' -> {
        return y == 'a' && startsWith(b, i, e, WATCHDOG);
      }
      case 'M' -> {
        return y == 'P' && startsWith(b, i, e, MPI_ABORT);
      }
      case 'C' -> {
        return y == 'h' && startsWith(b, i, e, CHECK_FAILURE);
      }
      case 'F' -> {
        return y == 'a' && startsWith(b, i, e, FATAL_PYTHON);
      }
      case 'B' -> {
        return y == 'u' && shellReport(b, s, i, e, BUS_ERROR);
      }
      case 'I' -> {
        return y == 'l' && shellReport(b, s, i, e, ILLEGAL);
      }
      case 'n' -> {
        if (y == 'c' && i + 4 < e && b[i + 2] == 'c' && b[i + 3] == 'l') {
          for (byte[] c : NCCL_RESULTS) {
            if (startsWith(b, i, e, c)) {
              return true;
            }
          }
        }
        return false;
      }
      default -> {
        return false;
      }
    }
  }

  /** Whether one of {@link #ERROR_CLASSES}, as a whole name (no letter, digit or '_' before it), ends at i. */
  private static boolean errorClassBefore(byte[] b, int s, int i) {
    // (the byte before "Error" ends one of them or none: a line of "Error: " is not compared 14 times a name)
    if (i == s || b[i - 1] < 0 || !CLASS_ENDS[b[i - 1]]) {
      return false;
    }
    for (byte[] c : ERROR_CLASSES) {
      int from = i - c.length;
      if (from >= s && startsWith(b, from, i, c) && (from == s || !isNameByte(b[from - 1]))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a whole "RuntimeError" or "XlaRuntimeError" has its "Error" at i, its message's ':' at
   * {@code colon} (right after the name, or after Ray's wrapper's ')'), and one of
   * {@link CrashTexts#runtimeTextFrom c10d's or CUDA's texts} follows in the line.
   */
  private static boolean runtimeErrorOfNccl(byte[] b, int s, int i, int colon, int e, CrashTexts texts) {
    int from = i - RUNTIME.length;
    if (from < s || !startsWith(b, from, i, RUNTIME) || colon >= e || b[colon] != ':') {
      return false;
    }
    if (from - XLA.length >= s && startsWith(b, from - XLA.length, from, XLA)) {
      from -= XLA.length;
    }
    if (from > s && isNameByte(b[from - 1])) {
      return false;
    }
    return texts.runtimeTextFrom(b, colon + 1, e);
  }

  /** Whether an exception's message starts at {@code colon} (its ':') and quotes one of NCCL's error texts. */
  private static boolean ncclErrorText(byte[] b, int colon, int e, CrashTexts texts) {
    return colon < e && b[colon] == ':' && texts.ncclErrorTextFrom(b, colon + 1, e);
  }

  /**
   * Whether the class whose "Error" is at i is the one inside Ray's "RayTaskError(...)": its name
   * starts right after the parenthesis and "):" follows it.
   */
  private static boolean rayWrapped(byte[] b, int s, int i, int e) {
    int end = i + ERROR.length;
    if (end + 1 >= e || b[end] != ')' || b[end + 1] != ':') {
      return false;
    }
    int j = i;
    while (j > s && isNameByte(b[j - 1])) {
      j--;
    }
    return j - RAY_TASK_ERROR.length >= s && startsWith(b, j - RAY_TASK_ERROR.length, j, RAY_TASK_ERROR);
  }

  /** Whether a whole "SignalException" (its module path before it, if any) has its "Exception" at i. */
  private static boolean signalException(byte[] b, int s, int i) {
    int from = i - SIGNAL.length;
    return from >= s && startsWith(b, from, i, SIGNAL) && (from == s || !isNameByte(b[from - 1]));
  }

  /** Whether an exception's name ends at i: then its message (':'), a CR, or the line's end. */
  private static boolean nameEnds(byte[] b, int i, int e) {
    return i == e || b[i] == ':' || b[i] == '\r';
  }

  /**
   * Whether one of {@link #EXITED} starts at i - 1, or {@link #EXITS_WITH} there with a code other
   * than 0, or {@link #FAILED_EXITCODE} has its "xi" at i.
   */
  private static boolean launcherExit(byte[] b, int s, int i, int e) {
    if (i > s && (b[i - 1] == 'e' || b[i - 1] == 'E')) {
      for (byte[] t : EXITED) {
        if (startsWith(b, i - 1, e, t)) {
          return true;
        }
      }
      int code = i - 1 + EXITS_WITH.length;
      if (code < e && startsWith(b, i - 1, e, EXITS_WITH) && (b[code] == '-' || b[code] >= '1' && b[code] <= '9')) {
        return true;
      }
    }
    int from = i - 9; // "failed (e"
    return from >= s && startsWith(b, from, e, FAILED_EXITCODE);
  }

  /**
   * Whether the exception whose "Error" (or "Exception") is at i is named right after "[rank&lt;N&gt;]: " (PyTorch's
   * distributed excepthook: the rank ends with that uncaught exception), its module path included.
   */
  private static boolean uncaughtInRank(byte[] b, int s, int i) {
    int j = i;
    while (j > s && (isNameByte(b[j - 1]) || b[j - 1] == '.')) {
      j--;
    }
    if (j - s < RANK_TAG.length + 4 || b[j - 1] != ' ' || b[j - 2] != ':' || b[j - 3] != ']') {
      return false;
    }
    int d = j - 3;
    while (d > s && b[d - 1] >= '0' && b[d - 1] <= '9') {
      d--;
    }
    return d < j - 3 && d - RANK_TAG.length >= s && startsWith(b, d - RANK_TAG.length, d, RANK_TAG);
  }

  /**
   * Whether "Killed" at i is a shell's report of a command that SIGKILL ended: bash's for a script or
   * {@code bash -c} that waited for it ({@code jobs.c}, non-interactive: "%s: line %d: " and then the
   * job, "%5d Killed  command"), e.g. "/bin/bash: line 1:  4242 Killed   python train.py".
   */
  static boolean shellKilled(byte[] b, int s, int i, int e) {
    return shellReport(b, s, i, e, KILLED);
  }

  /**
   * Whether {@code word} at i, a signal's {@code strsignal()} text, is bash's report of a command that
   * signal ended ("NAME: line N: PID WORD  COMMAND"): "Killed", "Terminated" (SIGTERM: a Pod deleted
   * or evicted, a launcher stopping the other ranks), "Aborted" (SIGABRT, without a core dump, as
   * containers run), "Bus error", "Floating point exception", "Illegal instruction".
   */
  private static boolean shellReport(byte[] b, int s, int i, int e, byte[] word) {
    int end = i + word.length;
    if (!startsWith(b, i, e, word) || end < e && b[end] != ' ' || i - 1 <= s || b[i - 1] != ' ') {
      return false;
    }
    int pid = i - 1;
    while (pid > s && Bytes.isDigit(b[pid - 1])) {
      pid--;
    }
    if (pid == i - 1) {
      return false;
    }
    int colon = pid;
    while (colon > s && b[colon - 1] == ' ') {
      colon--;
    }
    if (colon == pid || --colon <= s || b[colon] != ':') {
      return false;
    }
    int n = colon;
    while (n > s && Bytes.isDigit(b[n - 1])) {
      n--;
    }
    return n < colon && n - LINE.length >= s && startsWith(b, n - LINE.length, n, LINE);
  }

  private static final byte[] KILLED_PROCESS = ascii("Killed process ");

  /**
   * Whether "Killed" at i starts the kernel's OOM killer's report ({@code mm/oom_kill.c}): "%s: Killed
   * process %d (%s) total-vm:..." ("Out of memory", "Memory cgroup out of memory"; before 4.19 without
   * the "%s: "), as a pasted {@code dmesg} or {@code journalctl -k} shows it.
   */
  static boolean kernelKilled(byte[] b, int s, int i, int e) {
    if (!startsWith(b, i, e, KILLED_PROCESS)) {
      return false;
    }
    int j = i + KILLED_PROCESS.length;
    int pid = j;
    while (j < e && Bytes.isDigit(b[j])) {
      j++;
    }
    return j > pid && j + 1 < e && b[j] == ' ' && b[j + 1] == '(';
  }

  /** Whether the line [s, e) holds a shell's or the kernel's report of a SIGKILL ({@link #shellKilled}, {@link #kernelKilled}). */
  static boolean hasKillReport(byte[] b, int s, int e) {
    for (int k = Bytes.indexOf(b, s, e, KILLED); k >= 0; k = Bytes.indexOf(b, k + 1, e, KILLED)) {
      if (shellKilled(b, s, k, e) || kernelKilled(b, s, k, e)) {
        return true;
      }
    }
    return false;
  }

  /** A letter, digit or '_': a byte of a Python or C++ name. */
  static boolean isNameByte(byte c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
  }
}
