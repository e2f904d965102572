package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.indexOf;
import static dev.nccltriage.source.log.Bytes.startsWith;


/**
 * Recognises the message families of the spec. The frequent ones (channel, comm and "Using
 * network" lines, printed per communicator and per connection) are read byte by byte; the rare
 * ones go to {@link RareMessages}, which may use regular expressions.
 */
final class MessageParser {
  private static final byte[] CHANNEL = ascii("Channel ");
  private static final long CHANNEL_WORD = Bytes.word(CHANNEL, 0);
  private static final byte[] RING = ascii("Ring ");
  private static final byte[] VIA = ascii(" via ");
  private static final byte[] NET = ascii("NET/");
  private static final byte[] GDRDMA = ascii("/GDRDMA");
  private static final byte[] SEND = ascii("[send]");
  private static final byte[] RECEIVE = ascii("[receive]");
  private static final byte[] ARROW = ascii("-> ");
  private static final byte[] USING_NETWORK = ascii("Using network ");
  private static final byte[] USING_INTERNAL = ascii("Using internal Network ");
  private static final byte[] COMM = ascii("comm 0x");
  // the fields of a comm line, each after a space (searched with Bytes.indexOfSpaced)
  private static final byte[] RANK = ascii("rank ");
  private static final byte[] NRANKS_UPPER = ascii("nRanks ");
  private static final byte[] NRANKS = ascii("nranks ");
  private static final byte[] NNODES = ascii("nNodes ");
  private static final byte[] LOCAL_RANKS = ascii("localRanks ");
  private static final byte[] CONNECTED_RINGS = ascii("Connected all rings");
  private static final byte[] GDR_FLAG = ascii(" GDR ");
  private static final byte[] OLD_RANK = ascii("rank ");
  private static final byte[] DMA_BUF = ascii("DMA-BUF is available");
  private static final byte[] SPACED_COLON = ascii(" : ");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final RareMessages rare;
  private ProcessState unattributed;
  /** Where the last fast-parsed channel line ended; -1 when the parser read the whole message. */
  int consumed = -1;
  private final java.util.List<byte[]> netNameBytes = new java.util.ArrayList<>();
  private final java.util.List<String> netNames = new java.util.ArrayList<>();

  MessageParser(LogAccumulator acc, EvidenceSlot slot) {
    this.acc = acc;
    this.slot = slot;
    this.rare = new RareMessages(acc, slot);
  }

  void version(byte[] b, int at, int e) {
    rare.version(Bytes.latin1(b, at, e));
  }

  /** Returns whether the message belonged to a known family. */
  boolean parse(ProcessState proc, byte[] b, int m, int e) {
    consumed = -1;
    if (m >= e) {
      return false;
    }
    ProcessState p = proc;
    switch (b[m]) {
      case 'C':
        if (e - m >= CHANNEL.length && Bytes.word(b, m) == CHANNEL_WORD) {
          return channel(p(p), b, m, e);
        }
        if (startsWith(b, m, e, CONNECTED_RINGS)) {
          int g = indexOf(b, m, e, GDR_FLAG);
          if (g >= 0) {
            ProcessState q = p(p);
            int flag = (int) Bytes.parseLong(b, g + 5, e);
            q.ringsGdr = q.ringsGdr < 0 ? flag : Math.min(q.ringsGdr, flag);
            slot.record(q.ringsGdrEvidence);
          }
          return true;
        }
        break;
      case 'R':
        if (startsWith(b, m, e, RING)) {
          return channel(p(p), b, m, e);
        }
        break;
      case 'U':
        if (startsWith(b, m, e, USING_NETWORK)) {
          return usingNetwork(p(p), b, m + USING_NETWORK.length, e);
        }
        if (startsWith(b, m, e, USING_INTERNAL)) {
          return usingNetwork(p(p), b, m + USING_INTERNAL.length, e);
        }
        break;
      case 'D':
        if (startsWith(b, m, e, DMA_BUF)) { // once per communicator: keep it off the decoding path
          slot.record(acc.dmabuf);
          return true;
        }
        break;
      case 'c':
        if (startsWith(b, m, e, COMM)) {
          return comm(p(p), b, m, e);
        }
        break;
      case 'r':
        if (startsWith(b, m, e, OLD_RANK) && Bytes.indexOfSpaced(b, m, e, NRANKS) > 0) {
          ProcessState q = p(p);
          long rank = Bytes.parseLong(b, m + OLD_RANK.length, e);
          if (rank >= 0) {
            q.seeRank((int) rank);
          }
          return comm(q, b, m, e);
        }
        break;
      default:
        break;
    }
    if (Bytes.indexOfSpaced(b, m, Math.min(e, m + 64), COMM) >= 0) {
      return comm(p(p), b, m, e);
    }
    return RareMessages.mayMatch(b, m, e) && rare.parse(p, b, m, e, this);
  }



  ProcessState p(ProcessState p) {
    if (p != null) {
      return p;
    }
    if (unattributed == null) {
      unattributed = acc.processes.get(null, -1, -1, -1, false);
    }
    return unattributed;
  }

  private boolean usingNetwork(ProcessState p, byte[] b, int from, int e) {
    int end = Bytes.trimEnd(b, from, e);
    if (end <= from) {
      return false;
    }
    p.network = netName(b, from, end);
    slot.record(p.networkEvidence);
    return true;
  }

  /** "comm 0x.. rank R nRanks N nNodes M localRanks L ..." and the Init START/COMPLETE lines. */
  private boolean comm(ProcessState p, byte[] b, int m, int e) {
    // one left-to-right pass: the fields always come in this order
    int r = Bytes.indexOfSpaced(b, m, e, RANK);
    int at = m;
    if (r >= 0) {
      at = r + 1 + RANK.length;
      long rank = Bytes.parseLong(b, at, e);
      if (rank >= 0) {
        p.seeRank((int) rank);
      }
    }
    int n = Bytes.indexOfSpaced(b, at, e, NRANKS_UPPER);
    if (n < 0) {
      n = Bytes.indexOfSpaced(b, at, e, NRANKS);
    }
    if (n >= 0) {
      at = n + 1 + NRANKS.length;
      p.nRanks = (int) Math.max(p.nRanks, Bytes.parseLong(b, at, e));
      int nn = Bytes.indexOfSpaced(b, at, Math.min(e, at + 24), NNODES);
      if (nn >= 0) {
        at = nn + 1 + NNODES.length;
        p.nNodes = (int) Math.max(p.nNodes, Bytes.parseLong(b, at, e));
        int lr = Bytes.indexOfSpaced(b, at, Math.min(e, at + 24), LOCAL_RANKS);
        if (lr >= 0) {
          p.localRanks = (int) Math.max(p.localRanks, Bytes.parseLong(b, lr + 1 + LOCAL_RANKS.length, e));
        }
      }
    }
    if (r < 0 && n < 0) {
      return false;
    }
    slot.record(p.commEvidence);
    return true;
  }

  /**
   * "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA", the 2.4-2.6 "Ring" forms, and the
   * intra-node P2P/SHM forms. The ring listing ("Channel 00/02 : 0 1 2") has no "via" and is
   * not a connection.
   */
  private boolean channel(ProcessState p, byte[] b, int m, int e) {
    return fastChannel(p, b, m, e) || slowChannel(p, b, m, e);
  }

  /**
   * One forward pass over the usual shape "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA"
   * (and its Ring and older forms); returns false to let the searching parser handle anything else.
   */
  private boolean fastChannel(ProcessState p, byte[] b, int m, int e) {
    int i = m + (b[m] == 'C' ? CHANNEL.length : RING.length);
    i = Bytes.skipDigits(b, i, e);
    if (i < e && b[i] == '/') {
      i = Bytes.skipDigits(b, i + 1, e);
    }
    if (i + 3 > e || b[i] != ' ' || b[i + 1] != ':' || b[i + 2] != ' ') {
      return false;
    }
    i += 3;
    int fromStart = i;
    i = Bytes.skipDigits(b, i, e);
    if (i == fromStart) {
      return false; // the ring listing "Channel 00/02 :    0   1" has spaces here
    }
    i = skipBracket(b, i, e);
    if (i + 4 > e || b[i] != ' ' || b[i + 1] != '-' || b[i + 2] != '>' || b[i + 3] != ' ') {
      return false;
    }
    i += 4;
    int toStart = i;
    i = Bytes.skipDigits(b, i, e);
    if (i == toStart) {
      return false;
    }
    i = skipBracket(b, i, e);
    boolean receive = false;
    if (i + 2 < e && b[i] == ' ' && b[i + 1] == '[') {
      receive = b[i + 2] == 'r';
      int close = i + 2;
      while (close < e && b[close] != ']') {
        close++;
      }
      if (close == e) {
        return false;
      }
      i = close + 1;
    }
    // " via " and "NET/" spelled out: this runs for most lines of a large log, and C1 (the
    // launcher's compiler) does not inline a startsWith call
    if (i + 5 > e || b[i] != ' ' || b[i + 1] != 'v' || b[i + 2] != 'i' || b[i + 3] != 'a' || b[i + 4] != ' ') {
      return false;
    }
    i += VIA.length;
    if (i + 4 > e || b[i] != 'N' || b[i + 1] != 'E' || b[i + 2] != 'T' || b[i + 3] != '/') {
      p.localChannels++;
      slot.record(p.localChannelEvidence);
      // a glued record needs a space ("NCCL INFO"): none left means nothing more to look at
      int t = i;
      while (t < e && b[t] != ' ') {
        t++;
      }
      consumed = t == e ? e : i;
      return true;
    }
    int nameStart = i + NET.length;
    int slash = Bytes.indexOfByte(b, nameStart, e, (byte) '/');
    if (slash < 0 || slash + 1 >= e || !Bytes.isDigit(b[slash + 1])) {
      return false; // a plugin name with '/' in it: the slow path scans for "/<digit>"
    }
    String name = netName(b, nameStart, slash);
    long dev = Bytes.parseLong(b, slash + 1, e);
    i = Bytes.skipDigits(b, slash + 1, e);
    if (i < e && b[i] == '(') {
      int close = Bytes.indexOfByte(b, i, e, (byte) ')');
      i = close < 0 ? e : close + 1;
    }
    boolean gdr = i + 2 < e && b[i] == '/' && b[i + 1] == 'G' && b[i + 2] == 'D';
    consumed = i;
    ChannelCounter c = p.channels(name);
    if (receive) {
      c.receive++;
      c.receiveGdr += gdr ? 1 : 0;
      p.seeRank((int) Bytes.parseLong(b, toStart, e));
    } else {
      c.send++;
      c.sendGdr += gdr ? 1 : 0;
      p.seeRank((int) Bytes.parseLong(b, fromStart, e));
    }
    if (dev >= 0 && dev < 64) {
      c.devices |= 1L << dev;
    }
    slot.record(gdr ? c.withGdr : c.withoutGdr);
    return true;
  }

  /** Past "[...]" at i (the cudaDev after a rank: a few bytes, so a plain loop). */
  private static int skipBracket(byte[] b, int i, int e) {
    if (i < e && b[i] == '[') {
      int j = i + 1;
      while (j < e && b[j] != ']') {
        j++;
      }
      return j < e ? j + 1 : e;
    }
    return i;
  }

  private boolean slowChannel(ProcessState p, byte[] b, int m, int e) {
    int via = indexOf(b, m, e, VIA);
    if (via < 0) {
      return true; // ring listing or a GRAPH "Ring" line: known family, nothing to collect
    }
    int body = via + VIA.length;
    if (!startsWith(b, body, e, NET)) {
      p.localChannels++;
      slot.record(p.localChannelEvidence);
      return true;
    }
    int nameStart = body + NET.length;
    int slash = nameStart;
    while (slash < e - 1 && !(b[slash] == '/' && Bytes.isDigit(b[slash + 1]))) {
      slash++;
    }
    if (slash >= e - 1) {
      return true;
    }
    String name = netName(b, nameStart, slash);
    long dev = Bytes.parseLong(b, slash + 1, e);
    boolean gdr = indexOf(b, slash, e, GDRDMA) >= 0;
    boolean receive = indexOf(b, m, via + 1, RECEIVE) >= 0;
    boolean send = !receive && indexOf(b, m, via + 1, SEND) >= 0;
    ChannelCounter c = p.channels(name);
    if (receive) {
      c.receive++;
      if (gdr) {
        c.receiveGdr++;
      }
    } else {
      c.send++;
      if (gdr) {
        c.sendGdr++;
      }
    }
    if (dev >= 0 && dev < 64) {
      c.devices |= 1L << dev;
    }
    slot.record(gdr ? c.withGdr : c.withoutGdr);
    seeChannelRank(p, b, m, via, receive || !send);
    return true;
  }

  /** The rank printing a send line is the one left of "->"; for a receive, the one right of it. */
  private void seeChannelRank(ProcessState p, byte[] b, int m, int via, boolean receive) {
    int colon = indexOf(b, m, via, SPACED_COLON);
    if (colon < 0) {
      return;
    }
    if (receive) {
      int arrow = indexOf(b, colon, via, ARROW);
      if (arrow >= 0) {
        long r = Bytes.parseLong(b, arrow + ARROW.length, via);
        if (r >= 0) {
          p.seeRank((int) r);
        }
      }
    } else {
      long r = Bytes.parseLong(b, colon + 3, via);
      if (r >= 0) {
        p.seeRank((int) r);
      }
    }
  }

  /**
   * Interns network names so the per-line path allocates nothing for a repeated name, and so each
   * name is one String: ProcessState.channels compares names by identity.
   */
  private String netName(byte[] b, int from, int to) {
    int n = to - from;
    for (int k = 0; k < netNames.size(); k++) {
      byte[] known = netNameBytes.get(k);
      if (known.length == n && Bytes.equal(b, from, known, n)) {
        return netNames.get(k);
      }
    }
    String name = Bytes.text(b, from, to);
    if (netNames.size() < 32) { // a log names a handful; garbage must not grow the list
      netNameBytes.add(java.util.Arrays.copyOfRange(b, from, to));
      netNames.add(name);
    }
    return name;
  }

}
