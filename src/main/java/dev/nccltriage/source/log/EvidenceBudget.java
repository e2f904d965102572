package dev.nccltriage.source.log;

import java.util.HashMap;
import java.util.Map;

/**
 * How many hosts keep lines of each kind, by what the line says: the first {@link #HOSTS} hosts
 * that print "Using network IB" keep it, and so do the first that print "Using network Socket".
 * Memory for evidence is then bounded by kinds and values, not by hosts, while a minority (the
 * nodes that differ, whose lines say something else) still has its own lines. One per process
 * table; the job's table applies it again as parts are merged.
 */
final class EvidenceBudget {
  /** Hosts per kind and value: more than the differences a report lists (32). */
  static final int HOSTS = 64;
  /** Values told apart per kind; further values share one budget. */
  private static final int VALUES = 16;

  private final Map<Object, int[]>[] taken;

  @SuppressWarnings("unchecked")
  EvidenceBudget() {
    taken = new Map[HostEvidence.KINDS];
  }

  /** Counts one more host keeping lines of this kind and value; false when there were enough. */
  boolean take(int kind, Object value) {
    Map<Object, int[]> m = taken[kind];
    if (m == null) {
      m = taken[kind] = new HashMap<>();
    }
    Object key = value == null || !m.containsKey(value) && m.size() >= VALUES ? NONE : value;
    int[] n = m.computeIfAbsent(key, k -> new int[1]);
    if (n[0] >= HOSTS) {
      return false;
    }
    n[0]++;
    return true;
  }

  private static final Object NONE = new Object();
}
