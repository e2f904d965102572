package dev.nccltriage.source.log;

import dev.nccltriage.evidence.EvidenceList;
import dev.nccltriage.facts.ErrorKind;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything one pass over (part of) a log collected. Each parallel chunk fills its own; chunks are
 * merged in file order, shifting line numbers by the lines of the chunks before.
 */
final class LogAccumulator {
  final ProcessTable processes;
  final Map<String, EvidenceList> versions = new LinkedHashMap<>();
  final Map<String, Map<String, EvidenceList>> env = new LinkedHashMap<>();
  final Map<String, GdrAcc> gdr = new LinkedHashMap<>();
  final Map<ErrorKey, ErrAcc> errors = new LinkedHashMap<>();
  final Map<String, EvidenceList> pluginsLoaded = new LinkedHashMap<>();
  final EvidenceList dmabuf = new EvidenceList();
  /** WARN lines, and the lines that show the job failing (a WARN that is not a probe's, an error unwind, a crash). */
  final EvidenceList warnings = new EvidenceList();
  final EvidenceList failures = new EvidenceList();
  final WrapperShapes wrapperShapes = new WrapperShapes();
  final WrappedReports wrappedReports = new WrappedReports();
  /** Failure lines of each {@link FrameworkFailures} kind (rendezvous, watchdog, a rank's end, /dev/shm), at kind - 1. */
  final EvidenceList[] frameworkFailures = new EvidenceList[FrameworkFailures.EVIDENCE_KEYS.length];

  {
    for (int k = 0; k < frameworkFailures.length; k++) {
      frameworkFailures[k] = new EvidenceList();
    }
  }

  /** Lines that show Kubernetes (kubectl's [pod/NAME/CONTAINER] prefix). */
  final EvidenceList kubernetes = new EvidenceList();
  /** Interfaces NCCL listed with an IPv6 link-local (fe80::/10) address, and with a loopback one. */
  final EvidenceList linkLocal = new EvidenceList();
  final EvidenceList loopback = new EvidenceList();
  /** GPUDirect RDMA decisions by HCA (NIC-side lines) and by GPU/HCA pair (distance lines). */
  final Map<String, Boolean> gdrHcas = new LinkedHashMap<>();
  final Map<String, Boolean> gdrPairs = new LinkedHashMap<>();
  final Map<String, EvidenceList> ofiProvider = new LinkedHashMap<>();
  final Map<String, EvidenceList> frameworkVersions = new LinkedHashMap<>();
  /** The unit's Python tracebacks: where it ended, and what waits for the unit before it. */
  final Tracebacks tracebacks = new Tracebacks();
  /** What the collections above left out past their caps. */
  final ValueCaps caps = new ValueCaps();
  private final ErrAcc[] errorOverflow = new ErrAcc[ErrorKind.values().length];
  private GdrAcc gdrOverflow; // (its decision fields are the first overflow's: never listed, never read)
  /** nccl-tests' "# Using devices" rank lines: their hosts and ranks (TestsPreamble). */
  final Set<String> testsHosts = new LinkedHashSet<>();
  final java.util.BitSet testsRanks = new java.util.BitSet();
  final EvidenceList testsPreamble = new EvidenceList();
  boolean testsHostsCapped; // more hosts than kept: the count is a lower bound
  /** "Invalid rank requested r/n": the highest n. */
  int invalidRankOf = -1;
  /** Lines with an error signature (ErrorMessages): a line of a host outside the sample that admits it. */
  long errorLines;
  long lines;
  long ncclLines;
  long unplaced;
  long truncated;

  static final class GdrAcc {
    final boolean enabled;
    final String reason;
    final Integer distance;
    final Integer threshold;
    final EvidenceList evidence;

    GdrAcc(boolean enabled, String reason, Integer distance, Integer threshold) {
      this(enabled, reason, distance, threshold, new EvidenceList());
    }

    GdrAcc(boolean enabled, String reason, Integer distance, Integer threshold, EvidenceList evidence) {
      this.evidence = evidence;
      this.enabled = enabled;
      this.reason = reason;
      this.distance = distance;
      this.threshold = threshold;
    }
  }

  /**
   * What tells two error entries apart. Not a record: a record's equals and hashCode are bootstrapped
   * on first use (tens of milliseconds of a cold JVM), and this key is made for every new error text.
   */
  static final class ErrorKey {
    private final ErrorKind kind;
    private final String detail;
    private final Integer status;
    private final int hash;

    ErrorKey(ErrorKind kind, String detail, Integer status) {
      this.kind = kind;
      this.detail = detail;
      this.status = status;
      this.hash = (kind.hashCode() * 31 + Objects.hashCode(detail)) * 31 + Objects.hashCode(status);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ErrorKey k && k.kind == kind && Objects.equals(k.detail, detail)
          && Objects.equals(k.status, status);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  static final class ErrAcc {
    static final int MAX_HOSTS = 16;
    final ErrorKind kind;
    final String detail;
    final Integer status;
    final Set<String> hosts = new LinkedHashSet<>();
    final EvidenceList evidence;

    ErrAcc(ErrorKind kind, String detail, Integer status) {
      this(kind, detail, status, new EvidenceList());
    }

    ErrAcc(ErrorKind kind, String detail, Integer status, EvidenceList evidence) {
      this.evidence = evidence;
      this.kind = kind;
      this.detail = detail;
      this.status = status;
    }

    void seeHost(String host) {
      if (host != null && hosts.size() < MAX_HOSTS) {
        hosts.add(host);
      }
    }
  }

  LogAccumulator() {
    this(ProcessTable.Limits.DEFAULT);
  }

  LogAccumulator(ProcessTable.Limits limits) {
    processes = new ProcessTable(limits);
  }

  /**
   * A GPUDirect RDMA decision's entry; past {@link ValueCaps#DETAILS} distances of one decision
   * (enabled and reason), the overflow (a decision seen first always gets an entry).
   */
  GdrAcc gdr(boolean enabled, String reason, Integer distance, Integer threshold) {
    String key = enabled + "/" + reason + "/" + distance + "/" + threshold;
    GdrAcc g = gdr.get(key);
    if (g != null) {
      return g;
    }
    if (!caps.newDetail(ValueCaps.GDR + "/" + enabled + "/" + reason)) {
      if (gdrOverflow == null) {
        gdrOverflow = new GdrAcc(enabled, reason, null, null, caps.overflow(ValueCaps.GDR));
      }
      return gdrOverflow;
    }
    g = new GdrAcc(enabled, reason, distance, threshold);
    gdr.put(key, g);
    return g;
  }

  /** An error signature's entry; past {@link ValueCaps#DETAILS} details of one kind, the overflow. */
  ErrAcc error(ErrorKind kind, String detail, Integer status) {
    ErrorKey key = new ErrorKey(kind, detail, status);
    ErrAcc e = errors.get(key);
    if (e != null) {
      return e;
    }
    if (!caps.newDetail(ValueCaps.ERRORS + "/" + kind)) {
      int k = kind.ordinal();
      if (errorOverflow[k] == null) {
        errorOverflow[k] = new ErrAcc(kind, null, null, caps.overflow(ValueCaps.ERRORS));
      }
      return errorOverflow[k];
    }
    e = new ErrAcc(kind, detail, status);
    errors.put(key, e);
    return e;
  }

  EvidenceList version(String v) {
    return caps.list(versions, v, ValueCaps.VALUES, ValueCaps.VERSIONS);
  }

  EvidenceList frameworkVersion(String v) {
    return caps.list(frameworkVersions, v, ValueCaps.VALUES, ValueCaps.FRAMEWORK_VERSIONS);
  }

  EvidenceList pluginLoaded(String name) {
    return caps.list(pluginsLoaded, name, ValueCaps.VALUES, ValueCaps.PLUGINS);
  }

  EvidenceList ofiProvider(String name) {
    return caps.list(ofiProvider, name, ValueCaps.VALUES, ValueCaps.OFI_PROVIDERS);
  }

  private static final int MAX_GDR_KEYS = 512;
  /** The keys a part (an accumulator before the merge) keeps. */
  static final int PART_GDR_KEYS = MAX_GDR_KEYS * ValueCaps.PART_SCALE;

  /**
   * One decision: a key decided both ways counts as disabled somewhere (false wins). The job keeps
   * the first {@link #MAX_GDR_KEYS} keys; a part keeps ValueCaps.PART_SCALE times more, so that a
   * later "disabled" of a key the job keeps is not lost in a part that saw many other keys first.
   */
  void seeGdr(Map<String, Boolean> m, String key, boolean enabled) {
    if (key == null || !m.containsKey(key) && m.size() >= PART_GDR_KEYS) {
      return;
    }
    m.merge(key, enabled, Boolean::logicalAnd);
  }

  /** Cuts {@code m} to its first {@code n} keys, in the order they were first seen. */
  private static void keepFirstKeys(Map<String, ?> m, int n) {
    int i = 0;
    for (var it = m.keySet().iterator(); it.hasNext(); i++) {
      it.next();
      if (i >= n) {
        it.remove();
      }
    }
  }

  /**
   * A setting's entry: the job keeps up to {@link ValueCaps#ENV_NAMES} names of
   * {@link ValueCaps#VALUES} values each; a part more (ValueCaps' PART_ caps).
   */
  EvidenceList env(String name, String value) {
    Map<String, EvidenceList> values = env.get(name);
    if (values == null) {
      if (env.size() >= ValueCaps.PART_ENV_NAMES || envEntries >= ValueCaps.PART_ENV_ENTRIES) {
        return caps.overflow(ValueCaps.ENV);
      }
      values = new LinkedHashMap<>();
      env.put(name, values);
    }
    EvidenceList l = values.get(value);
    if (l != null) {
      return l;
    }
    if (envEntries >= ValueCaps.PART_ENV_ENTRIES) {
      return caps.overflow(ValueCaps.ENV);
    }
    int before = values.size();
    l = caps.list(values, value, ValueCaps.VALUES, ValueCaps.ENV);
    envEntries += values.size() - before;
    return l;
  }

  private int envEntries; // name-value entries in env

  /**
   * The job's collections: each cut to its first values, in input order, to the caps that
   * {@link ValueCaps} names; the lines of the rest counted as not kept. Once, after the merge.
   */
  void keepJobsFirst() {
    caps.keepFirst(versions, ValueCaps.VALUES, ValueCaps.VERSIONS);
    caps.keepFirst(frameworkVersions, ValueCaps.VALUES, ValueCaps.FRAMEWORK_VERSIONS);
    caps.keepFirst(pluginsLoaded, ValueCaps.VALUES, ValueCaps.PLUGINS);
    caps.keepFirst(ofiProvider, ValueCaps.VALUES, ValueCaps.OFI_PROVIDERS);
    int names = 0;
    for (var it = env.values().iterator(); it.hasNext(); names++) {
      Map<String, EvidenceList> values = it.next();
      if (names >= ValueCaps.ENV_NAMES) {
        values.values().forEach(l -> caps.overflow(ValueCaps.ENV).addAll(l, 0));
        it.remove();
      } else {
        caps.keepFirst(values, ValueCaps.VALUES, ValueCaps.ENV);
      }
    }
    caps.keepFirst(gdr, ValueCaps.DETAILS, g -> g.enabled + "/" + g.reason, g -> g.evidence, ValueCaps.GDR);
    caps.keepFirst(errors, ValueCaps.DETAILS, e -> e.kind, e -> e.evidence, ValueCaps.ERRORS);
    keepFirstKeys(gdrHcas, MAX_GDR_KEYS);
    keepFirstKeys(gdrPairs, MAX_GDR_KEYS);
  }

  /** Appends a later chunk; {@code off} is the number of lines before it. */
  void merge(LogAccumulator o, long off) {
    // first: o's waiting lines come before any of its own evidence
    tracebacks.follow(o.tracebacks, frameworkFailures[FrameworkFailures.PYTHON_EXCEPTION - 1], off);
    processes.sampleLike(o.processes);
    for (ProcessState p : o.processes.all()) {
      byte[] host = p.evidence.bytes;
      // a host the other part admitted beyond the sample is admitted here too (while there is room)
      // and so is one whose lines showed something wrong that a part with fewer hosts simply kept
      boolean admit = p.evidence.admitted || p.host != null && !processes.keeps(p.host) && Admission.showsWrong(p);
      ProcessState mine = admit ? processes.admit(host, 0, host.length, p.pid, p.hostOnlyAfterOtherBytes) : null;
      if (mine == null) {
        mine = p.host == null
            ? processes.get(null, -1, -1, p.pid, p.hostOnlyAfterOtherBytes)
            : processes.get(host, 0, host.length, p.pid, p.hostOnlyAfterOtherBytes);
      }
      mine.merge(p);
    }
    for (HostEvidence h : o.processes.hosts()) {
      HostEvidence mine = processes.host(h.name);
      (mine != null ? mine : processes.evidence(null)).addAll(h, off);
    }
    caps.merge(o.caps, off);
    o.versions.forEach((k, v) -> version(k).addAll(v, off));
    o.env.forEach((n, m) -> m.forEach((val, ev) -> env(n, val).addAll(ev, off)));
    o.gdr.forEach((k, g) -> gdr(g.enabled, g.reason, g.distance, g.threshold).evidence.addAll(g.evidence, off));
    o.errors.forEach(
        (k, e) -> {
          ErrAcc mine = error(e.kind, e.detail, e.status);
          mine.evidence.addAll(e.evidence, off);
          e.hosts.forEach(mine::seeHost);
        });
    o.pluginsLoaded.forEach((k, v) -> pluginLoaded(k).addAll(v, off));
    dmabuf.addAll(o.dmabuf, off);
    warnings.addAll(o.warnings, off);
    failures.addAll(o.failures, off);
    wrapperShapes.addAll(o.wrapperShapes);
    wrappedReports.addAll(o.wrappedReports, off);
    for (int k = 0; k < frameworkFailures.length; k++) {
      frameworkFailures[k].addAll(o.frameworkFailures[k], off);
    }
    kubernetes.addAll(o.kubernetes, off);
    linkLocal.addAll(o.linkLocal, off);
    loopback.addAll(o.loopback, off);
    invalidRankOf = Math.max(invalidRankOf, o.invalidRankOf);
    o.testsHosts.stream().filter(h -> testsHosts.size() < TestsPreamble.MAX_HOSTS).forEach(testsHosts::add);
    testsRanks.or(o.testsRanks);
    testsPreamble.addAll(o.testsPreamble, off);
    testsHostsCapped |= o.testsHostsCapped || testsHosts.size() >= TestsPreamble.MAX_HOSTS
        && o.testsHosts.stream().anyMatch(h -> !testsHosts.contains(h));
    o.gdrHcas.forEach((k, v) -> seeGdr(gdrHcas, k, v));
    o.gdrPairs.forEach((k, v) -> seeGdr(gdrPairs, k, v));
    o.ofiProvider.forEach((k, v) -> ofiProvider(k).addAll(v, off));
    o.frameworkVersions.forEach((k, v) -> frameworkVersion(k).addAll(v, off));
    lines += o.lines;
    errorLines += o.errorLines;
    ncclLines += o.ncclLines;
    unplaced += o.unplaced;
    truncated += o.truncated;
  }
}
