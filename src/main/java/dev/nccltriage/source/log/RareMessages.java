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
  private static final Pattern SOCKET_USING = Pattern.compile("^NET/Socket ?: Using((?: \\[\\d+\\]\\S+)+)");
  private static final Pattern SOCKET_ENTRY = Pattern.compile("\\[\\d+\\](\\S+)");
  private static final Pattern OLD_NET_IFACE = Pattern.compile("^NET ?: Using interface (\\S+)");
  private static final Pattern BOOTSTRAP = Pattern.compile("^Bootstrap ?: Using (?:\\[\\d+\\])?(\\S+)");
  private static final Pattern GDR_NO_MODULE =
      Pattern.compile("GPU Direct RDMA Disabled for HCA \\d+ '[^']*' \\(no module\\)");
  private static final Pattern GDR_NIC =
      Pattern.compile("^NET/.+? : GPU Direct RDMA (Enabled|Disabled) for HCA \\d+ '[^']*'$");
  private static final Pattern GDR_DISTANCE =
      Pattern.compile("GPU Direct RDMA (Enabled|Disabled) for .*?[(,] ?distance (\\d+) (<=|>=|>|<) (\\d+)");
  private static final Pattern GDR_PLUGIN =
      Pattern.compile("GPU Direct RDMA \\((?:nvidia-peermem|DMABUF)\\) enabled for HCA");
  private static final Pattern ENV =
      Pattern.compile("^(NCCL_[A-Z0-9_]+) set (?:by environment )?to (.*?)$");
  private static final String PLUGIN_ENV_TEXT = "Plugin name set by env to ";
  private static final Pattern PLUGIN_ENV =
      Pattern.compile("(?:NET/Plugin ?: )?Plugin name set by env to (\\S+)");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final ErrorMessages errors;
  private final NetTexts texts = new NetTexts();

  RareMessages(LogAccumulator acc, EvidenceSlot slot) {
    this.acc = acc;
    this.slot = slot;
    this.errors = new ErrorMessages(acc, slot);
  }

  void version(String text) {
    Matcher m = VERSION.matcher(text);
    if (m.find()) {
      slot.record(acc.versions.computeIfAbsent(m.group(1), k -> new dev.nccltriage.evidence.EvidenceList()));
    }
  }

  private static final String[] STARTS = {
    "NET", "NCCL", "Bootstrap", "GPU Direct", "DMA-BUF", "Call to", "Failed to", "Count not",
    "External network", "Error: network", "Plugin name", "P2P plugin", "Successfully loaded", "Plugin Path"
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

  boolean parse(ProcessState proc, byte[] b, int from, int to, MessageParser owner) {
    String msg = Bytes.text(b, from, to);
    char c = msg.charAt(0);
    if (c == 'N' && msg.startsWith("NCCL version")) {
      version(msg);
      return true;
    }
    if (c == 'N' && msg.startsWith("NET")) {
      return net(owner.p(proc), msg);
    }
    if (c == 'N' && msg.startsWith("NCCL_")) {
      Matcher m = ENV.matcher(msg);
      if (m.find()) {
        env(m.group(1), m.group(2));
        return true;
      }
    }
    if (c == 'B' && msg.startsWith("Bootstrap")) {
      Matcher m = BOOTSTRAP.matcher(msg);
      ProcessState p = owner.p(proc);
      if (m.find()) {
        if (p.bootstrap == null) {
          p.bootstrap = texts.ifaceOf(m.group(1));
        }
        slot.record(p.bootstrapEvidence);
        return true;
      }
      return errors.parse(p, msg);
    }
    if (msg.contains("GPU Direct RDMA")) {
      return gdr(msg);
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
    if (msg.startsWith("NET/IB")) {
      p.ibLogged = true;
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
      slot.record(p.ibNoDevice);
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
        p.oob = using.oob();
      }
      slot.record(p.ibUsingEvidence);
      return true;
    }
    Matcher m;
    if ((m = IB_SIDEBAND.matcher(msg)).find()) {
      if (p.oob == null) {
        p.oob = new Iface(m.group(1), null);
      }
      slot.record(p.ibUsingEvidence);
      return true;
    }
    if ((m = IB_PER_LINE.matcher(msg)).find()) {
      for (Hca h : NetTexts.hcas(" " + m.group(1))) {
        if (p.perLineHcas.stream().noneMatch(x -> x.name().equals(h.name()) && x.port() == h.port())) {
          p.perLineHcas.add(h);
          p.perLineHcas.sort(java.util.Comparator.comparingInt(Hca::index));
        }
      }
      slot.record(p.ibUsingEvidence);
      return true;
    }
    if ((m = SOCKET_USING.matcher(msg)).find()) {
      List<Iface> ifs = new ArrayList<>();
      Matcher e = SOCKET_ENTRY.matcher(m.group(1));
      while (e.find()) {
        ifs.add(texts.ifaceOf(e.group(1)));
      }
      if (p.socketIfaces == null) {
        p.socketIfaces = ifs;
      }
      slot.record(p.socketEvidence);
      return true;
    }
    if ((m = OLD_NET_IFACE.matcher(msg)).find()) {
      Iface f = texts.ifaceOf(m.group(1));
      if (p.socketIfaces == null) {
        p.socketIfaces = new ArrayList<>();
      }
      if (!p.socketIfaces.contains(f) && p.socketIfaces.size() < 16) {
        p.socketIfaces.add(f);
      }
      slot.record(p.socketEvidence);
      return true;
    }
    if (msg.contains("GPU Direct RDMA")) {
      return gdr(msg);
    }
    if (msg.startsWith("NET/Socket") && msg.contains("interfaces found")) {
      return true;
    }
    return errors.parse(p, msg);
  }


  private boolean gdr(String msg) {
    if (GDR_NO_MODULE.matcher(msg).find()) {
      slot.record(acc.gdr(false, "no-module", null, null).evidence);
      return true;
    }
    Matcher m = GDR_DISTANCE.matcher(msg);
    if (m.find()) {
      boolean enabled = m.group(1).equals("Enabled");
      slot.record(acc.gdr(enabled, enabled ? "enabled" : "distance",
          Integer.valueOf(m.group(2)), Integer.valueOf(m.group(4))).evidence);
      return true;
    }
    if ((m = GDR_NIC.matcher(msg)).find()) {
      boolean enabled = m.group(1).equals("Enabled");
      slot.record(acc.gdr(enabled, enabled ? "enabled" : "nic", null, null).evidence);
      return true;
    }
    if (GDR_PLUGIN.matcher(msg).find()) {
      slot.record(acc.gdr(true, "enabled", null, null).evidence);
      return true;
    }
    return false;
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
