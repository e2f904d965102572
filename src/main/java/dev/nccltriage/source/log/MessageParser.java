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
  private static final byte[] USING_NETWORK = ascii("Using network ");
  private static final byte[] USING_INTERNAL = ascii("Using internal Network ");
  private static final byte[] COMM = ascii("comm 0x");
  // the fields of a comm line, each after a space (searched with Bytes.indexOfSpaced)
  private static final byte[] RANK = ascii("rank ");
  private static final byte[] NRANKS_UPPER = ascii("nRanks ");
  private static final byte[] NRANKS = ascii("nranks ");
  private static final byte[] NNODES = ascii("nNodes ");
  private static final byte[] LOCAL_RANKS = ascii("localRanks ");
  // init's "connected" lines (spec: "Connected all rings" (2.24+: ", use ring PXN %d GDR %d"),
  // "Connected all trees", 2.17+ "Connected NVLS tree"): only the rings' GDR flag is read, and no
  // other family starts so
  private static final byte[] CONNECTED_ALL = ascii("Connected all ");
  private static final byte[] CONNECTED_RINGS = ascii("Connected all rings");
  private static final byte[] CONNECTED_NVLS = ascii("Connected NVLS ");
  private static final byte[] GDR_FLAG = ascii(" GDR ");
  private static final byte[] OLD_RANK = ascii("rank ");
  private static final byte[] DMA_BUF = ascii("DMA-BUF is available");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final RareMessages rare;
  /** The distinct message texts and what is known of each (shared with {@link RareMessages}). */
  final MessageTexts texts = new MessageTexts();
  private ProcessState unattributed;
  /** Where the last fast-parsed channel line ended; -1 when the parser read the whole message. */
  int consumed = -1;
  private final NetNames names = new NetNames();
  final ChannelParser channels;

  MessageParser(LogAccumulator acc, EvidenceSlot slot) {
    this.acc = acc;
    this.slot = slot;
    this.rare = new RareMessages(acc, slot, texts);
    this.channels = new ChannelParser(slot, names);
  }

  void version(byte[] b, int at, int e) {
    rare.version(b, at, e);
  }

  /** "2.18.1" or "(2, 18, 1)" after a framework's "NCCL version:". */
  void frameworkVersion(byte[] b, int at, int e) {
    rare.frameworkVersion(Bytes.latin1(b, at, Math.min(e, at + 40)));
  }

  /**
   * Returns whether the message belonged to a known family; {@code warn}: printed at WARN level;
   * {@code text}: the slot of b[m, e) in {@link #texts} when the caller looked it up
   * ({@link MessageTexts#UNKNOWN} otherwise).
   */
  boolean parse(ProcessState proc, byte[] b, int m, int e, boolean warn, int text) {
    if (!warn) {
      return parse(proc, b, m, e, text, false);
    }
    rare.newLine();
    boolean known = parse(proc, b, m, e, text, false);
    consumed = -1;
    rare.warn(p(proc), b, m, e, known, text);
    return known;
  }

  /** Returns whether the message belonged to a known family. */
  boolean parse(ProcessState proc, byte[] b, int m, int e) {
    return parse(proc, b, m, e, MessageTexts.UNKNOWN, false);
  }

  /**
   * A bare message's (no thread's prefix): as {@code parse(null, ...)}; {@code commFree}: its line
   * was searched whole and holds no "co", so no " comm 0x" (the search for one is skipped).
   */
  boolean parseBare(byte[] b, int m, int e, boolean commFree) {
    return parse(null, b, m, e, MessageTexts.UNKNOWN, commFree);
  }

  /** {@code commFree}: the text holds no " comm 0x" (its line's crash scan said so), not searched for. */
  private boolean parse(ProcessState proc, byte[] b, int m, int e, int text, boolean commFree) {
    consumed = -1;
    if (m >= e) {
      return false;
    }
    ProcessState p = proc;
    switch (b[m]) {
      case 'C':
        if (e - m >= ChannelParser.CHANNEL.length && Bytes.word(b, m) == ChannelParser.CHANNEL_WORD
            && (p != null || numbered(b, m + ChannelParser.CHANNEL.length, e))) {
          return channel(p(p), b, m, e);
        }
        if (startsWith(b, m, e, CONNECTED_ALL)) {
          int g = startsWith(b, m, e, CONNECTED_RINGS) ? indexOf(b, m, e, GDR_FLAG) : -1;
          if (g >= 0) {
            ProcessState q = p(p);
            int flag = Bytes.parseInt(b, g + 5, e);
            q.ringsGdr = q.ringsGdr < 0 ? flag : Math.min(q.ringsGdr, flag);
            slot.record(q, HostEvidence.RINGS_GDR, flag);
          }
          return true;
        }
        if (startsWith(b, m, e, CONNECTED_NVLS)) {
          return true;
        }
        break;
      case 'R':
        if (startsWith(b, m, e, ChannelParser.RING) && (p != null || numbered(b, m + ChannelParser.RING.length, e))) {
          return channel(p(p), b, m, e);
        }
        break;
      case 'U':
        if (startsWith(b, m, e, USING_NETWORK)) {
          return usingNetwork(p, b, m + USING_NETWORK.length, e);
        }
        if (startsWith(b, m, e, USING_INTERNAL)) {
          return usingNetwork(p, b, m + USING_INTERNAL.length, e);
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
          return comm(p, b, m, e);
        }
        break;
      case 'N':
        if (text == MessageTexts.IB_CONNECTION || text == MessageTexts.UNKNOWN && IbConnectionLines.is(b, m, e)) {
          return IbConnectionLines.apply(p(p)); // a new queue pair number on every line: not a text to keep
        }
        break;
      case 'r':
        if (startsWith(b, m, e, OLD_RANK) && Bytes.indexOfSpaced(b, m, e, NRANKS) > 0) {
          ProcessState q = p(p);
          long rank = Bytes.parseLong(b, m + OLD_RANK.length, e);
          if (rank >= 0) {
            q.seeRank(rank);
          }
          return comm(q, b, m, e);
        }
        break;
      default:
        if (channels.mayBeBody(b, m, e) && channels.body(p(p), b, m, e)) {
          return true;
        }
        break;
    }
    // what follows depends on the text alone: known texts skip the searches
    int f = texts.flags(text);
    if ((f & MessageTexts.TAIL_KNOWN) == 0) {
      f = MessageTexts.TAIL_KNOWN;
      if (!commFree && commAt(b, m, Math.min(e, m + 64)) >= 0) {
        f |= MessageTexts.TAIL_COMM;
      } else if (text != MessageTexts.NOT_RARE && RareMessages.mayMatch(b, m, e)) {
        f |= MessageTexts.TAIL_RARE;
      }
      texts.addFlags(text, f);
    }
    if ((f & MessageTexts.TAIL_COMM) != 0) {
      return comm(p, b, m, e);
    }
    return (f & MessageTexts.TAIL_RARE) != 0 && rare.parse(p, b, m, e, this, text);
  }



  private static final byte[] SPACED_COLON = ascii(" : ");

  /**
   * Whether NCCL's channel head follows at i: "%02d : " or "%02d/%d : " (spec §6, §9). A line
   * without a prefix (a paste, a line of another program) is taken for a channel line only then,
   * so that "Ring buffer full" or "Ring 3 of 8" makes neither an NCCL line nor a process.
   */
  private static boolean numbered(byte[] b, int i, int e) {
    int j = Bytes.skipDigits(b, i, e);
    if (j == i) {
      return false;
    }
    if (j < e && b[j] == '/') {
      int k = Bytes.skipDigits(b, j + 1, e);
      if (k == j + 1) {
        return false;
      }
      j = k;
    }
    return startsWith(b, j, e, SPACED_COLON);
  }

  /**
   * Bytes.indexOfSpaced(b, from, to, COMM), found from the 'x' of "0x": a rare byte, where 'c' and
   * the space stop a search at every other word of a message.
   */
  static int commAt(byte[] b, int from, int to) {
    int x = Bytes.indexOfByte(b, from + COMM.length, to, (byte) 'x');
    while (x >= 0) {
      int at = x - COMM.length; // the space before "comm 0x"
      if (at >= from && b[at] == ' ' && Bytes.startsWith(b, at + 1, to, COMM)) {
        return at;
      }
      x = Bytes.indexOfByte(b, x + 1, to, (byte) 'x');
    }
    return -1;
  }

  private boolean channel(ProcessState p, byte[] b, int m, int e) {
    boolean known = channels.parse(p, b, m, e);
    consumed = channels.consumed;
    return known;
  }

  ProcessState p(ProcessState p) {
    return p != null ? p : unattributed();
  }

  private ProcessState unattributed() {
    if (unattributed == null) {
      unattributed = acc.processes.get(null, -1, -1, -1, false);
    }
    return unattributed;
  }

  /** {@code proc}: null for a line without a prefix (its state is made only if the line is one). */
  private boolean usingNetwork(ProcessState proc, byte[] b, int from, int e) {
    int end = Bytes.trimEnd(b, from, e);
    if (end <= from) {
      return false;
    }
    ProcessState p = p(proc);
    p.network = names.of(b, from, end);
    slot.record(p, HostEvidence.NETWORK, p.network);
    return true;
  }

  /**
   * "comm 0x.. rank R nRanks N nNodes M localRanks L ..." and the Init START/COMPLETE lines.
   * {@code proc}: null for a line without a prefix (its state is made only if the line is one).
   */
  private boolean comm(ProcessState proc, byte[] b, int m, int e) {
    // one left-to-right pass: the fields always come in this order
    int r = Bytes.indexOfSpaced(b, m, e, RANK);
    int afterRank = r >= 0 ? r + 1 + RANK.length : m;
    // every version prints the count right after the rank ("rank %d nranks %d", "rank %d nRanks
    // %d"): looked at there first, so a 2.8+ line is not searched to its end for "nRanks"
    int n = r >= 0 ? nRanksAt(b, Bytes.skipDigits(b, afterRank, e), e) : -1;
    if (n < 0) {
      n = Bytes.indexOfSpaced(b, afterRank, e, NRANKS_UPPER);
    }
    if (n < 0) {
      n = Bytes.indexOfSpaced(b, afterRank, e, NRANKS);
    }
    if (r < 0 && n < 0) {
      return false;
    }
    ProcessState p = p(proc);
    if (r >= 0) {
      long rank = Bytes.parseLong(b, afterRank, e);
      if (rank >= 0) {
        p.seeRank(rank);
      }
    }
    if (n >= 0) {
      int at = n + 1 + NRANKS.length;
      p.nRanks = Math.max(p.nRanks, Bytes.parseInt(b, at, e));
      int nn = Bytes.indexOfSpaced(b, at, Math.min(e, at + 24), NNODES);
      if (nn >= 0) {
        at = nn + 1 + NNODES.length;
        p.nNodes = Math.max(p.nNodes, Bytes.parseInt(b, at, e));
        int lr = Bytes.indexOfSpaced(b, at, Math.min(e, at + 24), LOCAL_RANKS);
        if (lr >= 0) {
          p.localRanks = Math.max(p.localRanks, Bytes.parseInt(b, lr + 1 + LOCAL_RANKS.length, e));
        }
      }
    }
    slot.record(p, HostEvidence.COMM, null);
    return true;
  }

  /** i, if " nranks " or " nRanks " starts there; else -1. */
  private static int nRanksAt(byte[] b, int i, int e) {
    return i < e && b[i] == ' ' && (startsWith(b, i + 1, e, NRANKS) || startsWith(b, i + 1, e, NRANKS_UPPER)) ? i : -1;
  }
}
