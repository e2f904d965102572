package dev.nccltriage.source.log;

import dev.nccltriage.facts.Hca;
import dev.nccltriage.facts.Iface;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "NET..." lines of a process's network init: the net plugin, IB device lists and their OOB
 * interface, the socket transport's interfaces, GPUDirect RDMA per HCA, aws-ofi-nccl's lines, and
 * the NET errors {@link ErrorMessages} reads. A text's family ({@link #route}) depends on the
 * text alone and is remembered with it ({@link MessageTexts}); {@link #parse} applies what the
 * line means to the process that printed it.
 */
final class NetMessages {
  private static final Pattern IB_SIDEBAND =
      Pattern.compile("^NET/IB ?: Using interface (\\S+) for sideband communication");
  private static final Pattern IB_PER_LINE = Pattern.compile("^NET/IB ?: (\\[\\d+\\] ?\\S+:\\d+/\\S+)$");
  private static final Pattern OLD_NET_IFACE = Pattern.compile("^NET ?: Using interface (\\S+)");
  private static final Pattern GDR_HCA_NET = Pattern.compile("^NET/(.+?) ?: GPU Direct RDMA (?:Enabled|Disabled) for HCA");

  // routes: a NET family in the low bits, and what parse() notes first; RareMessages keeps 1-15
  static final int N_OFI = 16;
  private static final int N_PLUGIN_ENV = 17;
  private static final int N_PLUGIN = 18;
  private static final int N_NO_DEVICE = 19;
  private static final int N_IB_USING = 20;
  private static final int N_SIDEBAND = 21;
  private static final int N_PER_LINE = 22;
  private static final int N_SOCKET_LIST = 23;
  private static final int N_OLD_IFACE = 24;
  private static final int N_GDR = 25;
  private static final int N_SOCKET_FOUND = 26;
  private static final int N_ERROR = 27;
  private static final int NET_INIT = 0x20; // NET/Plugin, NET/Socket, NET/IB: the process initialised its network
  private static final int NET_IB = 0x40;
  private static final int ROUTE = 0x1F;

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final NetTexts texts;
  private final ErrorMessages errors;
  private final GdrMessages gdrLines;
  private final OfiMessages ofiLines;
  private final EnvLines env;

  NetMessages(LogAccumulator acc, EvidenceSlot slot, NetTexts texts, ErrorMessages errors, GdrMessages gdrLines,
      EnvLines env) {
    this.acc = acc;
    this.slot = slot;
    this.texts = texts;
    this.errors = errors;
    this.gdrLines = gdrLines;
    this.ofiLines = new OfiMessages(acc, slot, errors);
    this.env = env;
  }

  /** The interface of an old "NET : Using interface eth0:..." line, if it names one. */
  private Optional<Iface> oldIface(String msg) {
    Matcher m = OLD_NET_IFACE.matcher(msg);
    return m.lookingAt() ? Optional.ofNullable(texts.ifaceOf(m.group(1))) : Optional.empty();
  }

  /** The network a 2.13+ "NET/<name> : GPU Direct RDMA ... for HCA" line names, if it is that line. */
  private static Optional<String> gdrNet(String msg) {
    Matcher n = GDR_HCA_NET.matcher(msg);
    return n.find() ? Optional.of(n.group(1).strip()) : Optional.empty();
  }

  /** Whether a route is one of this class's. */
  static boolean isNet(int route) {
    return (route & ROUTE) >= N_OFI;
  }

  private void slot(ProcessState p, int kind, String value) {
    slot.record(p, kind, value);
  }

  private final TextMemo<List<Hca>> perLineSeen = new TextMemo<>(1024, NetMessages::perLine);
  // old NCCL prints "NET : Using interface ..." per connection, 2.13+ the GDR line per HCA and
  // communicator: a repeated text is one lookup, not another match
  private final TextMemo<Optional<Iface>> oldIfaceSeen = new TextMemo<>(1024, this::oldIface);
  private final TextMemo<Optional<String>> gdrNetSeen = new TextMemo<>(1024, NetMessages::gdrNet);

  /** The HCA of "NET/IB : [0] mlx5_0:1/IB" (2.4-2.6 print one a line), remembered by text. */
  private static List<Hca> perLine(String msg) {
    Matcher m = IB_PER_LINE.matcher(msg);
    return m.lookingAt() ? NetTexts.hcas(" " + m.group(1)) : List.of();
  }



  /** The family of a "NET..." text (net()'s tests in their order) and what net() notes first. */
  int route(String msg) {
    boolean ib = msg.startsWith("NET/IB");
    int flags = (ib ? NET_IB : 0)
        | (ib || msg.startsWith("NET/Plugin") || msg.startsWith("NET/Socket") ? NET_INIT : 0);
    if (msg.startsWith("NET/OFI")) {
      return flags | N_OFI;
    }
    if (msg.startsWith("NET/Plugin")) {
      return flags | (EnvLines.isPluginEnv(msg) ? N_PLUGIN_ENV : N_PLUGIN);
    }
    if (msg.contains("No device found")) {
      return flags | N_NO_DEVICE;
    }
    if (texts.ibUsing(msg) != null) {
      return flags | N_IB_USING;
    }
    if (ib && msg.contains("sideband") && IB_SIDEBAND.matcher(msg).lookingAt()) {
      return flags | N_SIDEBAND;
    }
    if (ib && msg.indexOf('[') > 0 && IB_PER_LINE.matcher(msg).lookingAt()) {
      return flags | N_PER_LINE;
    }
    if (msg.startsWith("NET/Socket") && texts.socketIfaces(msg) != null) {
      return flags | N_SOCKET_LIST;
    }
    if ((msg.startsWith("NET ") || msg.startsWith("NET:")) && OLD_NET_IFACE.matcher(msg).lookingAt()) {
      return flags | N_OLD_IFACE;
    }
    if (msg.contains("GPU Direct RDMA")) {
      return flags | N_GDR;
    }
    if (msg.startsWith("NET/Socket") && msg.contains("interfaces found")) {
      return flags | N_SOCKET_FOUND;
    }
    return flags | N_ERROR;
  }


  /** The NET text at {@code text} in {@code seen} ({@link MessageTexts#NONE}: not kept), of this route. */
  boolean parse(ProcessState p, MessageTexts seen, int text, int route) {
    p.initSeen |= (route & NET_INIT) != 0;
    if ((route & NET_IB) != 0) {
      p.ibLogged = true;
    }
    if ((route & ROUTE) == N_ERROR) {
      return errors.parse(p, text); // decoded only if its meaning is not known yet
    }
    String msg = seen.text(text);
    Matcher m;
    switch (route & ROUTE) {
      case N_OFI -> {
        return ofiLines.parse(p, seen, text, msg);
      }
      case N_PLUGIN_ENV -> {
        env.pluginEnv(msg);
        return true;
      }
      case N_PLUGIN -> {
        errors.pluginLine(p, seen, text, msg);
        return true;
      }
      case N_NO_DEVICE -> {
        p.ibNoDeviceSeen = true;
        p.ibFailed |= (route & NET_IB) != 0;
        slot(p, HostEvidence.IB_NO_DEVICE, null);
        return true;
      }
      case N_IB_USING -> {
        NetTexts.IbUsing using = texts.ibUsing(seen, text, msg);
        if (using.hcas().isEmpty()) {
          p.hcaListEmpty = true;
        } else if (p.hcas == null) {
          p.hcas = using.hcas();
          p.relaxedOrdering = using.relaxedOrdering();
        }
        if (p.oob == null) {
          p.oob = p.evidence.share(using.oob());
        }
        seeAddress(using.oob());
        // what tells a node apart: how many HCAs, and the OOB interface
        slot(p, HostEvidence.IB_USING, using.evidenceValue());
        return true;
      }
      case N_SIDEBAND -> {
        if (p.oob == null && (m = IB_SIDEBAND.matcher(msg)).lookingAt()) {
          p.oob = new Iface(m.group(1), null);
        }
        slot(p, HostEvidence.IB_USING, null);
        return true;
      }
      case N_PER_LINE -> {
        List<Hca> hcas = perLineSeen.get(seen, text, msg);
        for (int i = 0, n = hcas.size(); i < n; i++) { // (no iterator allocated per line)
          p.addPerLineHca(hcas.get(i));
        }
        slot(p, HostEvidence.IB_USING, null);
        return true;
      }
      case N_SOCKET_LIST -> {
        Iface[] listed = texts.socketIfaces(seen, text, msg);
        if (p.socketIfaces == null) {
          List<Iface> ifs = new ArrayList<>();
          for (Iface f : listed) {
            ifs.add(p.evidence.share(f));
          }
          p.socketIfaces = ifs;
        } else if (listed != p.lastSocketList) {
          // another list in the same state (lines without a host, or a process that printed two)
          p.addSocketIfaces(listed);
        }
        p.lastSocketList = listed;
        for (Iface f : listed) {
          seeAddress(f);
        }
        p.socketListed = true;
        slot(p, HostEvidence.SOCKET, null);
        return true;
      }
      case N_OLD_IFACE -> {
        if (p.socketIfaces == null) {
          p.socketIfaces = new ArrayList<>();
        }
        Iface f = oldIfaceSeen.get(seen, text, msg).orElse(null);
        if (f != null) {
          // NCCL 2.3 prints at most MAX_IFS (16); the cap is the merge's, so that a process read
          // in two parts of a file keeps what it keeps read in one
          p.addSocketIface(f, ProcessState.MAX_SOCKET_IFACES);
        }
        slot(p, HostEvidence.SOCKET, null);
        return true;
      }
      case N_GDR -> {
        if (p.gdrHcaNet == null) {
          p.gdrHcaNet = gdrNetSeen.get(msg).orElse(null);
        }
        return gdrLines.parse(p, seen, text, msg); // (the slot is its memo's: asked on every line)
      }
      case N_SOCKET_FOUND -> {
        return true;
      }
      default -> {
        return errors.parse(p, text); // N_ERROR is taken above, undecoded
      }
    }
  }



  /** An interface NCCL listed: an IPv6 link-local or a loopback address is kept as evidence. */
  void seeAddress(Iface f) {
    if (f == null) {
      return;
    }
    if (f.isLinkLocal()) {
      slot.record(acc.linkLocal);
    }
    if (f.isLoopback()) {
      slot.record(acc.loopback);
    }
  }
}
