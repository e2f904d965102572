package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import java.util.ArrayList;
import java.util.List;

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
  /** Lines kept (the first ones): a hostile log of many costs no more memory. */
  static final int MAX = 16;

  private record Candidate(String wrapper, int kind, Evidence evidence) {}

  private final List<Candidate> candidates = new ArrayList<>();

  /** Whether no more lines are kept (a hostile log of many such lines pays no more for them). */
  boolean full() {
    return candidates.size() >= MAX;
  }

  /** The line (the slot's) whose text ends in a signal's name of {@code kind}, wrapped by {@code wrapper}. */
  void add(String wrapper, int kind, EvidenceSlot slot) {
    if (candidates.size() < MAX) {
      candidates.add(new Candidate(wrapper, kind, slot.current()));
    }
  }

  /** Appends a later unit's ({@code off}: the lines before it). */
  void addAll(WrappedSignals o, long off) {
    for (Candidate c : o.candidates) {
      if (candidates.size() < MAX) {
        candidates.add(new Candidate(c.wrapper, c.kind, c.evidence.withLineOffset(off)));
      }
    }
  }

  /** Counts as failures (after those found on the way) the lines whose wrapper the NCCL lines had. */
  void resolve(WrapperShapes shapes, EvidenceList failures, EvidenceList[] frameworkFailures) {
    for (Candidate c : candidates) {
      if (shapes.has(c.wrapper)) {
        failures.add(c.evidence);
        if (c.kind > 0) {
          frameworkFailures[c.kind - 1].add(c.evidence);
        }
      }
    }
    candidates.clear();
  }
}
