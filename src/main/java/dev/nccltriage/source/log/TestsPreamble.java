package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.indexOf;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * nccl-tests' "# Using devices" list (spec §12.1): "#  Rank  8 Group  0 Pid 22818 on  dgx-a-018
 * device  0 [...]", one line per rank of the job, printed by rank 0. The hosts it names are the
 * job's nodes, whatever part of NCCL's own output the excerpt kept.
 */
final class TestsPreamble {
  private static final byte[] RANK = ascii("Rank ");
  private static final byte[] PID = ascii(" Pid ");
  private static final byte[] ON = ascii(" on ");
  private static final byte[] DEVICE = ascii(" device ");
  /** The shortest line {@link #parse} takes, "#Rank 0 Pid on h device " (" Pid " and " on " share a blank). */
  static final int SHORTEST = 1 + RANK.length + 1 + PID.length - 1 + ON.length + 1 + DEVICE.length;
  static final int MAX_HOSTS = 4096;
  static final int MAX_RANKS = 1 << 20;

  private TestsPreamble() {}

  /** Records a rank line of the preamble; returns whether [s, e) was one. */
  static boolean parse(LogAccumulator acc, EvidenceSlot slot, byte[] b, int s, int e) {
    if (e - s < SHORTEST) {
      return false; // most lines of another program's that are searched: counters, words
    }
    int hash = Bytes.indexOfByte(b, s, Math.min(e, s + 48), (byte) '#');
    if (hash < 0) {
      return false;
    }
    int r = hash + 1;
    while (r < e && b[r] == ' ') {
      r++;
    }
    if (!startsWith(b, r, e, RANK)) {
      return false;
    }
    int pid = indexOf(b, r, Math.min(e, r + 48), PID);
    int on = pid < 0 ? -1 : indexOf(b, pid, Math.min(e, pid + 32), ON);
    int device = on < 0 ? -1 : indexOf(b, on, e, DEVICE);
    if (device < 0) {
      return false;
    }
    int i = r + RANK.length;
    while (i < e && b[i] == ' ') {
      i++;
    }
    long rank = Bytes.parseLong(b, i, e);
    int h = on + ON.length;
    while (h < device && b[h] == ' ') {
      h++;
    }
    if (rank < 0 || h >= device) {
      return false;
    }
    // NCCL prints the host up to its first '.'; so does this, so both name a node alike
    int he = h;
    while (he < device && b[he] != '.' && b[he] != ' ') {
      he++;
    }
    if (he == h || he - h > Prefix.MAX_HOST) {
      return false; // no name, or one longer than any host's
    }
    String host = Bytes.text(b, h, he);
    if (acc.testsHosts.size() < MAX_HOSTS) {
      acc.testsHosts.add(host);
    } else if (!acc.testsHosts.contains(host)) {
      acc.testsHostsCapped = true;
    }
    if (rank < MAX_RANKS) {
      acc.testsRanks.set((int) rank);
    }
    slot.record(acc.testsPreamble);
    return true;
  }
}
