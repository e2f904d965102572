package dev.nccltriage.evidence;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A bounded list of evidence: the first few occurrences plus a count of all. Keeps memory bounded
 * by the number of distinct facts, not by the number of matching lines.
 */
public final class EvidenceList {
  public static final int KEEP = 3;

  private final List<Evidence> first = new ArrayList<>(2);
  private long count;

  /** Counts an occurrence; {@code e} may be null once {@link #KEEP} items are kept. */
  public void add(Evidence e) {
    count++;
    if (e != null && first.size() < KEEP) {
      first.add(e);
    }
  }

  public void addAll(EvidenceList other, long lineOffset) {
    for (Evidence e : other.first) {
      if (first.size() < KEEP) {
        first.add(e.withLineOffset(lineOffset));
      }
    }
    count += other.count;
  }

  public List<Evidence> items() {
    return Collections.unmodifiableList(first);
  }

  public long count() {
    return count;
  }

  public boolean isEmpty() {
    return count == 0;
  }
}
