package dev.nccltriage.source.log;

import dev.nccltriage.evidence.EvidenceList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Caps the job-wide collections keyed by a value that a log prints (versions, env settings, error
 * details, plugins, OFI providers): a real job prints a handful of each, but a garbled or hostile
 * log can print a million distinct ones, and each would cost memory, a merge and a JSON entry (a
 * log of 100000 distinct error details gave a 40 MB report; one of distinct versions never ended).
 * A value past its collection's cap is not kept: its lines are counted into an overflow entry of
 * the collection that no report lists, so the report can say how many lines it left out and where.
 */
final class ValueCaps {
  /** Distinct values of a collection (for env settings: distinct names). */
  static final int VALUES = 16;
  /** Distinct env setting names; each keeps up to {@link #VALUES} values. */
  static final int ENV_NAMES = 256;
  /** Distinct details of one error kind, and of one GPUDirect RDMA decision (enabled and reason). */
  static final int DETAILS = 16;

  /**
   * A part of a log keeps this many times each cap: the job keeps the first values of its whole
   * input, and a value it keeps can come past a part's own first few (in a log of many jobs'
   * logs, each of another NCCL version, a part starts anywhere in the cycle). Its lines are then
   * counted in full whichever part they fall in, and the result does not depend on where the log
   * was cut; {@link #keepFirst} cuts the merged collections to the caps. Only a part with more
   * distinct values than this still leaves the counts of the values kept short.
   */
  static final int PART_SCALE = 16;
  /** Distinct env setting names a part keeps, and name-value entries in all. */
  static final int PART_ENV_NAMES = 4 * ENV_NAMES;
  static final int PART_ENV_ENTRIES = 2 * ENV_NAMES * VALUES;

  /** The collections, as the report names them. */
  static final String VERSIONS = "ncclVersions";
  static final String FRAMEWORK_VERSIONS = "frameworkVersions";
  static final String ENV = "env";
  static final String PLUGINS = "netPlugins";
  static final String OFI_PROVIDERS = "ofiProviders";
  static final String GDR = "gdrDecisions";
  static final String ERRORS = "errors";

  private final Map<String, EvidenceList> overflow = new TreeMap<>();
  private final Map<String, Integer> details = new HashMap<>();

  /**
   * The entry of {@code key} in {@code m}: the one there, a new one while {@code m} holds fewer than
   * {@code cap}, else the overflow of collection {@code what}.
   */
  EvidenceList list(Map<String, EvidenceList> m, String key, int cap, String what) {
    EvidenceList l = m.get(key);
    if (l != null) {
      return l;
    }
    if (m.size() >= cap * PART_SCALE) {
      return overflow(what);
    }
    l = new EvidenceList();
    m.put(key, l);
    return l;
  }

  /**
   * Whether a new detail of {@code group} (an error kind, a GPUDirect RDMA decision) may have an
   * entry of its own, counting it if so: {@link #DETAILS} a group ({@link #PART_SCALE} times that
   * until the parts are merged).
   */
  boolean newDetail(String group) {
    int n = details.getOrDefault(group, 0);
    if (n >= DETAILS * PART_SCALE) {
      return false;
    }
    details.put(group, n + 1);
    return true;
  }

  /** The lines of collection {@code what} whose value was past its cap. */
  EvidenceList overflow(String what) {
    return overflow.computeIfAbsent(what, k -> new EvidenceList());
  }

  /**
   * Cuts {@code m} to its first {@code cap} entries (the order values were first seen in); the
   * lines of the rest are counted as not kept in collection {@code what}.
   */
  void keepFirst(Map<String, EvidenceList> m, int cap, String what) {
    keepFirst(m, cap, v -> "", v -> v, what);
  }

  /** As {@link #keepFirst(Map, int, String)}, {@code cap} entries per {@code group}. */
  <K, V> void keepFirst(Map<K, V> m, int cap, Function<V, Object> group, Function<V, EvidenceList> evidence,
      String what) {
    if (m.size() <= cap) {
      return;
    }
    Map<Object, Integer> kept = new HashMap<>();
    for (Iterator<V> it = m.values().iterator(); it.hasNext(); ) {
      V v = it.next();
      if (kept.merge(group.apply(v), 1, Integer::sum) > cap) {
        overflow(what).addAll(evidence.apply(v), 0);
        it.remove();
      }
    }
  }

  /** Adds a later part's overflow; {@code off}: the lines before that part. */
  void merge(ValueCaps o, long off) {
    o.overflow.forEach((k, v) -> overflow(k).addAll(v, off));
  }

  /** Lines not kept, by collection (sorted by name); empty when every value was kept. */
  Map<String, Long> linesNotKept() {
    Map<String, Long> out = new TreeMap<>();
    overflow.forEach((k, v) -> {
      if (v.count() > 0) {
        out.put(k, v.count());
      }
    });
    return out;
  }
}
