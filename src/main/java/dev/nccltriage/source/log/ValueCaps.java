package dev.nccltriage.source.log;

import dev.nccltriage.evidence.EvidenceList;
import java.util.Map;
import java.util.TreeMap;

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

  /** The collections, as the report names them. */
  static final String VERSIONS = "ncclVersions";
  static final String FRAMEWORK_VERSIONS = "frameworkVersions";
  static final String ENV = "env";
  static final String PLUGINS = "netPlugins";
  static final String OFI_PROVIDERS = "ofiProviders";
  static final String GDR = "gdrDecisions";
  static final String ERRORS = "errors";

  private final Map<String, EvidenceList> overflow = new TreeMap<>();
  private final Map<String, Integer> details = new java.util.HashMap<>();

  /**
   * The entry of {@code key} in {@code m}: the one there, a new one while {@code m} holds fewer than
   * {@code cap}, else the overflow of collection {@code what}.
   */
  EvidenceList list(Map<String, EvidenceList> m, String key, int cap, String what) {
    EvidenceList l = m.get(key);
    if (l != null) {
      return l;
    }
    if (m.size() >= cap) {
      return overflow(what);
    }
    l = new EvidenceList();
    m.put(key, l);
    return l;
  }

  /**
   * Whether a new detail of {@code group} (an error kind, a GPUDirect RDMA decision) may have an
   * entry of its own, counting it if so: {@link #DETAILS} a group.
   */
  boolean newDetail(String group) {
    int n = details.getOrDefault(group, 0);
    if (n >= DETAILS) {
      return false;
    }
    details.put(group, n + 1);
    return true;
  }

  /** The lines of collection {@code what} whose value was past its cap. */
  EvidenceList overflow(String what) {
    return overflow.computeIfAbsent(what, k -> new EvidenceList());
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
