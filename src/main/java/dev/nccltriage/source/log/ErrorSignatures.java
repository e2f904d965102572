package dev.nccltriage.source.log;

import dev.nccltriage.facts.ErrorKind;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an error-like message means, worked out from its text alone (no state), so that
 * {@link ErrorMessages} can remember the answer per distinct text: a failing job prints the same
 * WARN and unwind lines on every rank. Each expression runs only after a substring test that every
 * text it can match passes (the literal it cannot match without), so most lines cost a few
 * {@code contains} calls.
 */
final class ErrorSignatures {
  private static final Pattern VERBS =
      Pattern.compile("Call to (ibv_\\w+) failed(?: with error (.+?))?\\.?$");
  private static final Pattern IB_UNABLE =
      Pattern.compile("^NET/IB ?: Unable to (?:open|query) (?:device|port|port_num) (\\S+)");
  private static final Pattern COMPLETION =
      Pattern.compile(
          "Got completion (?:from peer (\\S+) )?with (?:error (\\d+)|status=(?:[^()=]*\\()?(\\d+)\\)?)");
  private static final Pattern ASYNC =
      Pattern.compile("(?:Got async (?:error )?event|async fatal event|Got non-fatal async event)[^:]{0,256}: ?(.*)$");
  // The meaning of (?i)\bgid\b.*\b(?:fail|unable|not found|invalid|no valid)|(?:fail|unable|no valid).*\bgid\b,
  // found in one pass each: that expression, tried with find(), ran its .* to the end of the text
  // from every "gid" (a hostile line of thousands of them took seconds). See hasGidFailure.
  private static final Pattern GID_WORD = Pattern.compile("(?i)\\bgid\\b");
  private static final Pattern FAILURE_AFTER = Pattern.compile("(?i)\\b(?:fail|unable|not found|invalid|no valid)");
  private static final Pattern FAILURE_BEFORE = Pattern.compile("(?i)(?:fail|unable|no valid)");
  private static final Pattern LIBIBVERBS =
      Pattern.compile("^(?:Failed to open|Count not open) (libibverbs\\S*)");
  private static final Pattern PLUGIN_INIT_FAILED =
      Pattern.compile("^Failed to initialize (?:NET plugin (\\S+)|any NET plugin)");
  private static final Pattern PLUGIN_UNSUPPORTED =
      Pattern.compile("^External network plugin (\\S+) is unsupported");
  static final Pattern PLUGIN_LOAD_FAILED =
      Pattern.compile("^NET/Plugin ?: Plugin load returned (\\d+) ?: (.*?)\\.?$");
  private static final Pattern NET_NOT_FOUND = Pattern.compile("^Error: network (\\S+) not found");
  private static final Pattern NO_SOCKET_IF =
      Pattern.compile("(?:NET/Socket ?: no interface found|no socket interface found|No usable listening interface found)");
  static final Pattern PLUGIN_LOADED =
      Pattern.compile("^(?:NET/Plugin ?: Loaded net plugin (.+?) \\(v\\d+\\)|Successfully loaded external (?:network )?plugin (\\S+)|P2P plugin (?:v\\d+ )?(\\S+))");
  // misc/socket.cc: "Connect to %s failed : %s" (to 2.11), "socketPollConnect: Connect to %s returned
  // %d(%s) errno %d(%s)" and, once its retries are spent, "connect [to %s] returned %s, exceeded error
  // retry count ..." (the INFO lines before it end ", retrying ..." and are no failure)
  private static final Pattern CONNECT =
      Pattern.compile("(?:[Cc]onnect to (\\S+) failed(?: ?: ?(.+?))?\\.?$"
          + "|[Cc]onnect(?: to (\\S{1,256}))? returned (?:-?\\d{1,9}\\()?([^,()]{1,128}?)\\)?(?:, exceeded| errno)"
          + "|Proxy Call to rank (\\d+) failed \\(Connect\\)|Failed to execute operation Connect)");
  private static final Pattern REMOTE =
      Pattern.compile("(remote process exited or there was a network error|Connection closed by remote peer"
          + "|Connection reset by peer)");
  private static final Pattern CUDA = Pattern.compile("^Cuda failure (?:\\d+ )?'?([^']*)'?");
  private static final Pattern INVALID_RANK = Pattern.compile("^Invalid rank requested ?: ?(\\d+) ?/ ?(\\d+)");
  // init.cc, every version: "Duplicate GPU detected : rank %d and rank %d both on CUDA device %lx"
  private static final Pattern DUPLICATE_GPU =
      Pattern.compile("^Duplicate GPU detected ?: ?rank (\\d+) and rank (\\d+) both on CUDA device (\\S+)");
  // misc/shmutils.cc (2.12+): "Error: failed to extend %s to %ld bytes[, error: %s (%d)]", "Error while
  // creating shared memory segment %s (size %ld)[, error: ...]"; before it the SYSCHECK macro's "Call
  // to posix_fallocate failed : %s": /dev/shm (a container's tmpfs) is too small. Detail: the error.
  private static final Pattern SHM = Pattern.compile("^(?:Error: failed to extend \\S{1,512} to \\d{1,20} bytes"
      + "|Error while creating shared memory segment \\S{1,512}(?: \\(size \\d{1,20}\\))?"
      + "|Call to posix_fallocate failed)(?:(?:, error:| ?:) ?(.{1,256}?))?\\.?$");
  private static final Pattern BACKTRACE =
      Pattern.compile("^(\\S+\\.(?:cc|cu|c|h|cpp)):\\d+ (?:\\([^)]*\\) )?-> (\\d+)");

  /**
   * The effects of one text: an error to count (kind null: none), a plugin that loaded, the
   * process flags it sets, whether the job failed, and whether the text belonged to a family.
   */
  record Outcome(
      ErrorKind kind, String detail, Integer status, String pluginLoaded, boolean noVerbs, boolean ibFailed,
      boolean failure, int invalidRankOf, boolean known) {
    static final Outcome KNOWN = new Outcome(null, null, null, null, false, false, false, -1, true);
    static final Outcome UNKNOWN = new Outcome(null, null, null, null, false, false, false, -1, false);

    static Outcome error(ErrorKind kind, String detail, Integer status) {
      return new Outcome(kind, detail, status, null, false, false, false, -1, true);
    }
  }

  private ErrorSignatures() {}

  /** Error signatures; also the catch-all for NET/IB and NET/Socket lines no other shape claimed. */
  static Outcome classify(String msg) {
    return classify(msg, true);
  }

  /** {@code guarded} false runs every expression (tests check that the guards change nothing). */
  static Outcome classify(String msg, boolean guarded) {
    return classify(msg, guarded ? GuardWords.of(msg) : -1);
  }

  /**
   * The starts that {@link #classify(String, int)} tests without a guard word: every such
   * {@code msg.startsWith} there has its text here ({@link #surelyUnknown} answers from their first
   * characters; ErrorGuardsTest checks it against every expression on thousands of texts).
   */
  private static final String[] UNGUARDED_STARTS = {
    "NET/IB", "Failed to open ", "Count not open ", "Failed to initialize ", "External network plugin ",
    "NET/Plugin", "Error: network ", "Successfully loaded external", "P2P plugin", "Cuda failure",
    "Invalid rank requested", "NET/Socket", "Duplicate GPU detected", "Error: failed to extend ",
    "Error while creating shared memory segment ", "Call to posix_fallocate failed"
  };
  private static final String UNGUARDED_FIRST = firstCharacters(UNGUARDED_STARTS);

  /** The distinct first characters of {@code starts}. */
  static String firstCharacters(String[] starts) {
    StringBuilder b = new StringBuilder();
    for (String start : starts) {
      if (b.indexOf(start.substring(0, 1)) < 0) {
        b.append(start.charAt(0));
      }
    }
    return b.toString();
  }

  /**
   * Whether {@link #classify(String, int)} answers {@link Outcome#UNKNOWN} for a text with guard
   * words {@code has} whose first byte (of its UTF-8) is {@code first}, without the text: no guard
   * word that enables an expression ({@link GuardWords#FAILURE} does only with "gid"), and a first
   * character none of the starts it tests has. A failing job's WARN texts that no signature knows
   * are each new (a size, a rank, an id): they need not be decoded to be told so.
   */
  static boolean surelyUnknown(int has, byte first) {
    return (has & ~GuardWords.FAILURE) == 0 && UNGUARDED_FIRST.indexOf((char) (first & 0xFF)) < 0;
  }

  /** {@code has}: the {@link GuardWords} of msg (found by the caller), or -1 to run every expression. */
  static Outcome classify(String msg, int has) {
    boolean all = has == -1;
    Matcher m;
    if ((has & GuardWords.CALL_TO_IBV) != 0 && (m = VERBS.matcher(msg)).find()) {
      String verb = m.group(1);
      ErrorKind kind =
          switch (verb) {
            case "ibv_reg_mr", "ibv_reg_mr_iova2" -> ErrorKind.IBV_REG_MR;
            case "ibv_reg_dmabuf_mr" -> ErrorKind.IBV_REG_DMABUF_MR;
            case "ibv_modify_qp" -> ErrorKind.IBV_MODIFY_QP;
            case "ibv_open_device" -> ErrorKind.IBV_OPEN_DEVICE;
            case "ibv_query_gid" -> ErrorKind.GID;
            default -> ErrorKind.IBV_OTHER;
          };
      String detail = m.group(2) == null ? null : m.group(2).strip();
      if (kind == ErrorKind.IBV_OTHER) {
        detail = detail == null ? verb : verb + ": " + detail;
      }
      return Outcome.error(kind, detail, null);
    }
    boolean ib = msg.startsWith("NET/IB");
    if ((all || ib && (has & GuardWords.UNABLE_TO) != 0) && (m = IB_UNABLE.matcher(msg)).lookingAt()) {
      return Outcome.error(ErrorKind.IB_DEVICE_UNUSABLE, m.group(1), null);
    }
    if ((all ? msg.contains("No IP interface found") : (has & GuardWords.NO_IP_INTERFACE) != 0)) {
      return Outcome.error(ErrorKind.IB_NO_IP_INTERFACE, null, null);
    }
    if ((has & GuardWords.GOT_COMPLETION) != 0 && (m = all ? found(COMPLETION.matcher(msg)) : completionAt(msg)) != null) {
      String st = m.group(2) != null ? m.group(2) : m.group(3);
      return Outcome.error(ErrorKind.COMPLETION, null, Bytes.intOrNull(st));
    }
    if ((has & GuardWords.ASYNC) != 0 && (m = all ? found(ASYNC.matcher(msg)) : asyncAt(msg)) != null) {
      return Outcome.error(ErrorKind.ASYNC_EVENT, m.group(1).strip(), null);
    }
    if ((has & GuardWords.GID) != 0 && (has & GuardWords.FAILURE) != 0 && hasGidFailure(msg)) {
      return Outcome.error(ErrorKind.GID, null, null);
    }
    if ((all || (msg.startsWith("Failed to open ") || msg.startsWith("Count not open "))) && (m = LIBIBVERBS.matcher(msg)).lookingAt()) {
      // 2.30+ tries libibverbs.so, then libibverbs.so.1, one line each: only the last one failing
      // means there is none ("Count not open libibverbs.so" alone is followed by a working .so.1)
      String lib = m.group(1);
      if (lib.equals("libibverbs.so")) {
        return Outcome.KNOWN;
      }
      return new Outcome(ErrorKind.LIBIBVERBS_MISSING, lib, null, null, true, false, false, -1, true);
    }
    if ((all || msg.startsWith("Failed to initialize ")) && (m = PLUGIN_INIT_FAILED.matcher(msg)).lookingAt()) {
      if (m.group(1) == null) {
        // 2.27+: no network that NCCL may use started (2.10-2.26 say "Error: network X not found")
        return Outcome.error(ErrorKind.NET_NONE, null, null);
      }
      boolean ibNet = "IB".equals(m.group(1));
      return new Outcome(ErrorKind.NET_PLUGIN_INIT, m.group(1), null, null, false, ibNet, false, -1, true);
    }
    if ((all || msg.startsWith("External network plugin ")) && (m = PLUGIN_UNSUPPORTED.matcher(msg)).lookingAt()) {
      return Outcome.error(ErrorKind.NET_PLUGIN_LOAD, m.group(1), null);
    }
    boolean plugin = msg.startsWith("NET/Plugin");
    if ((all || plugin) && (m = PLUGIN_LOAD_FAILED.matcher(msg)).lookingAt()) {
      return isBenignLoadFailure(m.group(2)) ? Outcome.KNOWN : Outcome.error(ErrorKind.NET_PLUGIN_LOAD, m.group(2), null);
    }
    if ((all || msg.startsWith("Error: network ")) && (m = NET_NOT_FOUND.matcher(msg)).lookingAt()) {
      return Outcome.error(ErrorKind.NET_NOT_FOUND, m.group(1), null);
    }
    if ((has & GuardWords.INTERFACE_FOUND) != 0 && NO_SOCKET_IF.matcher(msg).find()) {
      return Outcome.error(ErrorKind.SOCKET_NO_INTERFACE, null, null);
    }
    if ((all || plugin || msg.startsWith("Successfully loaded external") || msg.startsWith("P2P plugin"))
        && (m = PLUGIN_LOADED.matcher(msg)).lookingAt()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      return new Outcome(null, null, null, name, false, false, false, -1, true);
    }
    if ((has & GuardWords.ARROW) != 0 && (m = BACKTRACE.matcher(msg)).lookingAt()) {
      Integer result = Bytes.intOrNull(m.group(2));
      if (result == null || result == 0 || result == 7) {
        return Outcome.KNOWN; // 0 success, 7 ncclInProgress (non-blocking init): no failure
      }
      return new Outcome(ErrorKind.SYSTEM_ERROR, resultText(result), null, null, false, false, true, -1, true);
    }
    boolean connect = (has & GuardWords.ONNECT) != 0;
    if ((all || connect) && (m = all ? found(CONNECT.matcher(msg)) : connectAt(msg)) != null) {
      String detail = m.group(2) != null ? m.group(2).strip() : m.group(4) != null ? m.group(4).strip()
          : m.group(5) != null ? "proxy connect to rank " + m.group(5) : m.group(1) != null ? null : "proxy connect";
      return Outcome.error(ErrorKind.CONNECT, detail, null);
    }
    if (all || connect || (has & GuardWords.REMOTE_EXITED) != 0) {
      String remote = all ? groupOrNull(found(REMOTE.matcher(msg))) : remoteIn(msg);
      if (remote != null) {
        return Outcome.error(ErrorKind.REMOTE_ERROR, remote, null);
      }
    }
    if ((all || msg.startsWith("Cuda failure")) && (m = CUDA.matcher(msg)).lookingAt()) {
      return Outcome.error(ErrorKind.CUDA_FAILURE, m.group(1).strip(), null);
    }
    if ((all || msg.startsWith("Invalid rank requested")) && (m = INVALID_RANK.matcher(msg)).lookingAt()) {
      Integer n = Bytes.intOrNull(m.group(2));
      return new Outcome(ErrorKind.INVALID_RANK, m.group(1) + "/" + m.group(2), null, null, false, false, false,
          n == null ? -1 : n, true);
    }
    if ((all || msg.startsWith("Duplicate GPU detected")) && (m = DUPLICATE_GPU.matcher(msg)).lookingAt()) {
      return Outcome.error(ErrorKind.DUPLICATE_GPU,
          "ranks " + m.group(1) + " and " + m.group(2) + " on CUDA device " + m.group(3), null);
    }
    if ((all || msg.startsWith("Error: failed to extend ") || msg.startsWith("Error while creating shared memory segment ")
        || msg.startsWith("Call to posix_fallocate failed")) && (m = SHM.matcher(msg)).lookingAt()) {
      return Outcome.error(ErrorKind.SHM_ALLOC, m.group(1) == null ? null : m.group(1).strip(), null);
    }
    return plugin || ib || msg.startsWith("NET/Socket") ? Outcome.KNOWN : Outcome.UNKNOWN;
  }

  // nccl.h's ncclResult_t (6, ncclRemoteError, since 2.12): people search a failure by its name
  private static final String[] RESULT_NAMES = {
    null, "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError", "ncclInvalidArgument",
    "ncclInvalidUsage", "ncclRemoteError"
  };

  /** "ncclResult 5 (ncclInvalidUsage)"; a code NCCL does not define is shown as the number alone. */
  static String resultText(int result) {
    return result > 0 && result < RESULT_NAMES.length
        ? "ncclResult " + result + " (" + RESULT_NAMES[result] + ")" : "ncclResult " + result;
  }

  /** "cannot open shared object file" (ENOENT) only means no plugin is installed. */
  static boolean isBenignLoadFailure(String msg) {
    return msg.contains("No such file") || msg.contains("cannot open shared object");
  }

  // Peer addresses make most connect and remote-error texts new to the memo, so these two run
  // once per line of a failing job: an unanchored alternation is tried at every offset (slow under
  // C1), while its literal parts say where a match can start. The unguarded path keeps the plain
  // find(), and ErrorGuardsTest checks that both answer alike.
  private static final String[] CONNECT_STARTS = {"onnect", "Proxy Call to rank ", "Failed to execute operation Connect"};
  private static final String[] REMOTE_TEXTS = {
    "remote process exited or there was a network error", "Connection closed by remote peer", "Connection reset by peer"
  };

  /** COMPLETION's leftmost match (what find() gives), tried only where its literal start is. */
  private static Matcher completionAt(String msg) {
    Matcher m = COMPLETION.matcher(msg);
    for (int at = msg.indexOf("Got completion "); at >= 0; at = msg.indexOf("Got completion ", at + 1)) {
      if (m.region(at, msg.length()).lookingAt()) {
        return m;
      }
    }
    return null;
  }

  /**
   * ASYNC's leftmost match (what find() gives), tried only where a branch can start: "Got async"
   * 4 characters before an "async ", "async fatal" at it, "Got non-fatal async" 14 before it.
   */
  private static Matcher asyncAt(String msg) {
    int[] starts = new int[8];
    int n = 0;
    for (int a = msg.indexOf("async "); a >= 0; a = msg.indexOf("async ", a + 1)) {
      for (int lead : ASYNC_LEADS) {
        if (a - lead >= 0) {
          if (n == starts.length) {
            starts = java.util.Arrays.copyOf(starts, 2 * n);
          }
          starts[n++] = a - lead;
        }
      }
    }
    java.util.Arrays.sort(starts, 0, n);
    Matcher m = ASYNC.matcher(msg);
    int colon = -1; // the first ':' at or after the candidate: ASYNC needs one within ASYNC_REACH
    for (int i = 0; i < n; i++) {
      int at = starts[i];
      if (colon < at) {
        colon = msg.indexOf(':', at);
        if (colon < 0) {
          return null;
        }
      }
      if ((i == 0 || at != starts[i - 1]) && colon - at <= ASYNC_REACH && m.region(at, msg.length()).lookingAt()) {
        return m;
      }
    }
    return null;
  }

  /** How far from its start ASYNC's colon can be: its longest branch, then [^:]{0,256}. */
  private static final int ASYNC_REACH = "Got non-fatal async event".length() + 256;

  private static final int[] ASYNC_LEADS = {"Got non-fatal ".length(), "Got ".length(), 0};

  /**
   * CONNECT's leftmost match (what find() gives), tried only where one of its branches' literals
   * starts: each literal's occurrences in order, merged (a literal is looked for again only once
   * its last occurrence is passed: a hostile line of thousands of "onnect to " stays linear).
   */
  private static Matcher connectAt(String msg) {
    int[] next = new int[CONNECT_STARTS.length];
    for (int i = 0; i < next.length; i++) {
      next[i] = msg.indexOf(CONNECT_STARTS[i], CONNECT_LEADS[i]);
    }
    Matcher m = null;
    while (true) {
      int start = -1;
      for (int i = 0; i < next.length; i++) {
        if (next[i] >= 0 && (start < 0 || next[i] - CONNECT_LEADS[i] < start)) {
          start = next[i] - CONNECT_LEADS[i];
        }
      }
      if (start < 0) {
        return null;
      }
      m = m == null ? CONNECT.matcher(msg) : m;
      if (m.region(start, msg.length()).lookingAt()) {
        return m;
      }
      for (int i = 0; i < next.length; i++) {
        if (next[i] >= 0 && next[i] - CONNECT_LEADS[i] <= start) {
          next[i] = msg.indexOf(CONNECT_STARTS[i], next[i] + 1);
        }
      }
    }
  }

  // "[Cc]onnect to": the branch starts one character before its literal part
  private static final int[] CONNECT_LEADS = {1, 0, 0};

  /** The REMOTE text that occurs first in msg (what find() gives), or null. */
  private static String remoteIn(String msg) {
    String first = null;
    int firstAt = Integer.MAX_VALUE;
    for (String t : REMOTE_TEXTS) {
      int at = msg.indexOf(t);
      if (at >= 0 && at < firstAt) {
        first = t;
        firstAt = at;
      }
    }
    return first;
  }

  private static Matcher found(Matcher m) {
    return m.find() ? m : null;
  }

  private static String groupOrNull(Matcher m) {
    return m == null ? null : m.group(1);
  }

  /**
   * Whether a line of the text names a GID and a failure: a failure word after its first "gid", or
   * one before its last "gid" (the words as the expression in the comment at GID_WORD has them).
   */
  static boolean hasGidFailure(String msg) {
    int from = 0;
    for (int i = 0; i <= msg.length(); i++) {
      // '.' does not cross a line terminator: each line of the text on its own
      if (i == msg.length() || isLineTerminator(msg.charAt(i))) {
        if (i > from && hasGidFailure(msg, from, i)) {
          return true;
        }
        from = i + 1;
      }
    }
    return false;
  }

  private static boolean isLineTerminator(char c) {
    return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
  }

  private static boolean hasGidFailure(String msg, int from, int to) {
    Matcher gid = GID_WORD.matcher(msg).region(from, to).useTransparentBounds(true);
    if (!gid.find()) {
      return false;
    }
    int firstEnd = gid.end();
    int lastStart = gid.start();
    while (gid.find()) {
      lastStart = gid.start();
    }
    Matcher after = FAILURE_AFTER.matcher(msg).region(firstEnd, to).useTransparentBounds(true);
    if (after.find()) {
      return true;
    }
    Matcher before = FAILURE_BEFORE.matcher(msg).region(from, lastStart).useTransparentBounds(true);
    return before.find();
  }
}
