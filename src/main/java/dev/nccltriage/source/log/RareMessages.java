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
  private final GdrMessages gdrLines;
  private final OfiMessages ofiLines;
  private static final String[] NOT_ENV = new String[0];
  private final java.util.Map<String, String[]> envSeen = new java.util.HashMap<>();
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

  void version(String text) {
    version(null, text);
  }

  private void version(ProcessState p, String text) {
    Matcher m = VERSION.matcher(text);
    if (m.find()) {
      slot.record(acc.versions.computeIfAbsent(m.group(1), k -> new dev.nccltriage.evidence.EvidenceList()));
      if (p != null) {
        if (p.version == null) {
          p.version = m.group(1);
          p.initSeen = true;
        }
        slot.record(p.evidence, HostEvidence.VERSION, m.group(1));
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
    String msg = decoded != null && decodedFrom == from && decodedTo == to ? decoded : Bytes.text(b, from, to);
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

  boolean parse(ProcessState proc, byte[] b, int from, int to, MessageParser owner) {
    String msg = Bytes.text(b, from, to);
    decoded = msg;
    decodedFrom = from;
    decodedTo = to;
    char c = msg.charAt(0);
    if (c == 'N' && msg.startsWith("NCCL version")) {
      version(owner.p(proc), msg);
      return true;
    }
    if (c == 'N' && msg.startsWith("NET")) {
      return net(owner.p(proc), msg);
    }
    if (c == 'N' && msg.startsWith("NCCL_")) {
      // every process echoes the same settings: one lookup per repeated text
      String[] nameValue = envSeen.get(msg);
      if (nameValue == null) {
        Matcher m = ENV.matcher(msg);
        nameValue = m.find() ? new String[] {m.group(1), m.group(2)} : NOT_ENV;
        if (envSeen.size() >= 16384) {
          envSeen.clear();
        }
        envSeen.put(msg, nameValue);
      }
      if (nameValue != NOT_ENV) {
        env(nameValue[0], nameValue[1]);
        return true;
      }
    }
    if (c == 'B' && msg.startsWith("Bootstrap")) {
      ProcessState p = owner.p(proc);
      Iface[] ifaces = texts.bootstrapIfaces(msg);
      if (ifaces != null) {
        p.initSeen = true;
        Iface first = ifaces[0];
        if (p.bootstrap == null) {
          p.bootstrap = p.evidence.share(first);
        }
        for (Iface f : ifaces) {
          seeAddress(f);
        }
        slot.record(p.evidence, HostEvidence.BOOTSTRAP, first == null ? null : first.name());
        return true;
      }
      return errors.parse(p, msg);
    }
    if (msg.contains("GPU Direct RDMA")) {
      return gdrLines.parse(owner.p(proc), msg);
    }
    if (c == 'C' && msg.startsWith("CUDA Dev ")) {
      Matcher m = NIC_DISTANCE.matcher(msg);
      if (m.find()) {
        ProcessState p = owner.p(proc);
        if (p.nicDistanceNet == null) {
          p.nicDistanceNet = m.group(1);
        }
        slot.record(p.evidence, HostEvidence.NETWORK, p.nicDistanceNet);
        return true;
      }
    }
    if (c == 'D' && msg.startsWith("DMA-BUF is available")) {
      slot.record(acc.dmabuf);
      return true;
    }
    Matcher pe = msg.contains(PLUGIN_ENV_TEXT) ? PLUGIN_ENV.matcher(msg) : null;
    if (pe != null && pe.find()) {
      env("NCCL_NET_PLUGIN", pe.group(1));
      return true;
    }
    return errors.parse(owner.p(proc), msg);
  }

  private boolean net(ProcessState p, String msg) {
    p.initSeen |= msg.startsWith("NET/Plugin") || msg.startsWith("NET/Socket") || msg.startsWith("NET/IB");
    if (msg.startsWith("NET/IB")) {
      p.ibLogged = true;
    }
    if (msg.startsWith("NET/OFI")) {
      return ofiLines.parse(p, msg);
    }
    if (msg.startsWith("NET/Plugin")) {
      // printed by every process: only a few shapes matter here
      Matcher pe = msg.contains(PLUGIN_ENV_TEXT) ? PLUGIN_ENV.matcher(msg) : null;
      if (pe != null && pe.find()) {
        env("NCCL_NET_PLUGIN", pe.group(1));
        return true;
      }
      errors.pluginLine(p, msg);
      return true;
    }
    if (msg.contains("No device found")) {
      p.ibNoDeviceSeen = true;
      p.ibFailed |= msg.startsWith("NET/IB");
      slot.record(p.evidence, HostEvidence.IB_NO_DEVICE, null);
      return true;
    }
    NetTexts.IbUsing using = texts.ibUsing(msg);
    if (using != null) {
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
      slot.record(p.evidence, HostEvidence.IB_USING, using.hcas().size() + (using.oob() == null ? "" : " " + using.oob().name()));
      return true;
    }
    Matcher m;
    // each anchored expression runs only where its literal start is (lookingAt: no scan)
    boolean ib = msg.startsWith("NET/IB");
    if (ib && msg.contains("sideband") && (m = IB_SIDEBAND.matcher(msg)).lookingAt()) {
      if (p.oob == null) {
        p.oob = new Iface(m.group(1), null);
      }
      slot.record(p.evidence, HostEvidence.IB_USING, null);
      return true;
    }
    if (ib && msg.indexOf('[') > 0 && (m = IB_PER_LINE.matcher(msg)).lookingAt()) {
      for (Hca h : NetTexts.hcas(" " + m.group(1))) {
        p.addPerLineHca(h);
      }
      slot.record(p.evidence, HostEvidence.IB_USING, null);
      return true;
    }
    Iface[] listed = msg.startsWith("NET/Socket") ? texts.socketIfaces(msg) : null;
    if (listed != null) {
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
      slot.record(p.evidence, HostEvidence.SOCKET, null);
      return true;
    }
    if ((msg.startsWith("NET ") || msg.startsWith("NET:")) && (m = OLD_NET_IFACE.matcher(msg)).lookingAt()) {
      Iface f = texts.ifaceOf(m.group(1));
      if (p.socketIfaces == null) {
        p.socketIfaces = new ArrayList<>();
      }
      if (f != null && !p.socketIfaces.contains(f) && p.socketIfaces.size() < 16) {
        p.socketIfaces.add(f);
      }
      slot.record(p.evidence, HostEvidence.SOCKET, null);
      return true;
    }
    if (msg.contains("GPU Direct RDMA")) {
      Matcher n = GDR_HCA_NET.matcher(msg);
      if (n.find() && p.gdrHcaNet == null) {
        p.gdrHcaNet = n.group(1).strip();
      }
      return gdrLines.parse(p, msg);
    }
    if (msg.startsWith("NET/Socket") && msg.contains("interfaces found")) {
      return true;
    }
    return errors.parse(p, msg);
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
    String v = value.strip();
    if (v.endsWith(".") && isInteger(v, v.length() - 1)) {
      v = v.substring(0, v.length() - 1);
    }
    slot.record(acc.env(name, v));
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
