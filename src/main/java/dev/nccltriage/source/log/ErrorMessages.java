package dev.nccltriage.source.log;

import dev.nccltriage.facts.ErrorKind;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Error signatures (verbs failures, completion errors, GID, missing libraries, NET plugin load and
 * init failures, backtraces) and the NET/Plugin lines every process prints. Rare: regular
 * expressions are fine here, behind a substring test where every process prints the line.
 */
final class ErrorMessages {
  private static final Pattern VERBS =
      Pattern.compile("Call to (ibv_\\w+) failed(?: with error (.+?))?\\.?$");
  private static final Pattern IB_UNABLE =
      Pattern.compile("^NET/IB ?: Unable to (?:open|query) (?:device|port|port_num) (\\S+)");
  private static final Pattern COMPLETION =
      Pattern.compile(
          "Got completion (?:from peer (\\S+) )?with (?:error (\\d+)|status=(?:[^()=]*\\()?(\\d+)\\)?)");
  private static final Pattern ASYNC =
      Pattern.compile("(?:Got async (?:error )?event|async fatal event|Got non-fatal async event)[^:]*: ?(.*)$");
  private static final Pattern GID =
      Pattern.compile("(?i)\\bgid\\b.*\\b(?:fail|unable|not found|invalid|no valid)|(?:fail|unable|no valid).*\\bgid\\b");
  private static final Pattern LIBIBVERBS =
      Pattern.compile("^(?:Failed to open|Count not open) (libibverbs\\S*)");
  private static final Pattern PLUGIN_INIT_FAILED =
      Pattern.compile("^Failed to initialize (?:NET plugin (\\S+)|any NET plugin)");
  private static final Pattern PLUGIN_UNSUPPORTED =
      Pattern.compile("^External network plugin (\\S+) is unsupported");
  private static final Pattern PLUGIN_LOAD_FAILED =
      Pattern.compile("^NET/Plugin ?: Plugin load returned (\\d+) ?: (.*?)\\.?$");
  private static final Pattern NET_NOT_FOUND = Pattern.compile("^Error: network (\\S+) not found");
  private static final Pattern NO_SOCKET_IF =
      Pattern.compile("(?:NET/Socket ?: no interface found|no socket interface found|No usable listening interface found)");
  private static final Pattern PLUGIN_LOADED =
      Pattern.compile("^(?:NET/Plugin ?: Loaded net plugin (.+?) \\(v\\d+\\)|Successfully loaded external (?:network )?plugin (\\S+)|P2P plugin (?:v\\d+ )?(\\S+))");
  private static final Pattern CONNECT =
      Pattern.compile("(?:[Cc]onnect to (\\S+) failed(?: ?: ?(.+?))?\\.?$|Proxy Call to rank (\\d+) failed \\(Connect\\)"
          + "|Failed to execute operation Connect)");
  private static final Pattern REMOTE =
      Pattern.compile("(remote process exited or there was a network error|Connection closed by remote peer"
          + "|Connection reset by peer)");
  private static final Pattern CUDA = Pattern.compile("^Cuda failure (?:\\d+ )?'?([^']*)'?");
  private static final Pattern INVALID_RANK = Pattern.compile("^Invalid rank requested ?: ?(\\d+) ?/ ?(\\d+)");
  /** WARN lines of init-time probing that NCCL recovers from by trying the next transport. */
  private static final Pattern RECOVERABLE =
      Pattern.compile("^(?:Failed to open libibverbs|Count not open|dlvsym failed|Call to ibv_open_device failed"
          + "|Call to ibv_get_device_list failed|NET/IB ?: ?Unable to (?:open|query)|NET/IB ?: ?No IP interface found"
          + "|NET/Plugin|Could not find|No plugin found"
          // a net plugin that cannot start is skipped for the next network (spec §2)
          + "|NET/OFI (?:OFI )?(?:fi_getinfo\\(\\) call failed|aws-ofi-nccl initialization failed|Initializing plugin failed"
          + "|Couldn't find any optimal provider|No eligible providers))"
          // IB async events that follow routine subnet changes: the job goes on (2.28.7+ says so)
          + "|(?:[Aa]sync event|non-fatal async event).*(?:GID table change|client reregistration|LID change|SM change"
          + "|P_?Key change|port active|PORT_ACTIVE|GID_CHANGE|CLIENT_REREGISTER|LID_CHANGE|SM_CHANGE|PKEY_CHANGE"
          + "|communication established|COMM_EST|last WQE reached|SRQ limit reached|path migrated)"
          + "|non-fatal async event");
  private static final Pattern OFI_INIT = Pattern.compile("(?:initialization failed|Initializing plugin failed|Failed to initialize)");
  private static final Pattern OFI_REG =
      Pattern.compile("(?:Unable to register memory|[Rr]egistration failed|fi_mr_reg).*?(?:Error: ?|: )([A-Za-z][^.(]*?)\\s*(?:\\(|\\.|$)");
  private static final Pattern OFI_CQ = Pattern.compile("(?:completed with error|fi_cq_readerr|CQ error|Completion error)");
  private static final Pattern BACKTRACE =
      Pattern.compile("^(\\S+\\.(?:cc|cu|c|h|cpp)):\\d+ (?:\\([^)]*\\) )?-> (\\d+)");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;

  ErrorMessages(LogAccumulator acc, EvidenceSlot slot) {
    this.acc = acc;
    this.slot = slot;
  }

  /** Error signatures; also the catch-all for NET/IB and NET/Socket lines no other shape claimed. */
  boolean parse(ProcessState p, String msg) {
    Matcher m;
    if ((m = VERBS.matcher(msg)).find()) {
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
      return error(p, kind, detail, null);
    }
    if ((m = IB_UNABLE.matcher(msg)).find()) {
      return error(p, ErrorKind.IB_DEVICE_UNUSABLE, m.group(1), null);
    }
    if (msg.contains("No IP interface found")) {
      return error(p, ErrorKind.IB_NO_IP_INTERFACE, null, null);
    }
    if ((m = COMPLETION.matcher(msg)).find()) {
      String st = m.group(2) != null ? m.group(2) : m.group(3);
      return error(p, ErrorKind.COMPLETION, null, Bytes.intOrNull(st));
    }
    if ((m = ASYNC.matcher(msg)).find()) {
      return error(p, ErrorKind.ASYNC_EVENT, m.group(1).strip(), null);
    }
    if (GID.matcher(msg).find()) {
      return error(p, ErrorKind.GID, null, null);
    }
    if ((m = LIBIBVERBS.matcher(msg)).find()) {
      // 2.30+ tries libibverbs.so, then libibverbs.so.1, one line each: only the last one failing
      // means there is none ("Count not open libibverbs.so" alone is followed by a working .so.1)
      String lib = m.group(1);
      if (lib.equals("libibverbs.so")) {
        return true;
      }
      p.noVerbs = true;
      return error(p, ErrorKind.LIBIBVERBS_MISSING, lib, null);
    }
    if ((m = PLUGIN_INIT_FAILED.matcher(msg)).find()) {
      p.ibFailed |= "IB".equals(m.group(1));
      return error(p, ErrorKind.NET_PLUGIN_INIT, m.group(1) == null ? "any" : m.group(1), null);
    }
    if ((m = PLUGIN_UNSUPPORTED.matcher(msg)).find()) {
      return error(p, ErrorKind.NET_PLUGIN_LOAD, m.group(1), null);
    }
    if ((m = PLUGIN_LOAD_FAILED.matcher(msg)).find()) {
      return isBenignLoadFailure(m.group(2)) || error(p, ErrorKind.NET_PLUGIN_LOAD, m.group(2), null);
    }
    if ((m = NET_NOT_FOUND.matcher(msg)).find()) {
      return error(p, ErrorKind.NET_NOT_FOUND, m.group(1), null);
    }
    if (NO_SOCKET_IF.matcher(msg).find()) {
      return error(p, ErrorKind.SOCKET_NO_INTERFACE, null, null);
    }
    if ((m = PLUGIN_LOADED.matcher(msg)).find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      slot.record(acc.pluginsLoaded.computeIfAbsent(name, k -> new dev.nccltriage.evidence.EvidenceList()));
      p.pluginLoaded = true;
      return true;
    }
    if ((m = BACKTRACE.matcher(msg)).find()) {
      Integer result = Bytes.intOrNull(m.group(2));
      if (result == null || result == 0 || result == 7) {
        return true; // 0 success, 7 ncclInProgress (non-blocking init): no failure
      }
      slot.record(acc.failures);
      return error(p, ErrorKind.SYSTEM_ERROR, "ncclResult " + result, null);
    }
    if ((m = CONNECT.matcher(msg)).find()) {
      String detail = m.group(2) != null ? m.group(2).strip()
          : m.group(3) != null ? "proxy connect to rank " + m.group(3) : m.group(1) != null ? null : "proxy connect";
      return error(p, ErrorKind.CONNECT, detail, null);
    }
    if ((m = REMOTE.matcher(msg)).find()) {
      return error(p, ErrorKind.REMOTE_ERROR, m.group(1), null);
    }
    if ((m = CUDA.matcher(msg)).find()) {
      return error(p, ErrorKind.CUDA_FAILURE, m.group(1).strip(), null);
    }
    if ((m = INVALID_RANK.matcher(msg)).find()) {
      Integer n = Bytes.intOrNull(m.group(2));
      if (n != null) {
        acc.invalidRankOf = Math.max(acc.invalidRankOf, n);
      }
      return error(p, ErrorKind.INVALID_RANK, m.group(1) + "/" + m.group(2), null);
    }
    return msg.startsWith("NET/Plugin") || msg.startsWith("NET/IB") || msg.startsWith("NET/Socket");
  }

  private final java.util.Map<String, Boolean> recoverableSeen = new java.util.HashMap<>();

  /**
   * Whether a WARN message is one NCCL goes on after (an init probe, a routine async event). Every
   * rank of a failing job prints the same WARN: remembered by text (bounded).
   */
  boolean isRecoverable(String msg) {
    Boolean known = recoverableSeen.get(msg);
    if (known == null) {
      known = RECOVERABLE.matcher(msg).find();
      if (recoverableSeen.size() < 4096) {
        recoverableSeen.put(msg, known);
      }
    }
    return known;
  }

  /** aws-ofi-nccl's failures (its own "NET/OFI ..." lines); any other NET/OFI line is known and ignored. */
  boolean ofi(ProcessState p, String msg) {
    if (OFI_INIT.matcher(msg).find()) {
      p.ofiFailed = true;
      return error(p, ErrorKind.NET_PLUGIN_INIT, "aws-ofi-nccl", null);
    }
    Matcher m = OFI_REG.matcher(msg);
    if (m.find()) {
      return error(p, ErrorKind.IBV_REG_MR, m.group(1).strip(), null);
    }
    if (OFI_CQ.matcher(msg).find()) {
      return error(p, ErrorKind.PLUGIN_CQ, null, null);
    }
    return true;
  }

  /** NET/Plugin lines, printed by every process: a substring test before each expression. */
  boolean pluginLine(ProcessState p, String msg) {
    if (msg.contains("Plugin load returned") && isBenignLoadFailure(msg) && !msg.contains("Loaded net plugin")) {
      return true; // what the expression below would decide, without running it on every process
    }
    Matcher m = msg.contains("Plugin load returned") ? PLUGIN_LOAD_FAILED.matcher(msg) : null;
    if (m != null && m.find()) {
      return isBenignLoadFailure(m.group(2)) || error(p, ErrorKind.NET_PLUGIN_LOAD, m.group(2), null);
    }
    m = msg.contains("Loaded net plugin") ? PLUGIN_LOADED.matcher(msg) : null;
    if (m != null && m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      slot.record(acc.pluginsLoaded.computeIfAbsent(name, k -> new dev.nccltriage.evidence.EvidenceList()));
      p.pluginLoaded = true;
      return true;
    }
    return false;
  }

  /** "cannot open shared object file" (ENOENT) only means no plugin is installed. */
  private static boolean isBenignLoadFailure(String msg) {
    return msg.contains("No such file") || msg.contains("cannot open shared object");
  }

  private boolean error(ProcessState p, ErrorKind kind, String detail, Integer status) {
    switch (kind) {
      case IBV_OPEN_DEVICE, IB_DEVICE_UNUSABLE, IB_NO_IP_INTERFACE, LIBIBVERBS_MISSING -> p.ibFailed = true;
      case COMPLETION, ASYNC_EVENT, IBV_MODIFY_QP, IBV_REG_DMABUF_MR -> p.ibRuntimeError = true;
      case IBV_REG_MR -> p.ibRuntimeError |= !p.ofiSeen;
      default -> { }
    }
    acc.errorLines++;
    LogAccumulator.ErrAcc e = acc.error(kind, detail, status);
    e.seeHost(p.host);
    slot.record(e.evidence);
    return true;
  }
}
