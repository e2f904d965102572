package dev.nccltriage.source.log;

/**
 * Where a record glued after another starts. Glued, the next record's host name runs into the last
 * word of the one before ("...Using internal Network Socketcx50:18926:19004 [1] INFO",
 * "...error No such devicegpunodev2:10770:10794 [0] NCCL INFO"): its bytes hold no seam, and the
 * prefix read back from the level token takes the whole run for the host, cutting the word off the
 * message before it. The processes of one node (a Pod's log is one node's) write one stream, so the
 * glued record's host is most often the record's own before it: where the run ends with that host's
 * name, the name is the host and the rest is the message's. The line alone decides it, whatever
 * was read before (parts of a file read apart give the same records).
 */
final class GluedSeam {
  private GluedSeam() {}

  /**
   * The start of the record glued after the one whose prefix is [k, lvl) ({@code lvl}: its level
   * token, "NCCL INFO" or before 2.3 "INFO"), {@code glued} holding the glued record's prefix as
   * parsed; {@code own} is parsed here.
   */
  static int start(byte[] b, int k, int lvl, int e, Prefix glued, Prefix own) {
    if (glued.hostStart < 0) {
      return glued.start;
    }
    own.parse(b, k, tokenStart(b, lvl, e));
    int n = own.hostEnd - own.hostStart;
    if (own.hostStart < 0 || glued.hostEnd - glued.hostStart <= n
        || !Bytes.equal(b, glued.hostEnd - n, b, own.hostStart, n)) {
      return glued.start;
    }
    return glued.hostEnd - n;
  }

  /** After {@link #start}: whether the glued record starting at {@code at} names the same host as its own. */
  static boolean sameHost(byte[] b, int at, Prefix glued, Prefix own) {
    int n = own.hostEnd - own.hostStart;
    return own.hostStart >= 0 && glued.hostStart >= 0 && glued.hostEnd - at == n
        && Bytes.equal(b, at, b, own.hostStart, n);
  }

  /** "NCCL INFO"'s start where lvl is at its "INFO" (a cached prefix's level), else lvl. */
  private static int tokenStart(byte[] b, int lvl, int e) {
    int n = LevelTokens.NCCL.length;
    return lvl >= n && !Bytes.startsWith(b, lvl, e, LevelTokens.NCCL) && Bytes.startsWith(b, lvl - n, e, LevelTokens.NCCL)
        ? lvl - n : lvl;
  }
}
