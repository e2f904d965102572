package dev.nccltriage.source.log;

import dev.nccltriage.facts.Hca;
import dev.nccltriage.facts.Iface;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Message families printed once per process or on failure: device lists, interfaces, GDR
 * decisions, echoed environment; error signatures go to {@link ErrorMessages}. Regular
 * expressions are fine here.
 */
final class RareMessages {
  private static final Pattern VERSION =
      Pattern.compile("NCCL version (\\d+\\.\\d+\\.\\d+[^\\s+]*(?:\\+cuda\\d+\\.\\d+)?)");
  private static final Pattern IB_SIDEBAND =
      Pattern.compile("^NET/IB ?: Using interface (\\S+) for sideband communication");
  private static final Pattern IB_PER_LINE = Pattern.compile("^NET/IB ?: (\\[\\d+\\] ?\\S+:\\d+/\\S+)$");
  private static final Pattern OLD_NET_IFACE = Pattern.compile("^NET ?: Using interface (\\S+)");
  private static final Pattern BOOTSTRAP = Pattern.compile("^Bootstrap ?: Using (?:\\[\\d+\\])?(\\S+)(.*)$");
  private static final Pattern FRAMEWORK_VERSION =
      Pattern.compile("^\\s*\\(?\\s*(\\d{1,3})[.,]\\s*(\\d{1,3})[.,]\\s*(\\d{1,4})");
  private static final Pattern NIC_DISTANCE = Pattern.compile("^CUDA Dev \\d+\\[\\d+\\], (\\S+) NIC distance");
  private static final Pattern GDR_HCA_NET = Pattern.compile("^NET/(.+?) ?: GPU Direct RDMA (?:Enabled|Disabled) for HCA");
  private static final Pattern ENV =
      Pattern.compile("^(NCCL_[A-Z0-9_]+) set (?:by environment )?to (.*?)$");
  private static final String PLUGIN_ENV_TEXT = "Plugin name set by env to ";
  private static final Pattern PLUGIN_ENV =
      Pattern.compile("(?:NET/Plugin ?: )?Plugin name set by env to (\\S+)");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final ErrorMessages errors;
  private final NetTexts texts = new NetTexts();
  private final MessageTexts seen = new MessageTexts();
  private final GdrMessages gdrLines;
  private final OfiMessages ofiLines;
  private static final dev.nccltriage.evidence.EvidenceList NOT_ENV = new dev.nccltriage.evidence.EvidenceList();
  /** An env text's entry in this parser's accumulator (NOT_ENV: not an env line). */
  private final java.util.Map<String, dev.nccltriage.evidence.EvidenceList> envSeen = new java.util.HashMap<>();
  private String decoded; // the message parse() decoded last, at [decodedFrom, decodedTo)
  private int decodedFrom;
  private int decodedTo;

  RareMessages(LogAccumulator acc, EvidenceSlot slot) {
    this.acc = acc;
    this.slot = slot;
    this.errors = new ErrorMessages(acc, slot);
    this.gdrLines = new GdrMessages(acc, slot);
    this.ofiLines = new OfiMessages(acc, slot, errors);
  }

  /** The bare "NCCL version 2.x.y+cudaX.Y" line (2.21+ prints it without a prefix) at b[from, to). */
  void version(byte[] b, int from, int to) {
    version(null, seen.text(seen.find(b, from, to)));
  }

  private static final String NO_VERSION = new String("none"); // compared by identity
  private final java.util.Map<String, String> versionSeen = new java.util.HashMap<>();

  private void version(ProcessState p, String text) {
    // every process prints the same line: the expression runs once per text
    String v = versionSeen.get(text);
    if (v == null) {
      Matcher m = VERSION.matcher(text);
      v = m.find() ? m.group(1) : NO_VERSION;
      if (versionSeen.size() >= 1024) {
        versionSeen.clear();
      }
      versionSeen.put(text, v);
    }
    if (v != NO_VERSION) {
      slot.record(acc.versions.computeIfAbsent(v, k -> new dev.nccltriage.evidence.EvidenceList()));
      if (p != null) {
        if (p.version == null) {
          p.version = v;
          p.initSeen = true;
        }
        slot.record(p.evidence, HostEvidence.VERSION, v);
      }
    }
  }

  /** A framework's "NCCL version: 2.18.1" / "(2, 18, 1)": used only when NCCL's own line is absent. */
  void frameworkVersion(String text) {
    Matcher m = FRAMEWORK_VERSION.matcher(text);
    if (m.find()) {
      // at most 3-4 digits a part (the pattern's bounds): never out of range
      String v = Integer.parseInt(m.group(1)) + "." + Integer.parseInt(m.group(2)) + "." + Integer.parseInt(m.group(3));
      slot.record(acc.frameworkVersions.computeIfAbsent(v, k -> new dev.nccltriage.evidence.EvidenceList()));
    }
  }

  /** A WARN line: counted, and a failure unless it is one of the probes NCCL recovers from. */
  void warn(ProcessState p, byte[] b, int from, int to, boolean known) {
    slot.record(acc.warnings);
    // the text parse() decoded for this line, if it did: one String (and one hash) per line
    String msg = decoded != null && decodedFrom == from && decodedTo == to ? decoded : seen.text(seen.find(b, from, to));
    decoded = null;
    if (!known && !msg.isEmpty()) {
      errors.parse(p, msg); // a WARN's error signature may start with anything ("socketStartConnect: ...")
    }
    if (!errors.isRecoverable(msg)) {
      slot.record(acc.failures);
    }
  }

  private static final String[] STARTS = {
    "NET", "NCCL", "Bootstrap", "GPU Direct", "DMA-BUF", "Call to", "Failed to", "Count not",
    "External network", "Error: network", "Plugin name", "P2P plugin", "Successfully loaded", "Plugin Path",
    "CUDA Dev", "Cuda failure", "Connect to", "Invalid rank", "Proxy Call"
  };
  /** STARTS by first byte: a message is compared with the two or three that can match. */
  private static final byte[][][] STARTS_BY_FIRST = new byte[128][][];

  static {
    for (String start : STARTS) {
      byte[][] old = STARTS_BY_FIRST[start.charAt(0)];
      byte[][] grown = old == null ? new byte[1][] : java.util.Arrays.copyOf(old, old.length + 1);
      grown[grown.length - 1] = Bytes.ascii(start);
      STARTS_BY_FIRST[start.charAt(0)] = grown;
    }
  }

  private static final byte[] BACKTRACE_ARROW = Bytes.ascii(" -> ");

  /** A cheap test before decoding: most unknown INFO lines (affinity, trees, tuning) stop here. */
  static boolean mayMatch(byte[] b, int from, int to) {
    byte[][] starts = b[from] >= 0 ? STARTS_BY_FIRST[b[from]] : null;
    if (starts != null) {
      for (byte[] s : starts) {
        if (Bytes.startsWith(b, from, to, s)) {
          return true;
        }
      }
    }
    // a backtrace line "transport/net_ib.cc:368 -> 2" starts with a source path
    int dot = Bytes.indexOfByte(b, from, Math.min(to, from + 48), (byte) '.');
    if (dot < 0 || dot + 3 >= to || b[dot + 1] != 'c' && b[dot + 1] != 'h') {
      return false;
    }
    int arrow = Bytes.indexOf(b, dot, Math.min(to, from + 80), BACKTRACE_ARROW);
    return arrow > from && (Bytes.isDigit(b[arrow - 1]) || b[arrow - 1] == ')');
  }

  /** Drops the text parse() kept: a new line begins (the reader reuses its buffer). */
  void newLine() {
    decoded = null;
  }

  // The family of a text, decided once per distinct text (a function of the text alone) and
  // replayed for every process that prints it. NET texts add flags for what net() notes first.
  private static final int R_VERSION = 1;
  private static final int R_ENV = 2;
  private static final int R_BOOTSTRAP = 3;
  private static final int R_BOOTSTRAP_ERROR = 4;
  private static final int R_GDR = 5;
  private static final int R_CUDA_DEV = 6;
  private static final int R_DMABUF = 7;
  private static final int R_PLUGIN_ENV = 8;
  private static final int R_ERROR = 9;
  private static final int N_OFI = 16;
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

  boolean parse(ProcessState proc, byte[] b, int from, int to, MessageParser owner) {
    int slot = seen.find(b, from, to);
    String msg = seen.text(slot);
    decoded = msg;
    decodedFrom = from;
    decodedTo = to;
    int route = seen.route(slot);
    if (route == 0) {
      route = route(msg);
      seen.route(slot, route);
    }
    if ((route & ROUTE) >= N_OFI) {
      return net(owner.p(proc), msg, route);
    }
    switch (route) {
      case R_VERSION -> {
        version(owner.p(proc), msg);
        return true;
      }
      case R_ENV -> {
        this.slot.record(envOf(msg));
        return true;
      }
      case R_BOOTSTRAP -> {
        ProcessState p = owner.p(proc);
        Iface[] ifaces = texts.bootstrapIfaces(msg);
        p.initSeen = true;
        Iface first = ifaces[0];
        if (p.bootstrap == null) {
          p.bootstrap = p.evidence.share(first);
        }
        for (Iface f : ifaces) {
          seeAddress(f);
        }
        slot(p, HostEvidence.BOOTSTRAP, first == null ? null : first.name());
        return true;
      }
      case R_GDR -> {
        return gdrLines.parse(owner.p(proc), msg);
      }
      case R_CUDA_DEV -> {
        ProcessState p = owner.p(proc);
        if (p.nicDistanceNet == null) {
          Matcher m = NIC_DISTANCE.matcher(msg);
          p.nicDistanceNet = m.find() ? m.group(1) : null;
        }
        slot(p, HostEvidence.NETWORK, p.nicDistanceNet);
        return true;
      }
      case R_DMABUF -> {
        this.slot.record(acc.dmabuf);
        return true;
      }
      case R_PLUGIN_ENV -> {
        pluginEnv(msg);
        return true;
      }
      default -> {
        return errors.parse(owner.p(proc), msg); // R_ERROR, R_BOOTSTRAP_ERROR
      }
    }
  }

  private void slot(ProcessState p, int kind, String value) {
    this.slot.record(p.evidence, kind, value);
  }

  /** Which family a text belongs to: the tests of parse() in their order, on the text alone. */
  private int route(String msg) {
    char c = msg.charAt(0);
    if (c == 'N' && msg.startsWith("NCCL version")) {
      return R_VERSION;
    }
    if (c == 'N' && msg.startsWith("NET")) {
      return netRoute(msg);
    }
    if (c == 'N' && msg.startsWith("NCCL_")) {
      if (envOf(msg) != NOT_ENV) {
        return R_ENV;
      }
    }
    if (c == 'B' && msg.startsWith("Bootstrap")) {
      return texts.bootstrapIfaces(msg) != null ? R_BOOTSTRAP : R_BOOTSTRAP_ERROR;
    }
    if (msg.contains("GPU Direct RDMA")) {
      return R_GDR;
    }
    if (c == 'C' && msg.startsWith("CUDA Dev ") && NIC_DISTANCE.matcher(msg).find()) {
      return R_CUDA_DEV;
    }
    if (c == 'D' && msg.startsWith("DMA-BUF is available")) {
      return R_DMABUF;
    }
    if (msg.contains(PLUGIN_ENV_TEXT) && PLUGIN_ENV.matcher(msg).find()) {
      return R_PLUGIN_ENV;
    }
    return R_ERROR;
  }

  private final java.util.Map<String, List<Hca>> perLineSeen = new java.util.HashMap<>();

  /** The HCA of "NET/IB : [0] mlx5_0:1/IB" (2.4-2.6 print one a line), remembered by text. */
  private List<Hca> perLineHcas(String msg) {
    List<Hca> hcas = perLineSeen.get(msg);
    if (hcas == null) {
      Matcher m = IB_PER_LINE.matcher(msg);
      hcas = m.lookingAt() ? NetTexts.hcas(" " + m.group(1)) : List.of();
      if (perLineSeen.size() >= 1024) {
        perLineSeen.clear();
      }
      perLineSeen.put(msg, hcas);
    }
    return hcas;
  }

  /** The entry of "NCCL_X set by environment to V", else NOT_ENV; every process echoes the same texts. */
  private dev.nccltriage.evidence.EvidenceList envOf(String msg) {
    dev.nccltriage.evidence.EvidenceList list = envSeen.get(msg);
    if (list == null) {
      Matcher m = ENV.matcher(msg);
      list = m.find() ? envList(m.group(1), m.group(2)) : NOT_ENV;
      if (envSeen.size() >= 16384) {
        envSeen.clear();
      }
      envSeen.put(msg, list);
    }
    return list;
  }

  private void pluginEnv(String msg) {
    Matcher pe = PLUGIN_ENV.matcher(msg);
    if (pe.find()) {
      env("NCCL_NET_PLUGIN", pe.group(1));
    }
  }

  /** The family of a "NET..." text (net()'s tests in their order) and what net() notes first. */
  private int netRoute(String msg) {
    boolean ib = msg.startsWith("NET/IB");
    int flags = (ib ? NET_IB : 0)
        | (ib || msg.startsWith("NET/Plugin") || msg.startsWith("NET/Socket") ? NET_INIT : 0);
    if (msg.startsWith("NET/OFI")) {
      return flags | N_OFI;
    }
    if (msg.startsWith("NET/Plugin")) {
      return flags | (msg.contains(PLUGIN_ENV_TEXT) && PLUGIN_ENV.matcher(msg).find() ? N_PLUGIN_ENV : N_PLUGIN);
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

  private boolean net(ProcessState p, String msg, int route) {
    p.initSeen |= (route & NET_INIT) != 0;
    if ((route & NET_IB) != 0) {
      p.ibLogged = true;
    }
    Matcher m;
    switch (route & ROUTE) {
      case N_OFI -> {
        return ofiLines.parse(p, msg);
      }
      case N_PLUGIN_ENV -> {
        pluginEnv(msg);
        return true;
      }
      case N_PLUGIN -> {
        errors.pluginLine(p, msg);
        return true;
      }
      case N_NO_DEVICE -> {
        p.ibNoDeviceSeen = true;
        p.ibFailed |= (route & NET_IB) != 0;
        slot(p, HostEvidence.IB_NO_DEVICE, null);
        return true;
      }
      case N_IB_USING -> {
        NetTexts.IbUsing using = texts.ibUsing(msg);
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
        for (Hca h : perLineHcas(msg)) {
          p.addPerLineHca(h);
        }
        slot(p, HostEvidence.IB_USING, null);
        return true;
      }
      case N_SOCKET_LIST -> {
        Iface[] listed = texts.socketIfaces(msg);
        if (p.socketIfaces == null) {
          List<Iface> ifs = new ArrayList<>();
          for (Iface f : listed) {
            ifs.add(p.evidence.share(f));
          }
          p.socketIfaces = ifs;
        }
        for (Iface f : listed) {
          seeAddress(f);
        }
        p.socketListed = true;
        slot(p, HostEvidence.SOCKET, null);
        return true;
      }
      case N_OLD_IFACE -> {
        if ((m = OLD_NET_IFACE.matcher(msg)).lookingAt()) {
          Iface f = texts.ifaceOf(m.group(1));
          if (p.socketIfaces == null) {
            p.socketIfaces = new ArrayList<>();
          }
          if (f != null && !p.socketIfaces.contains(f) && p.socketIfaces.size() < 16) {
            p.socketIfaces.add(f);
          }
        }
        slot(p, HostEvidence.SOCKET, null);
        return true;
      }
      case N_GDR -> {
        if (p.gdrHcaNet == null) {
          Matcher n = GDR_HCA_NET.matcher(msg);
          if (n.find()) {
            p.gdrHcaNet = n.group(1).strip();
          }
        }
        return gdrLines.parse(p, msg);
      }
      case N_SOCKET_FOUND -> {
        return true;
      }
      default -> {
        return errors.parse(p, msg);
      }
    }
  }


  /** An interface NCCL listed: an IPv6 link-local or a loopback address is kept as evidence. */
  private void seeAddress(Iface f) {
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

  private void env(String name, String value) {
    slot.record(envList(name, value));
  }

  private dev.nccltriage.evidence.EvidenceList envList(String name, String value) {
    String v = value.strip();
    if (v.endsWith(".") && isInteger(v, v.length() - 1)) {
      v = v.substring(0, v.length() - 1);
    }
    return acc.env(name, v);
  }


  /** Whether s[0, end) is "-?digits" (NCCL ends "NCCL_X set by environment to 0." with a dot). */
  private static boolean isInteger(String s, int end) {
    int i = end > 0 && s.charAt(0) == '-' ? 1 : 0;
    if (i == end) {
      return false;
    }
    for (; i < end; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
