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
      return error(p, ErrorKind.COMPLETION, null, Integer.valueOf(st));
    }
    if ((m = ASYNC.matcher(msg)).find()) {
      return error(p, ErrorKind.ASYNC_EVENT, m.group(1).strip(), null);
    }
    if (GID.matcher(msg).find()) {
      return error(p, ErrorKind.GID, null, null);
    }
    if ((m = LIBIBVERBS.matcher(msg)).find()) {
      return error(p, ErrorKind.LIBIBVERBS_MISSING, m.group(1), null);
    }
    if ((m = PLUGIN_INIT_FAILED.matcher(msg)).find()) {
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
      return true;
    }
    if ((m = BACKTRACE.matcher(msg)).find()) {
      return error(p, ErrorKind.SYSTEM_ERROR, "ncclResult " + m.group(2), null);
    }
    return msg.startsWith("NET/Plugin") || msg.startsWith("NET/IB") || msg.startsWith("NET/Socket");
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
      return true;
    }
    return false;
  }

  /** "cannot open shared object file" (ENOENT) only means no plugin is installed. */
  private static boolean isBenignLoadFailure(String msg) {
    return msg.contains("No such file") || msg.contains("cannot open shared object");
  }

  private boolean error(ProcessState p, ErrorKind kind, String detail, Integer status) {
    LogAccumulator.ErrAcc e = acc.error(kind, detail, status);
    e.seeHost(p.host);
    slot.record(e.evidence);
    return true;
  }
}
