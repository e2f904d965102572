package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A signal's name alone at a line's end ("Killed", "Aborted", "Terminated": dash's report of a
 * command it waited for, {@link LauncherReports}) behind a wrapper no table knows: stern's Pod and
 * container, compose's service, grep -H's file name. {@link LauncherReports} reads the word at the
 * text's start, which such a wrapper hides. What stands before the word is taken for a wrapper when
 * the log's NCCL lines had one of its shape ({@link WrapperShapes}); which shapes they had is known
 * once the whole input is read, so the lines wait until then ({@link #resolve}), and the answer does
 * not depend on how the input was cut, nor on whether an NCCL line came before them.
 */
final class WrappedSignals {
  /**
   * Wrappers (with the word's kind) whose lines are kept, the first line of each and their count:
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

  private final Map<String, Lines> byWrapper = new LinkedHashMap<>();
  private boolean overflow;
  private Lines last; // the last line's: a storm of one Pod's lines is counted without a String

  /** Whether the line is neither kept nor counted (a hostile log's lines then cost nothing more). */
  boolean full() {
    return overflow;
  }

  /**
   * The line (the slot's) whose text ends in a signal's name of {@code kind} at w, after the known
   * wrappers end at k: b[k, w) is what may be a wrapper no table knows.
   */
  void add(byte[] b, int k, int w, int kind, EvidenceSlot slot) {
    if (last != null && last.kind == kind && WrapperShapes.isShape(last.wrapper, b, k, w)) {
      last.count++;
      return;
    }
    String wrapper = WrapperShapes.normal(b, k, w);
    String key = kind + " " + wrapper;
    Lines lines = byWrapper.get(key);
    if (lines != null) {
      lines.count++;
    } else if (room()) {
      lines = new Lines(wrapper, kind, slot.current(), 1);
      byWrapper.put(key, lines);
    }
    last = lines;
  }

  private boolean room() {
    if (!overflow && byWrapper.size() == MAX) {
      overflow = true;
      byWrapper.clear();
      last = null;
    }
    return !overflow;
  }

  /** Appends a later unit's ({@code off}: the lines before it). */
  void addAll(WrappedSignals o, long off) {
    if (o.overflow) {
      overflow = true;
      byWrapper.clear();
    }
    last = null;
    o.byWrapper.forEach((key, l) -> {
      Lines mine = byWrapper.get(key);
      if (mine != null) {
        mine.count += l.count;
      } else if (room()) {
        byWrapper.put(key, new Lines(l.wrapper, l.kind, l.first.withLineOffset(off), l.count));
      }
    });
  }

  /** Counts as failures (after those found on the way) the lines whose wrapper the NCCL lines had. */
  void resolve(WrapperShapes shapes, EvidenceList failures, EvidenceList[] frameworkFailures) {
    for (Lines l : byWrapper.values()) {
      if (shapes.has(l.wrapper)) {
        for (long n = 0; n < l.count; n++) {
          Evidence ev = n == 0 ? l.first : null;
          failures.add(ev);
          if (l.kind > 0) {
            frameworkFailures[l.kind - 1].add(ev);
          }
        }
      }
    }
    byWrapper.clear();
    last = null;
  }
}
