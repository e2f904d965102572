package dev.nccltriage.source.log;

/**
 * What the one pass for the envelope and the crash markers ({@link CrashMarkers#ncclOrCrash}) found
 * in the line being read, for the readers after it: whether a crash marker starts in it, and what
 * it cannot hold ("] I" or "] W", " comm 0x", a '#'), so that they need not search it again. Known
 * only of a line that pass read whole (a line of other output after another: {@link LogParser});
 * of any other line nothing is known, and each reader searches it as it would alone.
 */
final class LineScan {
  private final CrashTexts texts = new CrashTexts(); // the crash searches' texts after a name, for the line
  // the line [from, to) of of that the pass read whole (null: none), and what it found there
  private byte[] of;
  private int from;
  private int to;
  private boolean crash;
  private long seen; // CrashMarkers' CO and HASH, of what the line holds
  // the pass stopped at an "NCCL " that was no envelope: what it found before, for the rest's
  private boolean crashBefore;
  private long seenBefore;
  // the line's envelope search may have passed a "] I" or "] W" (or did not look)
  private boolean bracketSeen;

  /** A new line: nothing is known of it. */
  void forget() {
    of = null;
    texts.forget();
  }

  /** The line's envelope is searched without the pass (a line after an NCCL line): "] I" may be anywhere. */
  void unscanned() {
    bracketSeen = true;
  }

  /**
   * The first "NCCL " in [from, e) of the line that starts at s, or -1; then the line's crash search
   * is done too (with what the searches from s to from found), its answer kept for {@link #crash}.
   */
  int envelopeOrCrash(byte[] b, int s, int from, int e) {
    long scan = CrashMarkers.ncclOrCrash(b, s, from, e, texts);
    int at = (int) scan;
    boolean continued = from > s;
    bracketSeen = continued && bracketSeen || (scan & CrashMarkers.BRACKET) != 0;
    // a marker before an "NCCL " that was no envelope counts for the line
    boolean found = (scan & CrashMarkers.CRASH) != 0 || continued && crashBefore;
    long holds = scan & (CrashMarkers.CO | CrashMarkers.HASH) | (continued ? seenBefore : 0);
    if (at < 0) {
      of = b;
      this.from = s;
      to = e;
      crash = found;
      seen = holds;
    } else {
      crashBefore = found;
      seenBefore = holds;
    }
    return at;
  }

  /**
   * The line [s, e) of b is recorded as a failure already (an "NCCL error" line a framework printed):
   * not to be recorded again as a crash, and of what it holds nothing is known.
   */
  void recorded(byte[] b, int s, int e) {
    of = b;
    from = s;
    to = e;
    crash = false;
    seen = -1L;
  }

  /** Whether a crash marker starts in the line [s, e) of b (the pass's answer, or a search now). */
  boolean crash(byte[] b, int s, int e) {
    return read(b, s, e) ? crash : CrashMarkers.isCrash(b, s, e, texts);
  }

  /** Whether the line may hold before 2.3's level token, "] INFO " or "] WARN ". */
  boolean bracketSeen() {
    return bracketSeen;
  }

  /** Whether the line [s, e) of b was read whole and holds no '#' before its last byte. */
  boolean hashFree(byte[] b, int s, int e) {
    return read(b, s, e) && (seen & CrashMarkers.HASH) == 0;
  }

  /** Whether the line [s, e) of b was read whole and holds no " comm 0x". */
  boolean commFree(byte[] b, int s, int e) {
    return read(b, s, e) && (seen & CrashMarkers.CO) == 0;
  }

  private boolean read(byte[] b, int s, int e) {
    return of == b && from == s && to == e;
  }
}
