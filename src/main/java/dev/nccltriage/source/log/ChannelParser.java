package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.indexOf;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * Channel connection lines: "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA", the 2.4-2.6
 * "Ring" forms and the intra-node P2P/SHM forms. The ring listing ("Channel 00/02 : 0 1 2") has
 * no "via" and is not a connection. These are most lines of a large log, so the usual shape is
 * read in one forward pass ({@link #scan}) that {@link LogParser} may also run before the line's
 * end is known: every loop in it stops at a newline.
 */
final class ChannelParser {
  static final byte[] CHANNEL = ascii("Channel ");
  static final long CHANNEL_WORD = Bytes.word(CHANNEL, 0);
  static final byte[] RING = ascii("Ring ");
  private static final byte[] VIA = ascii(" via ");
  private static final byte[] NET = ascii("NET/");
  private static final byte[] GDRDMA = ascii("/GDRDMA");
  private static final byte[] SEND = ascii("[send]");
  private static final byte[] RECEIVE = ascii("[receive]");
  private static final byte[] ARROW = ascii("-> ");
  private static final byte[] SPACED_COLON = ascii(" : ");

  private final EvidenceSlot slot;
  private final NetNames names;
  /** Where the last parsed line's channel ended (a glued record may follow); -1: read to the end. */
  int consumed = -1;

  // what the last successful scan found
  private boolean net;
  private boolean receive;
  private boolean gdr;
  private long fromRank; // the rank left of "->", as Bytes.parseLong reads it
  private long toRank; // ... and right of it
  private int nameStart; // NET: the network name is [nameStart, nameEnd)
  private int nameEnd;
  private long device; // NET: the device number after the name
  private long number; // what the last digits() read
  // the line cleanConnection scanned (its line number, and where its message starts and ends) and
  // what the scan returned: parse() of the same message, next, reads the fields instead
  private long cleanLine = -1;
  private int cleanFrom;
  private int cleanTo;
  private int cleanScan;

  ChannelParser(EvidenceSlot slot, NetNames names) {
    this.slot = slot;
    this.names = names;
  }

  static boolean starts(byte[] b, int m, int e) {
    return e - m >= CHANNEL.length && Bytes.word(b, m) == CHANNEL_WORD
        || m < e && b[m] == 'R' && startsWith(b, m, e, RING);
  }

  private String lastNetwork; // the network last asked about in cleanConnection, and its answer
  private boolean lastNetworkRdma;

  /**
   * Whether the message at [m, e) is a connection of the usual shape that shows nothing wrong: a
   * local one (P2P, SHM), or one over an RDMA network with GPUDirect RDMA. Such a line of a host
   * outside the sample needs no state of its own to tell (see {@link Admission}).
   */
  boolean cleanConnection(byte[] b, int m, int e) {
    if (!starts(b, m, e)) {
      return false;
    }
    int i = scan(b, m, e);
    if (i < 0) {
      return false;
    }
    cleanLine = slot.lineNo;
    cleanFrom = m;
    cleanTo = e;
    cleanScan = i;
    if (!net) {
      return true;
    }
    if (!gdr) {
      return false;
    }
    String network = names.of(b, nameStart, nameEnd);
    if (network != lastNetwork) {
      lastNetwork = network;
      lastNetworkRdma = Boolean.TRUE.equals(dev.nccltriage.facts.NetworkKind.rdma(network));
    }
    return lastNetworkRdma;
  }

  /** A channel message in [m, e) (one whole line); sets {@link #consumed}. */
  boolean parse(ProcessState p, byte[] b, int m, int e) {
    int i = cleanLine == slot.lineNo && cleanFrom == m && cleanTo == e ? cleanScan : scan(b, m, e);
    cleanLine = -1;
    if (i < 0) {
      consumed = -1;
      return slowParse(p, b, m, e);
    }
    // a local transport token read to the end leaves no room for a glued record
    consumed = net ? i : i == e ? e : localTokenStart;
    if (slot.msg >= 0) {
      slot.msg = consumed; // a record glued after it is looked for from there, as LogParser does
    }
    apply(p, b);
    return true;
  }

  /**
   * A channel line whose end is not known yet: [m, limit) holds its message and maybe more lines.
   * Returns the index of the newline that ends it, or -1 unless the line is the usual shape, ends
   * with the transport (and, for NET, a tail without spaces: a glued record would need one), and
   * has nothing the line-by-line path would treat differently (a carriage return, ANSI colour).
   * Changes nothing: the caller sets the evidence slot and calls {@link #apply}.
   */
  int line(byte[] b, int m, int limit) {
    if (!starts(b, m, limit)) {
      return -1;
    }
    int i = scan(b, m, limit);
    if (i < 0) {
      return -1;
    }
    int nl = net ? Bytes.asciiWordEnd(b, i, limit) : i;
    // a byte that may end a wrapper's suffix (a CSV cell's closing quote, markdown): the line
    // path cuts it (Envelope.trimSuffix), and the evidence must read as it does there
    return nl < limit && b[nl] == '\n' && !Envelope.mayHaveSuffix(b[nl - 1]) ? nl : -1;
  }

  private int localTokenStart; // local: where the transport token after "via " starts

  /**
   * The usual shape, from the message start: returns where the parse stopped (NET: after the
   * device; local: after the transport token) or -1 for any other shape. Stops at a newline or an
   * ESC byte wherever it scans freely, so it never reads into the next line or into ANSI colour.
   */
  private int scan(byte[] b, int m, int e) {
    int i = m + (b[m] == 'C' ? CHANNEL.length : RING.length);
    i = Bytes.skipDigits(b, i, e);
    if (i < e && b[i] == '/') {
      i = Bytes.skipDigits(b, i + 1, e);
    }
    if (i + 3 > e || b[i] != ' ' || b[i + 1] != ':' || b[i + 2] != ' ') {
      return -1;
    }
    i += 3;
    int digits = i;
    i = digits(b, i, e);
    if (i == digits) {
      return -1; // the ring listing "Channel 00/02 :    0   1" has spaces here
    }
    fromRank = number;
    i = skipBracket(b, i, e);
    if (i < 0 || i + 4 > e || b[i] != ' ' || b[i + 1] != '-' || b[i + 2] != '>' || b[i + 3] != ' ') {
      return -1;
    }
    i += 4;
    digits = i;
    i = digits(b, i, e);
    if (i == digits) {
      return -1;
    }
    toRank = number;
    i = skipBracket(b, i, e);
    if (i < 0) {
      return -1;
    }
    receive = false;
    if (i + 2 < e && b[i] == ' ' && b[i + 1] == '[') {
      receive = b[i + 2] == 'r';
      int close = closing(b, i + 2, e, (byte) ']');
      if (close < 0) {
        return -1;
      }
      i = close + 1;
    }
    // " via " and "NET/" spelled out: C1 (the launcher's compiler) does not inline startsWith
    if (i + 5 > e || b[i] != ' ' || b[i + 1] != 'v' || b[i + 2] != 'i' || b[i + 3] != 'a' || b[i + 4] != ' ') {
      return -1;
    }
    i += VIA.length;
    if (i + 4 > e || b[i] != 'N' || b[i + 1] != 'E' || b[i + 2] != 'T' || b[i + 3] != '/') {
      net = false;
      localTokenStart = i;
      return Bytes.asciiWordEnd(b, i, e);
    }
    net = true;
    nameStart = i + NET.length;
    int slash = closing(b, nameStart, e, (byte) '/');
    if (slash < 0 || slash + 1 >= e || !Bytes.isDigit(b[slash + 1])) {
      return -1; // a plugin name with '/' in it: the slow path scans for "/<digit>"
    }
    nameEnd = slash;
    i = digits(b, slash + 1, e);
    device = number;
    if (i < e && b[i] == '(') {
      int close = closing(b, i, e, (byte) ')');
      i = close < 0 ? stop(b, i, e) : close + 1;
    }
    gdr = i + 2 < e && b[i] == '/' && b[i + 1] == 'G' && b[i + 2] == 'D';
    return i;
  }

  /** Counts the connection the last successful scan of b found (the evidence slot must hold its line). */
  void apply(ProcessState p, byte[] b) {
    long from = fromRank;
    long to = toRank;
    // both ends' rank ids: one at or above a node's GPU count shows the job spans nodes
    p.seePeerRank(Math.max(from, to));
    if (!net) {
      p.localChannels++;
      slot.record(p, HostEvidence.LOCAL_CHANNELS, null);
      return;
    }
    ChannelCounter c = p.channels(names.of(b, nameStart, nameEnd));
    if (receive) {
      c.receive++;
      c.receiveGdr += gdr ? 1 : 0;
      p.seeRank(to);
    } else {
      c.send++;
      c.sendGdr += gdr ? 1 : 0;
      p.seeRank(from);
    }
    long dev = device;
    if (dev >= 0 && dev < 64) {
      c.devices |= 1L << dev;
    }
    slot.record(p, gdr ? HostEvidence.CHANNEL_GDR : HostEvidence.CHANNEL_NO_GDR, c.network);
  }

  /**
   * Past the digits at i (before e), their value in {@link #number} as {@link Bytes#parseLong}
   * reads it (its first 18 digits; -1 if there are none): a channel line's numbers are read where
   * they are skipped, not found again when the line is counted.
   */
  private int digits(byte[] b, int i, int e) {
    long v = 0;
    int j = i;
    while (j < e && Bytes.isDigit(b[j])) {
      if (j - i < 18) {
        v = v * 10 + (b[j] - '0');
      }
      j++;
    }
    number = j == i ? -1 : v;
    return j;
  }

  /** Past "[...]" at i (the cudaDev after a rank); -1 if it does not close on this line. */
  private static int skipBracket(byte[] b, int i, int e) {
    if (i < e && b[i] == '[') {
      int j = closing(b, i + 1, e, (byte) ']');
      return j < 0 ? -1 : j + 1;
    }
    return i;
  }

  /** The first {@code c} at or after i on this line (before a newline or ESC), or -1. */
  private static int closing(byte[] b, int i, int e, byte c) {
    int j = i;
    while (j < e && b[j] != c && b[j] != '\n' && b[j] != 0x1b) {
      j++;
    }
    return j < e && b[j] == c ? j : -1;
  }

  /** Where this line's text ends from i: e, or the newline or ESC before it. */
  private static int stop(byte[] b, int i, int e) {
    int j = i;
    while (j < e && b[j] != '\n' && b[j] != 0x1b) {
      j++;
    }
    return j;
  }

  /** Any other channel shape: searches instead of walking. */
  private boolean slowParse(ProcessState p, byte[] b, int m, int e) {
    int via = indexOf(b, m, e, VIA);
    if (via < 0) {
      return true; // ring listing or a GRAPH "Ring" line: known family, nothing to collect
    }
    seePeers(p, b, m, via);
    int body = via + VIA.length;
    if (!startsWith(b, body, e, NET)) {
      p.localChannels++;
      slot.record(p, HostEvidence.LOCAL_CHANNELS, null);
      return true;
    }
    int start = body + NET.length;
    int slash = start;
    while (slash < e - 1 && !(b[slash] == '/' && Bytes.isDigit(b[slash + 1]))) {
      slash++;
    }
    if (slash >= e - 1) {
      return true;
    }
    String name = names.of(b, start, slash);
    long dev = Bytes.parseLong(b, slash + 1, e);
    boolean withGdr = indexOf(b, slash, e, GDRDMA) >= 0;
    boolean isReceive = indexOf(b, m, via + 1, RECEIVE) >= 0;
    boolean send = !isReceive && indexOf(b, m, via + 1, SEND) >= 0;
    ChannelCounter c = p.channels(name);
    if (isReceive) {
      c.receive++;
      if (withGdr) {
        c.receiveGdr++;
      }
    } else {
      c.send++;
      if (withGdr) {
        c.sendGdr++;
      }
    }
    if (dev >= 0 && dev < 64) {
      c.devices |= 1L << dev;
    }
    slot.record(p, withGdr ? HostEvidence.CHANNEL_GDR : HostEvidence.CHANNEL_NO_GDR, c.network);
    seeChannelRank(p, b, m, via, isReceive || !send);
    return true;
  }

  /** Both rank ids of a connection "A[..] -> B[..]" before {@code via}. */
  private static void seePeers(ProcessState p, byte[] b, int m, int via) {
    int colon = indexOf(b, m, via, SPACED_COLON);
    int from = colon < 0 ? m : colon + 3;
    while (from < via && b[from] == ' ') {
      from++;
    }
    p.seePeerRank(Bytes.parseLong(b, from, via));
    int arrow = indexOf(b, from, via, ARROW);
    if (arrow >= 0) {
      p.seePeerRank(Bytes.parseLong(b, arrow + ARROW.length, via));
    }
  }

  /**
   * A connection quoted without its "Channel NN/x :" head ("0[0] -> 8[0] [send] via NET/IB/0"):
   * parsed like a whole line, once {@link #mayBeBody} found it starts with a rank and has " -> "
   * and " via ".
   */
  boolean body(ProcessState p, byte[] b, int m, int e) {
    consumed = -1;
    return slowParse(p, b, m, e);
  }

  /**
   * Whether b[m, e) may be a channel line's body ("0 1 2 ..." or "0[0] -> 1[1] via ..."): checked
   * before a state is made for a line without a prefix, so that a line of another program that
   * starts with a digit (a progress bar, a timestamp) adds no process.
   */
  boolean mayBeBody(byte[] b, int m, int e) {
    if (m >= e || !Bytes.isDigit(b[m])) {
      return false;
    }
    int via = indexOf(b, m, e, VIA);
    return via >= 0 && indexOf(b, m, via, ARROW) >= 0;
  }

  /** The rank printing a send line is the one left of "->"; for a receive, the one right of it. */
  private static void seeChannelRank(ProcessState p, byte[] b, int m, int via, boolean receive) {
    int colon = indexOf(b, m, via, SPACED_COLON);
    if (colon < 0) {
      return;
    }
    if (receive) {
      int arrow = indexOf(b, colon, via, ARROW);
      if (arrow >= 0) {
        long r = Bytes.parseLong(b, arrow + ARROW.length, via);
        if (r >= 0) {
          p.seeRank(r);
        }
      }
    } else {
      long r = Bytes.parseLong(b, colon + 3, via);
      if (r >= 0) {
        p.seeRank(r);
      }
    }
  }
}
