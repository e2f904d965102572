package dev.nccltriage.source.log;

import dev.nccltriage.facts.Iface;
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
  private static final Pattern FRAMEWORK_VERSION =
      Pattern.compile("^\\s*\\(?\\s*(\\d{1,3})[.,]\\s*(\\d{1,3})[.,]\\s*(\\d{1,4})");
  private static final Pattern NIC_DISTANCE = Pattern.compile("^CUDA Dev \\d+\\[\\d+\\], (\\S+) NIC distance");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final ErrorMessages errors;
  private final NetTexts texts = new NetTexts();
  private final MessageTexts seen;
  private final GdrMessages gdrLines;
  private final EnvLines env;
  private final NetMessages net;
  private boolean parsed; // parse() looked up the text at [parsedFrom, parsedTo): its slot
  private int parsedFrom;
  private int parsedTo;
  private int parsedSlot;

  RareMessages(LogAccumulator acc, EvidenceSlot slot, MessageTexts seen) {
    this.acc = acc;
    this.seen = seen;
    this.slot = slot;
    this.errors = new ErrorMessages(acc, slot, seen);
    this.gdrLines = new GdrMessages(acc, slot);
    this.env = new EnvLines(acc, slot);
    this.net = new NetMessages(acc, slot, texts, errors, gdrLines, env);
  }

  /** The bare "NCCL version 2.x.y+cudaX.Y" line (2.21+ prints it without a prefix) at b[from, to). */
  void version(byte[] b, int from, int to) {
    int text = seen.find(b, from, to);
    version(null, text, seen.text(text));
  }

  private static final String NO_VERSION = new String("none"); // compared by identity
  private final TextMemo<String> versionSeen = new TextMemo<>(1024, RareMessages::versionOf);

  private static String versionOf(String text) {
    Matcher m = VERSION.matcher(text);
    return m.find() ? m.group(1) : NO_VERSION;
  }

  private void version(ProcessState p, int at, String text) {
    // every process prints the same line: the expression runs once per text
    String v = versionSeen.get(seen, at, text);
    if (v != NO_VERSION) {
      slot.record(acc.version(v));
      if (p != null) {
        if (p.version == null) {
          p.version = v;
          p.initSeen = true;
        }
        slot.record(p, HostEvidence.VERSION, v);
      }
    }
  }

  /** A framework's "NCCL version: 2.18.1" / "(2, 18, 1)": used only when NCCL's own line is absent. */
  void frameworkVersion(String text) {
    Matcher m = FRAMEWORK_VERSION.matcher(text);
    if (m.find()) {
      // at most 3-4 digits a part (the pattern's bounds): never out of range
      String v = Integer.parseInt(m.group(1)) + "." + Integer.parseInt(m.group(2)) + "." + Integer.parseInt(m.group(3));
      slot.record(acc.frameworkVersion(v));
    }
  }

  /**
   * A WARN line: counted, and a failure unless it is one of the probes NCCL recovers from.
   * {@code text}: the text's slot in {@link MessageTexts}, or below {@link MessageTexts#NONE} if not looked up.
   */
  void warn(ProcessState p, byte[] b, int from, int to, boolean known, int text) {
    slot.record(acc.warnings);
    p.wrongLine = true;
    // the text parse() looked up for this line, if it did: one hash per line
    boolean same = parsed && parsedFrom == from && parsedTo == to;
    int s = same ? parsedSlot : seen.slot(text, b, from, to);
    parsed = false;
    if (!known && to > from) {
      errors.parse(p, s); // a WARN's error signature may start with anything ("socketStartConnect: ...")
    }
    if (!errors.isRecoverable(s)) {
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

  private static final byte[] BOOTSTRAP_TIMINGS = Bytes.ascii("Bootstrap timings ");

  /** A cheap test before decoding: most unknown INFO lines (affinity, trees, tuning) stop here. */
  static boolean mayMatch(byte[] b, int from, int to) {
    byte[][] starts = b[from] >= 0 ? STARTS_BY_FIRST[b[from]] : null;
    if (starts != null && to - from > 1) {
      for (byte[] s : starts) {
        // the second byte first, inline: most texts share a first letter with a start, not two
        if (b[from + 1] == s[1] && Bytes.startsWith(b, from, to, s)) {
          return b[from] != 'B' || !timingsOnly(b, from, to);
        }
      }
    }
    // a backtrace line "transport/net_ib.cc:368 -> 2" starts with a source path: its first
    // dot comes before the text's first space
    int dot = Bytes.indexOfEither(b, from, Math.min(to, from + 48), (byte) '.', (byte) ' ');
    if (dot < 0 || b[dot] != '.' || dot + 3 >= to || b[dot + 1] != 'c' && b[dot + 1] != 'h') {
      return false;
    }
    int arrow = Bytes.indexOf(b, dot, Math.min(to, from + 80), BACKTRACE_ARROW);
    return arrow > from && (Bytes.isDigit(b[arrow - 1]) || b[arrow - 1] == ')');
  }

  /**
   * 2.23+'s "Bootstrap timings total %f (create %f, ...)", once per rank and communicator (the
   * BOOTSTRAP subsystem is in the default mask), each with numbers of its own: no family claims it
   * (the Bootstrap family reads "Bootstrap : Using"), and with no guard word no error signature
   * does (classify answers UNKNOWN), so what parse() would make of it is nothing, at the cost of a
   * new text kept, decoded and classified on every line.
   */
  private static boolean timingsOnly(byte[] b, int from, int to) {
    return Bytes.startsWith(b, from, to, BOOTSTRAP_TIMINGS) && GuardWords.of(b, from, to) == 0;
  }

  /** Drops the text parse() kept: a new line begins (the reader reuses its buffer). */
  void newLine() {
    parsed = false;
  }

  // The family of a text, decided once per distinct text (a function of the text alone) and
  // replayed for every process that prints it; NetMessages has the NET families (16 and up).
  private static final int R_VERSION = 1;
  private static final int R_ENV = 2;
  private static final int R_BOOTSTRAP = 3;
  private static final int R_BOOTSTRAP_ERROR = 4;
  private static final int R_GDR = 5;
  private static final int R_CUDA_DEV = 6;
  private static final int R_PLUGIN_ENV = 7;
  private static final int R_ERROR = 8;
  // ("DMA-BUF is available" never gets here: MessageParser takes it by its first bytes)

  /** {@code text}: the slot of b[from, to) in {@link MessageTexts}, or below {@link MessageTexts#NONE} if not looked up. */
  boolean parse(ProcessState proc, byte[] b, int from, int to, MessageParser owner, int text) {
    int slot = seen.slot(text, b, from, to);
    parsed = true;
    parsedSlot = slot;
    parsedFrom = from;
    parsedTo = to;
    int route = seen.route(slot);
    if (route == 0) {
      // a text with a peer address has its masked text's route: the tests that decide a route read
      // words, and digits only as \\d+ (an address masked is still one)
      int masked = seen.masked(slot);
      route = masked >= 0 ? seen.masks().route(masked) : 0;
      if (route == 0) {
        route = route(seen.text(slot));
        if (masked >= 0) {
          seen.masks().route(masked, route);
        }
      }
      seen.route(slot, route);
    }
    if (NetMessages.isNet(route)) {
      return net.parse(owner.p(proc), seen, slot, route);
    }
    if (route == R_ERROR || route == R_BOOTSTRAP_ERROR) {
      // the text itself is decoded only if its meaning is not known yet (a new peer's error is not)
      return errors.parse(owner.p(proc), slot);
    }
    String msg = seen.text(slot);
    switch (route) {
      case R_VERSION -> {
        version(owner.p(proc), slot, msg);
        return true;
      }
      case R_ENV -> {
        env.env(seen, slot, msg);
        return true;
      }
      case R_BOOTSTRAP -> {
        ProcessState p = owner.p(proc);
        Iface[] ifaces = texts.bootstrapIfaces(seen, slot, msg);
        p.initSeen = true;
        Iface first = ifaces[0];
        if (p.bootstrap == null) {
          p.bootstrap = p.evidence.share(first);
        }
        for (Iface f : ifaces) {
          net.seeAddress(f);
        }
        slot(p, HostEvidence.BOOTSTRAP, first == null ? null : first.name());
        return true;
      }
      case R_GDR -> {
        return gdrLines.parse(owner.p(proc), seen, slot, msg);
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
      case R_PLUGIN_ENV -> {
        env.pluginEnv(msg);
        return true;
      }
      default -> {
        return false; // no route has no family
      }
    }
  }

  private void slot(ProcessState p, int kind, String value) {
    this.slot.record(p, kind, value);
  }

  /**
   * Which family a text belongs to: the tests of parse() in their order, on the text alone. Words
   * decide it, and digits only as runs of any, so a masked form's route is its texts'.
   */
  int route(String msg) {
    char c = msg.charAt(0);
    if (c == 'N' && msg.startsWith("NCCL version")) {
      return R_VERSION;
    }
    if (c == 'N' && msg.startsWith("NET")) {
      return net.route(msg);
    }
    if (c == 'N' && msg.startsWith("NCCL_")) {
      if (env.isEnv(msg)) {
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
    if (EnvLines.isPluginEnv(msg)) {
      return R_PLUGIN_ENV;
    }
    return R_ERROR;
  }

}
