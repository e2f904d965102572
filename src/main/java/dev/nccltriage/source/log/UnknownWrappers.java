package dev.nccltriage.source.log;

/**
 * What stands between the wrappers {@link Envelope} knows and NCCL's host on a log's lines: grep
 * -n's line number, cat -n's column, dmesg's or ts -s's seconds, a logger's level or time of a
 * format of its own, pdsh's host, stern's pod. One that does not change from line to line stays
 * part of a thread's cached prefix, found by the first lookup. One that changes would make every
 * line of a thread a new prefix: once it changes between two lines of a process, that process's
 * prefixes are kept from the host on ({@link PrefixCache#putFromHost}) and lines the usual lookups
 * miss are looked for as far into them as the last such wrappers reached ({@link #find}: two
 * lengths, for a digit more). The length of the last one is also where a bare message may start
 * ({@link #skew}, {@link #otherSkew}).
 */
final class UnknownWrappers {
  private final PrefixCache prefixes;
  int skew; // how far past the known wrappers the last NCCL line's unknown one ended; 0: none
  int otherSkew; // the length before, if another
  boolean varying; // a process's such wrapper changed from one of its lines to another
  boolean first; // the last line was found past such a wrapper: look there first
  int foundAt; // where find's prefix starts

  UnknownWrappers(PrefixCache prefixes) {
    this.prefixes = prefixes;
  }

  /**
   * Notes what stands between the known wrappers and the host of a line whose prefix is parsed,
   * [k, host): its length, and whether it changed from one of the process's lines to another.
   * Returns whether the process's prefixes are kept from the host on.
   */
  boolean note(byte[] b, int k, int host, ProcessState proc) {
    if (host == k) {
      skew = 0;
      otherSkew = 0;
      return false;
    }
    int n = host - k;
    if (n != skew) {
      otherSkew = skew;
      skew = n;
    }
    if (!proc.wrapperVaries) {
      int h = n;
      for (int i = k; i < host; i++) {
        h = 31 * h + b[i];
      }
      h = h == 0 ? 1 : h;
      proc.wrapperVaries = proc.wrapper != 0 && proc.wrapper != h;
      proc.wrapper = h;
      varying |= proc.wrapperVaries;
    }
    return proc.wrapperVaries;
  }

  /**
   * The cache slot of the line at s past such a wrapper ({@code lastSlot}, the last line's, first);
   * -1 if none, or if the bytes skipped are no wrapper ({@link #notAWrapper}). Where its prefix
   * starts: {@link #foundAt}.
   */
  int find(byte[] b, int s, int e, int lastSlot) {
    int hit = findAt(b, s, s + skew, e, lastSlot);
    if (hit < 0 && otherSkew > 0 && (hit = findAt(b, s, s + otherSkew, e, lastSlot)) >= 0) {
      int t = skew;
      skew = otherSkew;
      otherSkew = t;
    }
    first = hit >= 0;
    return hit;
  }

  private int findAt(byte[] b, int s, int at, int e, int lastSlot) {
    if (at >= e) {
      return -1;
    }
    int hit = lastSlot >= 0 && prefixes.matches(lastSlot, b, at, e) ? lastSlot : prefixes.findFromHost(b, at, e);
    if (hit >= 0 && !notAWrapper(b, s, at, e)) {
      foundAt = at;
      return hit;
    }
    return -1;
  }

  /**
   * Whether the bytes skipped, [s, to), are not a wrapper: a control byte other than a tab (the
   * line ended there, for {@link LogParser#lineAt} reads past a line's end; or an ANSI colour,
   * which the line-by-line path strips first), or the start of a level token ("NCCL INFO|WARN",
   * or before 2.3 "] INFO|WARN "), which the line-by-line path would take as the line's first record.
   */
  static boolean notAWrapper(byte[] b, int s, int to, int e) {
    for (int i = s; i < to; i++) {
      byte c = b[i];
      if (c < 0x20 && c != '\t' || c == 'N' && LogParser.levelAt(b, i, e) || c == ']' && LogParser.oldLevelAt(b, i, e)) {
        return true;
      }
    }
    return false;
  }
}
