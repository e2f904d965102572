package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.startsWith;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Python's report of an exception, by the format of its {@code traceback} module: the line
 * "Traceback (most recent call last):", the frames (each line indented: the file and line, the
 * source, its carets), then the exception's line at the header's indentation, {@code
 * qualified.Name: message} or the name alone. Python prints it for an exception nothing caught (then
 * the process exits) and for one a handler printed ({@code traceback.print_exc()}, a logger's
 * {@code exc_info}): the lines alone do not tell the two apart, so the exception's line is evidence
 * of a possible failure, not of a failure. (PyTorch's distributed excepthook tags an uncaught one's
 * lines with "[rankN]: ", which {@link CrashMarkers} reads as a failure.)
 *
 * <p>One per unit of a log (a part, a chunk), fed the lines no NCCL reader took, in order: NCCL's
 * own lines printed between a traceback's lines (other threads, other ranks) leave it open; so do
 * the lines of another source, where the wrappers name the sources ({@link Envelope#sourceKey}:
 * kubectl {@code -f --prefix} over several Pods, ranks' tags or labels, syslog's senders), which
 * print into one stream line by line; a line of its own source that is neither a frame nor the
 * exception closes it. A unit that continues an input cannot know whether the unit before it ended
 * inside a traceback: the lines it is fed until its first traceback header at indentation 0 (after
 * which the state is the same whatever came before) wait, and {@link #follow} answers them from the
 * state the unit before ended in, when the units are merged. So a traceback cut by a part's start
 * reads as it does in one pass.
 *
 * <p>Behind a wrapper no table knows (stern's Pod and container, compose's service), the text's
 * start is not known, and a unit that starts inside a traceback could not tell its frames from the
 * wrapper: there the header alone is read ({@link #headerAfterOtherBytes}, kept by {@link
 * WrappedReports} until the input's wrappers are known), and is the doubt's evidence.
 */
final class Tracebacks {
  private static final byte[] HEADER = ascii("Traceback (most recent call last):");
  /** Lines that may wait; past them a unit answers from its own start (a hostile run of indented lines). */
  static final int MAX_WAITING = 4096;
  private static final int HEADER_BIT = 1;
  private static final int RAISES_BIT = 2; // an exception's line that is evidence if it ends a traceback
  private static final int INDENT_SHIFT = 2;
  /**
   * Waiting exception lines whose text is kept (of those that may end a traceback): a hostile run of
   * long ones costs no more memory. More than the evidence keeps: other sources' may come first.
   */
  private static final int WAITING_TEXTS = 16;

  private boolean open;
  private int headerIndent; // the blanks and quoting before the open traceback's header
  private int source; // the open traceback's source (Envelope.sourceKey; 0: its line named none)
  private boolean waits; // the lines fed wait for the unit before (continuing() and no header at indent 0 yet)
  private int[] waiting = new int[0]; // per waiting line: indent << 2 | RAISES_BIT | HEADER_BIT
  private int[] waitingSource = new int[0]; // and its source
  private int waitingCount;
  private int candidate = -1; // the last line fed, if it waits and is an exception's line
  private boolean candidateMayRaise; // and no waiting line before it rules out that it ends a traceback
  // per source of waiting lines: the least indentation of its lines since its last header (none
  // that is no header at that indentation or less: such a line closed, or could not see, whatever
  // was open, and a later one at that indentation or deeper ends no traceback before a header)
  private Map<Integer, Integer> closedFrom;
  private int closedUnnamed = Integer.MAX_VALUE; // the same for lines that name no source (most)
  private final int[] textLine = new int[WAITING_TEXTS]; // which waiting lines' evidence is kept
  private final Evidence[] texts = new Evidence[WAITING_TEXTS];
  private int textCount;

  /** The unit continues an input: its first lines' answers wait for the state the unit before ended in. */
  void continuing() {
    waits = true;
  }

  /**
   * Whether the line at s whose text is [t, e), after {@code indent} bytes of blanks or a paste's
   * quoting, is the exception's line that ends an open traceback. Every line that no NCCL reader
   * took is to be given, in order (the state moves with each). False for a line whose answer waits:
   * then {@link #waitingException} says whether it may be one.
   */
  boolean raisedAt(byte[] b, int s, int t, int e, int indent) {
    candidate = -1;
    if (t >= e) {
      return false; // a quoted blank line: no state moves, whatever came before
    }
    boolean header = b[t] == 'T' && startsWith(b, t, e, HEADER) && blankFrom(b, t + HEADER.length, e);
    if (!waits && (open ? indent > headerIndent : !header)) {
      // most lines: no traceback to end or to begin, or a frame of the open one, whatever their source
      return false;
    }
    int from = t > s ? Envelope.sourceKey(b, s, e) : 0;
    if (waits) {
      wait(b, t, e, indent, header, from);
    }
    if (open && (indent > headerIndent || from != source && !header)) {
      return false; // a frame, its source line or carets; another source's line
    }
    boolean wasOpen = open;
    open = header;
    headerIndent = indent;
    source = from;
    return wasOpen && !open && candidate < 0 && exceptionLine(b, t, e); // a waiting line's answer waits
  }

  private void wait(byte[] b, int t, int e, int indent, boolean header, int from) {
    if (waitingCount == waiting.length) {
      waiting = Arrays.copyOf(waiting, Math.max(16, 2 * waitingCount));
      waitingSource = Arrays.copyOf(waitingSource, waiting.length);
    }
    int at = Math.min(indent, Integer.MAX_VALUE >>> INDENT_SHIFT);
    waiting[waitingCount] = at << INDENT_SHIFT | (header ? HEADER_BIT : 0);
    waitingSource[waitingCount] = from;
    int closed = closedFrom(from);
    if (header) {
      closeFrom(from, Integer.MAX_VALUE);
    } else {
      if (exceptionLine(b, t, e)) {
        candidate = waitingCount;
        candidateMayRaise = closed > at;
      }
      if (closed > at) {
        closeFrom(from, at);
      }
    }
    waitingCount++;
    // after a header at indentation 0 the state no longer depends on the lines before (another
    // line may leave another source's traceback open); past the limit, it is taken so
    if (header && indent == 0 || waitingCount == MAX_WAITING) {
      waits = false;
      closedFrom = null;
    }
  }

  private int closedFrom(int from) {
    if (from == 0) {
      return closedUnnamed;
    }
    Integer closed = closedFrom == null ? null : closedFrom.get(from);
    return closed == null ? Integer.MAX_VALUE : closed;
  }

  private void closeFrom(int from, int indent) {
    if (from == 0) {
      closedUnnamed = indent;
    } else {
      if (closedFrom == null) {
        closedFrom = new HashMap<>();
      }
      closedFrom.put(from, indent);
    }
  }

  /** Whether the last line fed is an exception's line whose answer waits for the unit before. */
  boolean waitingException() {
    return candidate >= 0;
  }

  /** The last line fed, a {@link #waitingException}, is evidence if it turns out to end a traceback. */
  void waitWith(EvidenceSlot slot) {
    waiting[candidate] |= RAISES_BIT;
    if (candidateMayRaise && textCount < WAITING_TEXTS) {
      textLine[textCount] = candidate;
      texts[textCount++] = slot.current();
    }
  }

  /**
   * Follows this unit (the input so far) with {@code next}, the unit after it: its waiting lines are
   * answered from the state this one ended in, each exception that ends a traceback recorded in
   * {@code into} (its line shifted by {@code off}, the lines before {@code next}); then this one's
   * state is where {@code next} ends.
   */
  void follow(Tracebacks next, EvidenceList into, long off) {
    boolean o = open;
    int h = headerIndent;
    int src = source;
    int text = 0;
    for (int i = 0; i < next.waitingCount; i++) {
      int r = next.waiting[i];
      int indent = r >>> INDENT_SHIFT;
      boolean header = (r & HEADER_BIT) != 0;
      int from = next.waitingSource[i];
      while (text < next.textCount && next.textLine[text] < i) {
        text++;
      }
      if (o && (indent > h || from != src && !header)) {
        continue;
      }
      boolean wasOpen = o;
      o = header;
      h = indent;
      src = from;
      if (wasOpen && !o && (r & RAISES_BIT) != 0) {
        boolean kept = text < next.textCount && next.textLine[text] == i;
        into.add(kept && into.count() < EvidenceList.KEEP ? next.texts[text].withLineOffset(off) : null);
      }
    }
    if (next.waits) {
      open = o; // every line of next waited: where they led is where it ends
      headerIndent = h;
      source = src;
    } else {
      open = next.open;
      headerIndent = next.headerIndent;
      source = next.source;
    }
  }

  /**
   * Where the header starts in the text [t, e) if the text ends with it after other bytes that end
   * at a blank, colon or '|' (a wrapper no table knows: stern's Pod and container, compose's
   * service, grep -H's file, pdsh's host), within {@link LauncherReports#MAX_WRAPPER} bytes; else -1.
   */
  static int headerAfterOtherBytes(byte[] b, int t, int e) {
    int end = e;
    while (end > t && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
      end--;
    }
    int h = end - HEADER.length;
    if (h <= t || b[end - 1] != ':' || h - t > LauncherReports.MAX_WRAPPER) {
      return -1;
    }
    byte c = b[h - 1];
    return (c == ' ' || c == ':' || c == '|' || c == '\t') && startsWith(b, h, end, HEADER) ? h : -1;
  }

  /** "name(.name)*" then ": " and a message, or the line's end. */
  private static boolean exceptionLine(byte[] b, int t, int e) {
    int i = t;
    while (true) {
      int start = i;
      if (i < e && CrashMarkers.isNameByte(b[i]) && !Bytes.isDigit(b[i])) {
        i++;
        while (i < e && CrashMarkers.isNameByte(b[i])) {
          i++;
        }
      }
      if (i == start) {
        return false;
      }
      if (i < e && b[i] == '.') {
        i++;
        continue;
      }
      return i == e || i + 1 < e && b[i] == ':' && b[i + 1] == ' ' || i + 1 == e && b[i] == ':';
    }
  }

  private static boolean blankFrom(byte[] b, int i, int e) {
    while (i < e && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    return i == e;
  }
}
