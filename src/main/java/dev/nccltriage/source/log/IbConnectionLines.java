package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.indexOf;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * The IB transport's line per queue pair (NCCL_DEBUG_SUBSYS with NET: "NET/IB: Dev 0 Port 1 qpn
 * 472981 mtu 5 LID 53" up to 2.18, "NET/IB: NCCL Dev 3 IbDev 3 Port 1 qpn 1234 mtu 5 query_ece={...}
 * GID 3 (0/...) fifoRkey=0x... fifoLkey=0x..." and "NET/IB: IbDev 3 Port 1 qpn 1234 set_ece={...}"
 * since): a job prints several per connection, and each names a queue pair number of its own, so
 * every one was a new text to keep, decode, route and classify (50-130 MB/s). What the
 * line-by-line path makes of such a text is known without any of that: no NET family claims it,
 * so it is the catch-all of NET/IB texts (the process initialised IB), and with no guard word, or
 * "gid" alone without a failure word, no error signature matches it ({@link
 * ErrorSignatures#classify} answers KNOWN for any NET/IB text then). {@link #is} tests exactly
 * those conditions, on the bytes; " qpn " only picks the lines for which they are worth testing.
 */
final class IbConnectionLines {
  private static final byte[] NET_IB = ascii("NET/IB");
  private static final byte[] QPN = ascii(" qpn ");
  // what NetMessages.route tests before its catch-all, on a text that starts "NET/IB"
  private static final byte[] NO_DEVICE = ascii("No device found");
  private static final byte[] USING = ascii("Using");
  private static final byte[] SIDEBAND = ascii("sideband");
  private static final byte[] GDR = ascii("GPU Direct RDMA");
  private static final int QPN_WITHIN = 48; // " qpn " is the fourth to sixth word

  private IbConnectionLines() {}

  /**
   * Whether b[from, to) is such a line, whose meaning is {@link #apply}'s: a NET/IB text with
   * " qpn " and a digit among its first words, that no NET family claims, and in which no error
   * signature can match.
   */
  static boolean is(byte[] b, int from, int to) {
    if (!startsWith(b, from, to, NET_IB)) {
      return false;
    }
    int q = indexOf(b, from + NET_IB.length, Math.min(to, from + QPN_WITHIN), QPN);
    if (q < 0 || q + QPN.length >= to || !Bytes.isDigit(b[q + QPN.length])) {
      return false;
    }
    int colon = from + NET_IB.length + (from + NET_IB.length < to && b[from + NET_IB.length] == ' ' ? 1 : 0);
    if (colon + 2 < to && b[colon] == ':' && b[colon + 1] == ' ' && b[colon + 2] == '[') {
      return false; // 2.3's "NET/IB: [0] mlx5_0:1/IB", one HCA a line
    }
    // (and MessageParser's test before the families: a comm's own line)
    return indexOf(b, from, to, USING) < 0 && indexOf(b, from, to, NO_DEVICE) < 0 && indexOf(b, from, to, SIDEBAND) < 0
        && indexOf(b, from, to, GDR) < 0 && MessageParser.commAt(b, from, Math.min(to, from + 64)) < 0
        && noErrorSignature(GuardWords.of(b, from, to));
  }

  /**
   * Whether {@link ErrorSignatures#classify} finds no signature in a NET/IB text of these guard
   * words: none at all, or "gid" alone without a failure word (a RoCE line names its GID index).
   */
  private static boolean noErrorSignature(int guards) {
    int gidFailure = GuardWords.GID | GuardWords.FAILURE;
    return (guards & ~gidFailure) == 0 && (guards & gidFailure) != gidFailure;
  }

  /** What the line-by-line path makes of such a line: the process initialised its IB transport. */
  static boolean apply(ProcessState p) {
    p.initSeen = true;
    p.ibLogged = true;
    return true; // a known text
  }
}
