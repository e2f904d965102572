package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A launcher's report of an abnormal end ({@link LauncherReports}: srun's and slurmstepd's errors,
 * Hydra's box, Open MPI's errmgr, kubectl exec's exit code, dash's "Killed" alone), a logger's
 * FATAL line, or a Python traceback's first line (a doubt only, {@link
 * Tracebacks#headerAfterOtherBytes}), behind a wrapper no table knows: stern's Pod and container,
 * compose's service, grep -H's file name, pdsh's host. The parser reads those at the text's start,
 * which such a wrapper hides. What stands before the report (less the known wrappers right before it, {@link
 * UnknownWrappers#shapeEnd}) is taken for a wrapper when the log's NCCL lines had one of its shape
 * ({@link WrapperShapes}); which shapes they had is known once the whole input is read, so the lines
 * wait until then ({@link #resolve}), and the answer does not depend on how the input was cut, nor on
 * whether an NCCL line came before them.
 *
 * <p>Such a wrapper stands before every line of its source, NCCL's too: a line is looked at while
 * no NCCL record came before it, or while the last one had a wrapper no table knows ({@link
 * #lastNccl}). A unit does not know what came before its first NCCL record, so it keeps those lines
 * apart ({@code early}), and the merge takes them when what came before would have had them looked
 * at, or when they start another input ({@link #addAll}): a log whose NCCL lines have no such
 * wrapper pays nothing for the search after its first one, and parts and one pass still agree.
 */
final class WrappedReports {
  /**
   * Wrappers (with the report's kind) whose lines are kept, the first line of each and their count:
   * past them no answer (which came first would depend on the cut), and a hostile log of many costs
   * no more memory.
   */
  static final int MAX = 64;

  private static final class Lines {
    final String wrapper;
    final int kind;
    final Evidence first;
    long count;

    Lines(String wrapper, int kind, Evidence first, long count) {
      this.wrapper = wrapper;
      this.kind = kind;
      this.first = first;
      this.count = count;
    }
  }

  /** Lines by wrapper and kind, in the order first seen. */
  private static final class Kept {
    final Map<String, Lines> byWrapper = new LinkedHashMap<>();
    boolean overflow;
    Lines last; // the last line's: a storm of one Pod's lines is counted without a String

    void add(byte[] b, int k, int w, int kind, EvidenceSlot slot) {
      if (last != null && last.kind == kind && WrapperShapes.isShape(last.wrapper, b, k, w)) {
        last.count++;
        return;
      }
      String wrapper = WrapperShapes.normal(b, k, w);
      last = add(kind + " " + wrapper, wrapper, kind, slot.current(), 1);
    }

    Lines add(String key, String wrapper, int kind, Evidence first, long count) {
      Lines lines = byWrapper.get(key);
      if (lines != null) {
        lines.count += count;
      } else if (room()) {
        lines = new Lines(wrapper, kind, first, count);
        byWrapper.put(key, lines);
      }
      return lines;
    }

    private boolean room() {
      if (!overflow && byWrapper.size() == MAX) {
        overflow();
      }
      return !overflow;
    }

    void overflow() {
      overflow = true;
      byWrapper.clear();
      last = null;
    }

    /** Appends another's lines ({@code off}: the lines before them). */
    void addAll(Kept o, long off) {
      if (o.overflow) {
        overflow();
      }
      last = null;
      o.byWrapper.forEach((key, l) -> add(key, l.wrapper, l.kind, l.first.withLineOffset(off), l.count));
    }
  }

  private final Kept early = new Kept(); // before the unit's first NCCL record
  private final Kept after = new Kept();
  /** {@link #lastNccl}: no NCCL record yet; one without a wrapper no table knows; one with. */
  static final byte NONE = 0;
  static final byte BARE = 1;
  static final byte WRAPPED = 2;

  /**
   * The last NCCL record at a line's start ({@link #NONE}, {@link #BARE}, {@link #WRAPPED}), written
   * by the parser.
   */
  byte lastNccl;

  private boolean inputStart; // these are an input's lines: nothing of another input's came before

  /** These lines are a whole input's: its lines before its first NCCL record count, whatever came before. */
  void startsInput() {
    inputStart = true;
  }

  /** Whether a line here is to be looked at: no NCCL record before it, or one behind such a wrapper. */
  boolean wanted() {
    byte last = lastNccl;
    return last == WRAPPED ? !after.overflow : last == NONE && !early.overflow;
  }

  /**
   * The line (the slot's) with a report of {@code kind} after b[k, w), which may be a wrapper no
   * table knows (the known wrappers end at k).
   */
  void add(byte[] b, int k, int w, int kind, EvidenceSlot slot) {
    (lastNccl == NONE ? early : after).add(b, k, w, kind, slot);
  }

  /**
   * Appends a later unit's ({@code off}: the lines before it). Its lines before its first NCCL
   * record count where the last record so far had such a wrapper, or there was none, or where it
   * starts another input ({@link #startsInput}).
   */
  void addAll(WrappedReports o, long off) {
    if (o.inputStart || lastNccl != BARE) {
      (lastNccl == NONE ? early : after).addAll(o.early, off);
    }
    if (o.lastNccl != NONE) {
      after.addAll(o.after, off);
      lastNccl = o.lastNccl;
    }
  }

  /** Counts as failures (after those found on the way) the lines whose wrapper the NCCL lines had. */
  void resolve(WrapperShapes shapes, EvidenceList failures, EvidenceList[] frameworkFailures) {
    for (Kept kept : new Kept[] {early, after}) {
      for (Lines l : kept.byWrapper.values()) {
        if (!kept.overflow && shapes.has(l.wrapper)) {
          for (long n = 0; n < l.count; n++) {
            Evidence ev = n == 0 ? l.first : null;
            if (l.kind != FrameworkFailures.PYTHON_EXCEPTION) {
              failures.add(ev); // (a traceback is a doubt: a handler may have printed it)
            }
            if (l.kind > 0) {
              frameworkFailures[l.kind - 1].add(ev);
            }
          }
        }
      }
      kept.byWrapper.clear();
      kept.last = null;
    }
  }
}
