package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The crash scan looks only at the bytes that can start a marker, eight at a time: it answers
 * what a plain scan of every position answers, at every offset, length and alignment; so does the
 * scan that looks for NCCL's envelope and the markers in one pass.
 */
class CrashMarkerScanTest {
  private static final List<String> MARKERS = List.of("SIGSEGV", "SIGABRT", "SIGBUS", "Segmentation fault",
      "core dumped", "Watchdog caught collective operation timeout", "Fatal Python error", "ncclSystemError",
      "ncclInternalError", "ncclRemoteError", "ncclUnhandledCudaError", "ncclInvalidUsage",
      "ncclInvalidArgument", "ncclTimeout", "MPI_ABORT was invoked", "Check failure stack trace",
      "exited on signal ", "exited with non-zero status", "exited due to process rank ", "Exited with exit code ",
      "failed (exitcode: ");

  // a framework's exception, named whole, then ':', a CR or the line's end
  private static final java.util.regex.Pattern EXCEPTION = java.util.regex.Pattern.compile(
      "(?<![A-Za-z0-9_])(?:DistBackend|DistStore|DistNetwork|Dist|ChildFailed|RendezvousTimeout|RendezvousConnection"
          + "|RendezvousClosed|HorovodInternal|Nccl|OutOfMemory|CalledProcess|Accelerator|TrainingFailed)(Error)(?::|\r|$)"
          // the same classes inside Ray's wrapper
          + "|RayTaskError\\((?:DistBackend|DistStore|DistNetwork|Dist|ChildFailed|RendezvousTimeout|RendezvousConnection"
          + "|RendezvousClosed|HorovodInternal|Nccl|OutOfMemory|CalledProcess|Accelerator|TrainingFailed)(Error)\\):"
          // torchrun's agent's signal
          + "|(?<![A-Za-z0-9_])Signal(Exception)(?::|\r|$)");
  private static final List<String> EXCEPTIONS = List.of("RuntimeError: NCCL", "RuntimeError: x nccl",
      "XlaRuntimeError: INTERNAL: NCCL", "aXlaRuntimeError: nccl",
      "RuntimeError: Socket Timeout", "torch.distributed.DistBackendError:", "DistStoreError:",
      "x.DistNetworkError", "DistError:", "errors.ChildFailedError:", "RendezvousTimeoutError\r",
      "RendezvousConnectionError:", "torch.distributed.elastic.rendezvous.api.RendezvousClosedError",
      "RendezvousClosedErrors", "HorovodInternalError:", "nccl.NcclError:", "[rank0]: torch.OutOfMemoryError:",
      "[rank12]: ValueError", "[rank3]: a.b_c.KeyError\r", "[rank]: ValueError:", "[rank1]:  ValueError:",
      "[rank0]: Exception: boom", "[rank2]: mod.CustomException", "torch.cuda.OutOfMemoryError: CUDA out of",
      "MyOutOfMemoryError:", "RuntimeError: CUDA out of memory.", "XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory",
      "subprocess.CalledProcessError: Command", "] exits with return code = 1", "exits with return code = 0", "exits with return code = -9", "[rank2]: Exceptional:", "x Exception: y",
      "/bin/bash: line 1:  4242 Killed                  python train.py", "run.sh: line 12: 7 Killed",
      ": line 1: 42 Killedx", ": line : 42 Killed", ": line 1:42 Killed", "line 1: 42 Killed", ": line 1:  Killed",
      "/bin/bash: line 1:  4242 Terminated              python train.py", "run.sh: line 3: 7 Aborted",
      ": line 1: 42 Terminatedx", ": line 1: 42 Abortedly", "Terminated: 0", ": line 1: Aborted",
      "/bin/bash: line 1:  4242 Bus error               python train.py", "run.sh: line 3: 7 Bus error",
      "train.sh: line 9: 77 Floating point exception python x.py", ": line 1: 42 Illegal instruction",
      ": line 1: 42 Bus errors", ": line 1: 42 Floating point", "Illegal instruction", ": line 1: Bus error",
      "torch.AcceleratorError: CUDA error", "ray.train.base_trainer.TrainingFailedError", "RuntimeError: CUDA error: an illegal",
      "RuntimeError: CUDA error:x", "ray.exceptions.RayTaskError(DistBackendError): ray::f()", "RayTaskError(OutOfMemoryError):",
      "RayTaskError(ValueError): x", "RayTaskError(DistBackendError)", "RayTaskError(RuntimeError): NCCL error",
      "RayTaskError(XlaRuntimeError): INTERNAL: nccl", "RayTaskError(RuntimeError): boom", "RayTaskError(MyRuntimeError): NCCL", "RayTaskError( DistError):", "RayTaskError(NcclError) :",
      "api.SignalException: Process 1 got signal: 15", "MySignalException:", "SignalExceptions:",
      "Out of memory: Killed process 1234 (python) total-vm", "Killed process 12 (", "Killed process x (",
      "Killed process 12(", "Killed process  12 (",
      "errors_impl.InternalError: ncclCommInitRank failed: unhandled system error",
      "UnknownError: x unhandled cuda error (run with", "Error: remote process exited or there was a network error",
      "MyError: y (run with NCCL_DEBUG=WARN for details)", "InternalError: unhandled system err",
      "InternalErrors: unhandled system error", "InternalError unhandled system error",
      "ValueError: internal error - please report this issue to the NCCL developers");

  // any exception named right after PyTorch's distributed excepthook's "[rank<N>]: "
  private static final java.util.regex.Pattern UNCAUGHT = java.util.regex.Pattern.compile(
      "\\[rank[0-9]+\\]: [A-Za-z0-9_.]*(Error|Exception)(?::|\r|$)");

  // a RuntimeError whose text is NCCL's or c10d's (PyTorch before 2.1)
  private static final java.util.regex.Pattern RUNTIME = java.util.regex.Pattern.compile(
      "(?:(?<![A-Za-z0-9_])(?:Xla)?Runtime(Error):|RayTaskError\\((?:Xla)?Runtime(Error)\\):).*(?:NCCL|nccl|store based barrier|connect\\(\\) timed out|Socket Timeout"
          + "|waiting for clients|connect to \\(|CUDA out of memory|RESOURCE_EXHAUSTED: Out of memory|CUDA error: )",
      java.util.regex.Pattern.DOTALL);

  // any exception whose message quotes one of NCCL's error texts (ncclGetErrorString)
  private static final java.util.regex.Pattern NCCL_TEXT = java.util.regex.Pattern.compile(
      "(Error):.*(?:unhandled system error|unhandled cuda error|remote process exited or there was a network error"
          + "|internal error - please report this issue to the NCCL developers|\\(run with NCCL_DEBUG=)",
      java.util.regex.Pattern.DOTALL);

  // bash's report of a job SIGKILL ended: "NAME: line N: PID Killed  COMMAND"; the kernel's OOM killer's
  private static final java.util.regex.Pattern SHELL_KILLED = java.util.regex.Pattern.compile(
      ": line [0-9]+: +[0-9]+ (Killed|Terminated|Aborted|Bus error|Floating point exception|Illegal instruction)(?= |$)|(e)xits with return code = [-1-9]|(K)illed process [0-9]+ \\(");

  /** Where the first exception's "Error" starts, or -1. */
  private static int exceptionAt(String line) {
    java.util.regex.Matcher m = EXCEPTION.matcher(line);
    int at = -1;
    if (m.find()) {
      for (int g = 1; g <= m.groupCount() && at < 0; g++) {
        at = m.start(g);
      }
    }
    java.util.regex.Matcher r = RUNTIME.matcher(line);
    // the leftmost qualifying RuntimeError (a later one's text is part of an earlier one's)
    int runtime = r.find() ? r.start(1) >= 0 ? r.start(1) : r.start(2) : -1;
    java.util.regex.Matcher u = UNCAUGHT.matcher(line);
    int uncaught = u.find() ? u.start(1) : -1;
    java.util.regex.Matcher n = NCCL_TEXT.matcher(line);
    int ncclText = n.find() ? n.start(1) : -1;
    return min(min(min(at, runtime), uncaught), ncclText);
  }

  private static int min(int a, int b) {
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }

  private static boolean plainScan(String line) {
    for (String m : MARKERS) {
      if (line.contains(m)) {
        return true;
      }
    }
    return exceptionAt(line) >= 0 || SHELL_KILLED.matcher(line).find();
  }

  /** A marker or an exception, cut short or whole. */
  private static String someMarker(Random r) {
    String m = r.nextBoolean() ? MARKERS.get(r.nextInt(MARKERS.size())) : EXCEPTIONS.get(r.nextInt(EXCEPTIONS.size()));
    return r.nextBoolean() ? m : m.substring(0, 1 + r.nextInt(m.length()));
  }

  private static boolean scan(String line, int pad) {
    byte[] text = line.getBytes(StandardCharsets.ISO_8859_1);
    byte[] b = Framed.within(text, pad, pad, (byte) 'S'); // marker-like bytes around the range must not count
    return CrashMarkers.isCrash(b, pad, pad + text.length);
  }

  @Test
  void everyMarkerIsFoundAtEveryOffset() {
    for (String m : MARKERS) {
      for (int before = 0; before < 20; before++) {
        for (int after = 0; after < 10; after++) {
          String line = "x".repeat(before) + m + "y".repeat(after);
          for (int pad = 0; pad < 9; pad++) {
            assertThat(scan(line, pad)).as("%s at %d, pad %d", m, before, pad).isTrue();
          }
        }
      }
    }
  }

  @Test
  void everyExceptionIsFoundAtEveryOffsetWhenNamedWhole() {
    for (String x : EXCEPTIONS) {
      for (int before = 0; before < 12; before++) {
        for (String lead : List.of("", " ", ".", "[rank0]: ", "a", "_")) {
          String line = "x".repeat(before) + lead + x;
          for (int pad = 0; pad < 9; pad++) {
            assertThat(scan(line, pad)).as("%s, pad %d", line, pad).isEqualTo(plainScan(line));
          }
          assertThat(scan(line + " more", 0)).as(line + " more").isEqualTo(plainScan(line + " more"));
        }
      }
    }
  }

  @Test
  void aMarkerCutByTheEndOfTheRangeIsNotFound() {
    for (String m : MARKERS) {
      for (int keep = 1; keep < m.length(); keep++) {
        String line = "Some output: " + m.substring(0, keep);
        assertThat(scan(line, 3)).as(line).isFalse();
      }
    }
  }

  /** The word filter of the scans says "none" exactly when no byte is a capital, 'c', 'n' or 'x'. */
  @Test
  void theFirstByteFilterAnswersAsAByteLoop() {
    Random r = new Random(13);
    byte[] near = {'@', 'A', 'Z', '[', 'b', 'c', 'd', 'm', 'n', 'o', 'w', 'x', 'y', 0, 0x7f, (byte) 0x80, (byte) 0xC1,
        (byte) 0xDA, (byte) 0xE3, (byte) 0xEE, (byte) 0xF8, (byte) 0xFF, ' ', '0', '9'};
    for (int i = 0; i < 200_000; i++) {
      long w = 0;
      boolean any = false;
      for (int k = 0; k < 8; k++) {
        byte x = r.nextInt(4) == 0 ? (byte) r.nextInt(256) : near[r.nextInt(near.length)];
        any |= x >= 'A' && x <= 'Z' || x == 'c' || x == 'n' || x == 'x';
        w |= (x & 0xFFL) << (8 * k);
      }
      assertThat(CrashMarkers.noFirstByte(w)).as("%016x", w).isEqualTo(!any);
    }
  }

  @Test
  void randomLinesOfMarkerBytesAnswerAsAPlainScan() {
    // lines made of the markers' own letters, so that candidates and near misses are everywhere
    String alphabet = "SIGEVABRTUcoredumpWatchFlnyImsSeg ncl\u00ff\u0000DistEror:.\r_NcMPChxit(0[]kKiled 1Termnab";
    Random r = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(60);
      for (int j = 0; j < n; j++) {
        if (r.nextInt(40) == 0) {
          sb.append(someMarker(r));
        } else {
          sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
      }
      String line = sb.toString();
      assertThat(scan(line, r.nextInt(9))).as(line).isEqualTo(plainScan(line));
    }
  }

  /** Whether a marker starts in the line before {@code limit} (it may end after it). */
  private static boolean plainScanBefore(String line, int limit) {
    for (String m : MARKERS) {
      int at = line.indexOf(m);
      if (at >= 0 && at < limit) {
        return true;
      }
    }
    int x = exceptionAt(line);
    java.util.regex.Matcher k = SHELL_KILLED.matcher(line);
    int killed = -1;
    if (k.find()) {
      for (int g = 1; g <= k.groupCount() && killed < 0; g++) {
        killed = k.start(g);
      }
    }
    return x >= 0 && x < limit || killed >= 0 && killed < limit;
  }

  @Test
  void theEnvelopeAndCrashScanAnswersAsTheTwoPlainSearches() {
    // the markers' letters and the envelope's, so that both are near everywhere
    String alphabet = "SIGEVABRTUcoredumpWatchFlnyImsSeg nclNCL \u00ffDistEror:.\r_NcMPChxit(0[]kKiled 1Termnab";
    List<String> pieces = List.of("NCCL ", "NCCL", "NCC", "NCCL INFO", "ProcessGroupNCCL.cpp", " comm 0x", "#  Rank", "] INFO ", "] WARN ", "] [INFO] ");
    Random r = new Random(12);
    for (int i = 0; i < 30_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(70);
      for (int j = 0; j < n; j++) {
        int k = r.nextInt(60);
        if (k == 0) {
          sb.append(someMarker(r));
        } else if (k == 1) {
          sb.append(pieces.get(r.nextInt(pieces.size())));
        } else {
          sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
      }
      String line = sb.toString();
      int pad = r.nextInt(9);
      byte[] text = line.getBytes(StandardCharsets.ISO_8859_1);
      byte[] b = Framed.within(text, pad, pad, (byte) 'N'); // envelope-like bytes around the range must not count
      long scan = CrashMarkers.ncclOrCrash(b, pad, pad + text.length);
      int envelope = line.indexOf("NCCL ");
      assertThat((int) scan).as(line).isEqualTo(envelope < 0 ? -1 : pad + envelope);
      assertThat((scan & CrashMarkers.CRASH) != 0).as(line)
          .isEqualTo(plainScanBefore(line, envelope < 0 ? line.length() : envelope));
      // a prefilter: a "] I" or "] W" the scan passed is never missed (it may flag one that is not there)
      String read = line.substring(0, envelope < 0 ? line.length() : envelope);
      if (read.contains("] I") || read.contains("] W")) {
        assertThat(scan & CrashMarkers.BRACKET).as("'] I' or '] W' in %s", line).isNotZero();
      }
      // and a "co" (what may start " comm 0x")
      if (read.contains("co")) {
        assertThat(scan & CrashMarkers.CO).as("'co' in %s", line).isNotZero();
      }
      // and a '#' before the last byte (what may start nccl-tests' preamble)
      if (read.length() > 1 && read.substring(0, read.length() - 1).contains("#")) {
        assertThat(scan & CrashMarkers.HASH).as("'#' in %s", line).isNotZero();
      }
    }
  }

  private static long failures(String log) throws Exception {
    return accumulate(log).failures.count();
  }

  private static long ncclLines(String log) throws Exception {
    return accumulate(log).ncclLines;
  }

  @Test
  void aBareCommLineIsReadWhateverLinesCameBeforeIt() throws Exception {
    // after a line of other output the crash scan tells whether a line may hold " comm 0x" at all:
    // a bare one (its prefix cut off) is read alike after any line, its "comm" at any column
    String[] comms = {"comm 0x55d0c8a0 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n",
        "[rank0]: ncclCommInitRank comm 0x55d0c8a0 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n",
        "2024-05-01 10:00:00 comm 0x7f3 rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0\n"};
    for (String c : comms) {
      assertThat(ncclLines(c)).as(c).isPositive();
    }
    readAlikeAfter(List.of("Epoch 1 step 10 loss 2.3\n", "co\n", "Epoch 1\nEpoch 2 ncc\n"), acc -> acc.ncclLines, comms);
  }

  @Test
  void aTestsPreambleLineIsReadWhateverLinesCameBeforeIt() throws Exception {
    // the crash scan after a line of other output tells whether a line may hold a '#': nccl-tests'
    // rank lines are read alike after any line, bare or after a launcher's tag
    String[] ranks = {"#  Rank  0 Group  0 Pid  41 on node-a device  0 [0x1b] NVIDIA H100 80GB HBM3\n",
        "[1,0]<stdout>:#  Rank  1 Group  0 Pid  42 on node-b device  1 [0x2b] NVIDIA H100 80GB HBM3\n",
        // recorded as a failure by the envelope search ("NCCL failure"): what it holds is not known
        "#  Rank  2 Group  0 Pid  43 on node-c device  2 [0x3b] NVIDIA H100 80GB HBM3 Test NCCL failure\n"};
    for (String r : ranks) {
      assertThat(accumulate(r).testsHosts).as(r).isNotEmpty();
    }
    readAlikeAfter(List.of("Epoch 1 step 10 loss 2.3\n", "# x\n", "Epoch 1\nEpoch 2 ncc\n"), acc -> acc.testsHosts, ranks);
  }

  @Test
  void aRecordBefore23IsReadWhateverLinesCameBeforeIt() throws Exception {
    // before 2.3 the level follows the device ("[0] INFO"): after a line of other output the crash
    // scan tells whether a line may hold "] I" or "] W", and other loggers' brackets are passed
    String[] records = {"node-1:10:11 [0] INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n",
        "node-1:10:11 [0] WARN NET/IB : No device found.\n",
        "[2024-05-01 10:00:00,123] [INFO] node-1:10:11 [0] INFO NET/IB : No device found.\n"};
    for (String r : records) {
      assertThat(ncclLines(r)).as(r).isPositive();
    }
    readAlikeAfter(List.of("Epoch 1 step 10 loss 2.3\n", "[x] [y] z\n",
        "[2024-05-01 10:00:00,123] [INFO] [engine.py:12:step] step=1\n"), acc -> acc.ncclLines, records);
  }

  /** Each of {@code lines} gives what it gives alone after each of {@code befores}, once and twice. */
  private static void readAlikeAfter(List<String> befores, java.util.function.Function<LogAccumulator, Object> fact,
      String... lines) throws Exception {
    for (String line : lines) {
      Object alone = fact.apply(accumulate(line));
      for (String before : befores) {
        assertThat(fact.apply(accumulate(before + line))).as(before + line).isEqualTo(alone);
        assertThat(fact.apply(accumulate(before + before + line))).as(before + before + line).isEqualTo(alone);
      }
    }
  }

  private static LogAccumulator accumulate(String log) throws Exception {
    LogAccumulator acc = new LogAccumulator();
    byte[] b = log.getBytes(StandardCharsets.UTF_8);
    new LineReader(LineReader.DEFAULT_MAX_LINE).read(new java.io.ByteArrayInputStream(b), b.length,
        new LogParser(acc, "t"));
    return acc;
  }

  @Test
  void aCrashLineIsFoundWhateverLinesCameBeforeIt() throws Exception {
    // the envelope search and the crash search share a pass after a line of other output only:
    // each order of such lines, NCCL lines and new threads' lines gives the same count
    List<String> before = List.of("", "Epoch 1 step 10 loss 2.3\n", "Epoch 1\nEpoch 2\n",
        "node-1:10:11 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n",
        "Epoch 1\nnode-2:20:21 [0] NCCL INFO NET/IB : No device found.\n",
        "node-3:30:31 [0] NCCL INFO Using network Socket\nEpoch 1\n");
    List<String> crashes = List.of("Segmentation fault (core dumped)\n",
        "RuntimeError: NCCL error: unhandled system error, NCCL version 2.21.5 ncclSystemError\n",
        "Fatal Python error: Aborted\n");
    for (String c : crashes) {
      assertThat(failures(c)).as(c).isPositive();
    }
    for (String b : before) {
      assertThat(failures(b + "Epoch 3 ended\n")).as(b).isZero();
      for (String c : crashes) {
        long alone = failures(c);
        assertThat(failures(b + c)).as(b + c).isEqualTo(alone);
        assertThat(failures(b + c + b)).as(b + c + b).isEqualTo(alone);
        assertThat(failures(b + "Epoch 3\n" + c)).as(b + c).isEqualTo(alone);
      }
    }
  }
}
