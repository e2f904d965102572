package dev.nccltriage.source.log;

/**
 * What stands between the wrappers {@link Envelope} knows and NCCL's host on a log's lines: grep
 * -n's line number, cat -n's column, ts -s's or the epoch's seconds, a logger's level or time of a
 * format of its own, pdsh's host, stern's pod. One that does not change from line to line stays
 * part of a thread's cached prefix, found by the first lookup. One that changes would make every
 * line of a thread a new prefix: once it changes between two lines of a process, that process's
 * prefixes are kept from the host on ({@link PrefixCache#putFromHost}) and lines the usual lookups
 * miss are looked for as far into them as the last such wrappers reached ({@link #find}: two
 * lengths, for a digit more). The length of the last one is also where a bare message may start
 * ({@link #skew}, {@link #otherSkew}).
 */
final class UnknownWrappers {
  private static final int MAX_SHAPE = 256;
  private final PrefixCache prefixes;
  private final WrapperShapes shapes;
  private int notedShape; // the last wrapper's shape noted in shapes (its hash; 0: none)
  // how far past the known wrappers the last NCCL line's unknown one ended; 0: none (and then
  // otherSkew and the shape are none either)
  int skew;
  int otherSkew; // the length before, if another
  // The last such wrapper without the known ones after it on NCCL's line (NCCL's own timestamp
  // after stern's pod): what may stand before a bare message on another program's line.
  private byte[] shape = new byte[16];
  private int shapeLength;
  boolean varying; // a process's such wrapper changed from one of its lines to another
  boolean first; // the last line was found past such a wrapper: look there first
  int foundAt; // where find's prefix starts

  UnknownWrappers(PrefixCache prefixes, WrapperShapes shapes) {
    this.prefixes = prefixes;
    this.shapes = shapes;
  }

  /**
   * Takes over where the last such wrappers ended on the lines before this reader's first, as
   * {@code before} read them (the lines just before a part of a file or a stream's chunk): a bare
   * message at the unit's start is then looked for where one pass over the input looks for it.
   */
  void continueAfter(UnknownWrappers before) {
    skew = before.skew;
    otherSkew = before.otherSkew;
    if (shape.length < before.shapeLength) {
      shape = new byte[before.shapeLength];
    }
    System.arraycopy(before.shape, 0, shape, 0, before.shapeLength);
    shapeLength = before.shapeLength;
  }

  /**
   * Notes what stands between the known wrappers and the host of a line whose prefix is parsed,
   * [k, host): its length, and whether it changed from one of the process's lines to another.
   * Returns whether the process's prefixes are kept from the host on.
   */
  boolean note(byte[] b, int k, int host, ProcessState proc) {
    seen(b, k, host);
    if (host == k) {
      return false;
    }
    int n = host - k;
    int h = n;
    for (int i = k; i < host; i++) {
      h = 31 * h + b[i];
    }
    h = h == 0 ? 1 : h;
    int shape = WrapperShapes.hash(b, k, host);
    if (shape != notedShape && n <= MAX_SHAPE) {
      // every wrapper shape of the unit's lines, for WrappedReports (a line number's new digits
      // make no new shape)
      notedShape = shape;
      shapes.add(b, k, shapeEnd(b, k, host));
    }
    if (!proc.wrapperVaries) {
      proc.wrapperVaries = proc.wrapper != 0 && proc.wrapper != h;
      proc.wrapper = h;
      varying |= proc.wrapperVaries;
    }
    return proc.wrapperVaries;
  }

  /**
   * [k, host) stood between the known wrappers and the host of an NCCL line: the last such wrapper,
   * whether the line's prefix was parsed ({@link #note}) or found in the cache. Where the last
   * NCCL line's wrapper ends is where a bare message is looked for after it, so it must not depend
   * on which lines the cache held (a part of a file starts with an empty cache).
   */
  void seen(byte[] b, int k, int host) {
    if (host == k) {
      skew = 0;
      otherSkew = 0;
      shapeLength = 0;
      return;
    }
    int n = host - k;
    if (n != skew) {
      otherSkew = skew;
      skew = n;
      keepShape(b, k, host);
    }
  }

  /**
   * Keeps [k, host) up to the known wrappers that end at host: up to the first token boundary from
   * which {@link Envelope#afterWrappers} reaches host (only when a wrapper's length differs from the
   * last one's: rare).
   */
  private void keepShape(byte[] b, int k, int host) {
    if (host - k > MAX_SHAPE) {
      shapeLength = 0; // no wrapper: a line's own text before a record glued into it
      return;
    }
    int n = shapeEnd(b, k, host) - k;
    if (shape.length < n) {
      shape = new byte[Math.max(n, 2 * shape.length)];
    }
    System.arraycopy(b, k, shape, 0, n);
    shapeLength = n;
  }

  /**
   * The end of [k, host) without the known wrappers that end at host (NCCL's own timestamp after
   * stern's Pod, an mpirun tag and a torchrun tag after it): the first token boundary from which
   * {@link Envelope#afterWrapperChain} reaches host; host if none. A launcher's report after the
   * same wrapper ({@link WrappedReports}) is cut the same way, with or without those wrappers.
   */
  static int shapeEnd(byte[] b, int k, int host) {
    int[] ends = null;
    for (int p = k + 1; p < host; p++) {
      byte c = b[p - 1];
      if (c == ' ' || c == '\t' || c == ':' || c == '|') {
        ends = ends != null ? ends : new int[host - k + 1];
        if (chainEnd(b, k, p, host, ends) == host) {
          return p;
        }
      }
    }
    return host;
  }

  /**
   * {@link Envelope#afterWrapperChain} from p to host, where each position it passes is kept in
   * {@code ends} (its chain's end + 1; 0: not known yet): the chains from a line's boundaries run
   * into one another, and a report after thousands of wrappers (a hostile line) read them once, not
   * once per boundary before them.
   */
  private static int chainEnd(byte[] b, int k, int p, int host, int[] ends) {
    int end = p;
    while (true) {
      if (ends[end - k] != 0) {
        end = ends[end - k] - 1;
        break;
      }
      int n = Envelope.afterWrappers(b, end, host);
      if (n <= end) {
        break;
      }
      end = n;
    }
    for (int i = p; ends[i - k] == 0; i = Envelope.afterWrappers(b, i, host)) {
      ends[i - k] = end + 1;
      if (i == end) {
        break;
      }
    }
    return end;
  }

  /**
   * Where a wrapper of the kept one's shape that starts at s ends, or -1: the same bytes, but a run
   * of digits or of spaces for a run of any length (a line number, a time, their padding).
   */
  int afterShape(byte[] b, int s, int e) {
    int i = 0;
    int j = s;
    while (i < shapeLength) {
      byte c = shape[i];
      if (j >= e || b[j] != c && !(isDigit(c) && isDigit(b[j]))) {
        return -1;
      }
      if (isDigit(c) || c == ' ') {
        boolean digits = isDigit(c);
        while (i < shapeLength && (digits ? isDigit(shape[i]) : shape[i] == ' ')) {
          i++;
        }
        while (j < e && (digits ? isDigit(b[j]) : b[j] == ' ')) {
          j++;
        }
      } else {
        i++;
        j++;
      }
    }
    return shapeLength > 0 ? j : -1;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
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
      if (c < 0x20 && c != '\t' || c == 'N' && LevelTokens.levelAt(b, i, e) || c == ']' && LevelTokens.oldLevelAt(b, i, e)) {
        return true;
      }
    }
    return false;
  }
}
