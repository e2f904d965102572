package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the state of the process a line came from by the raw bytes of its host name and its pid,
 * without allocating on a hit: interleaved logs of a thousand ranks look up a process per line.
 *
 * <p>Bounded: at most {@link Limits#processes} processes are told apart; past that, a host's
 * further processes share one state (pid {@link #FOLDED}). Past {@link Limits#hosts} hosts, the
 * table keeps a sample: the hosts whose name hashes to a value with its top {@code level} bits
 * zero; the others (evicted, and any such host seen later) count as lines without a host. The
 * rule depends on the name only, so every part of a file keeps the same hosts, and the job
 * (merged from parts at different levels) keeps those of the highest level, each with all of its
 * lines. What was folded is recorded, so that the report says its counts are lower bounds. A host
 * name is stored once, whatever its processes.
 *
 * <p>A host outside the sample whose line shows something wrong (the node on sockets among
 * thousands on IB, a WARN) is {@linkplain #admit admitted}: it has its own state from that line on,
 * beyond the sample, up to {@link Limits#admitted} such hosts. A sample is for what is alike; the
 * host that differs is what the report is for.
 */
final class ProcessTable {
  /** The pid of the state a host's processes share once the table holds enough processes. */
  static final long FOLDED = -2;

  /** How many hosts and processes a table tells apart; {@code admitted}: hosts beyond the sample. */
  record Limits(int hosts, int processes, int admitted) {
    /** 32768 hosts, 16384 processes told apart (about 200 bytes each; a host past that is one). */
    static final Limits DEFAULT = new Limits(1 << 15, 1 << 14, 1 << 10);

    Limits(int hosts, int processes) {
      this(hosts, processes, 1 << 10);
    }
  }

  private final Limits limits;
  private final EvidenceBudget budget = new EvidenceBudget();
  private ProcessIndex index = new ProcessIndex(64);
  private final List<ProcessState> inOrder = new ArrayList<>();
  private final Map<String, HostEvidence> hostEvidence = new LinkedHashMap<>();
  private HostEvidence noHost;
  private boolean hostsFolded; // a host past the limit: its lines count as lines without a host
  private int level; // hosts kept: those whose name hash has its top `level` bits zero
  private ProcessState outside; // the state of lines without a host (or pid), once looked up
  private Runnable evicted = () -> { };
  private boolean processesFolded; // a process past the limit shares its host's FOLDED state
  private int admittedHosts; // hosts outside the sample admitted for a line that shows something wrong
  private final java.util.BitSet admittedHashes = new java.util.BitSet(1 << 16); // of their names' hashes
  private boolean admittedFolded; // such a host past Limits.admitted: its lines stayed without a host
  // A host's evidence by its name's bytes, without a String or a map: most new processes are of a
  // host seen before (another rank of it). A cache of hostEvidence, by the name hash's high bits:
  // it holds only hosts the map holds, and is emptied wherever one leaves the map.
  private final HostEvidence[] recentHosts = new HostEvidence[1 << 12];

  ProcessTable() {
    this(Limits.DEFAULT);
  }

  ProcessTable(Limits limits) {
    this.limits = limits;
  }

  ProcessState get(byte[] b, int hs, int he, long pid, boolean glued) {
    long name = ProcessIndex.nameHash(b, hs, he);
    if (level > 0 && hs >= 0 && outsideSample(name)) {
      // past the sample most lines are of hosts it does not keep: told by a hash of the name,
      // without a miss in the index or a String
      if (outside == null) {
        outside = get(null, -1, -1, -1, glued);
      }
      return outside;
    }
    ProcessState s = index.find(b, hs, he, name, pid);
    if (s != null) {
      return s;
    }
    if (hs >= 0 && pid != FOLDED && inOrder.size() >= limits.processes()) {
      // every further process of a host shares its FOLDED state: found by the name's bytes
      s = index.find(b, hs, he, name, FOLDED);
      if (s != null) {
        processesFolded = true;
        return s;
      }
    }
    HostEvidence host = hs < 0 ? evidence(null) : host(b, hs, he, name);
    if (host.name == null && hs >= 0) {
      // a host past the limit: its lines join those without a host
      return get(null, -1, -1, -1, glued);
    }
    if (inOrder.size() >= limits.processes() && pid != FOLDED) {
      processesFolded = true;
      return host.name == null ? get(null, -1, -1, FOLDED, glued) : get(host.bytes, 0, host.bytes.length, FOLDED, glued);
    }
    return add(host, pid, glued);
  }

  private ProcessState add(HostEvidence host, long pid, boolean glued) {
    byte[] key = host.name == null ? ProcessIndex.NO_HOST : host.bytes;
    ProcessState s = new ProcessState(pid, glued, host);
    index.put(key, pid, s);
    inOrder.add(s);
    if (inOrder.size() * 2 > index.capacity()) {
      index.grow();
    }
    return s;
  }

  /**
   * The host named by b[hs, he) ({@link ProcessIndex#nameHash} {@code nameHash}); the no-host entry
   * if the host is not among those kept.
   */
  private HostEvidence host(byte[] b, int hs, int he, long nameHash) {
    int slot = (int) (nameHash >>> 32) & (recentHosts.length - 1);
    HostEvidence c = recentHosts[slot];
    // the same bytes decode to the same name: what the map would answer
    if (c != null && c.bytes.length == he - hs && Bytes.equal(b, hs, c.bytes, c.bytes.length)) {
      return c;
    }
    String name = new String(b, hs, he - hs, StandardCharsets.UTF_8);
    HostEvidence h = hostEvidence.get(name);
    if (h != null) {
      recentHosts[slot] = h;
      return h;
    }
    if (!kept(name, level)) {
      return evidence(null);
    }
    while (hostEvidence.size() - admittedHosts >= limits.hosts() && level < 32) {
      sample(level + 1);
    }
    if (hostEvidence.size() - admittedHosts >= limits.hosts() || !kept(name, level)) {
      hostsFolded = true; // (names made to collide may defeat the sample: then simply no more)
      return evidence(null);
    }
    h = new HostEvidence(name, Arrays.copyOfRange(b, hs, he), budget); // (not in the map: looked up above)
    hostEvidence.put(name, h);
    recentHosts[slot] = h;
    return h;
  }

  /**
   * Whether the ASCII host of {@link ProcessIndex#nameHash} {@code nameHash} is one the sample does
   * not keep and that was not admitted (a name whose hash shares 16 bits with an admitted one's,
   * or that is not ASCII, is looked at in full).
   */
  private boolean outsideSample(long nameHash) {
    int hash = (int) nameHash;
    return (nameHash & ProcessIndex.NOT_ASCII) == 0 && !kept(hash, level) && !admittedHashes.get(hash & 0xFFFF);
  }

  static boolean kept(String name, int level) {
    return kept(name.hashCode(), level);
  }

  private static boolean kept(int nameHash, int level) {
    if (level == 0) {
      return true;
    }
    int h = nameHash * 0x9E3779B1;
    h ^= h >>> 15;
    h *= 0x85EBCA77;
    h ^= h >>> 13;
    return level >= 32 ? h == 0 : h >>> (32 - level) == 0;
  }

  /** Called when hosts are evicted: whoever cached a process state must look it up again. */
  void onEvict(Runnable r) {
    evicted = r == null ? () -> { } : r;
  }

  /**
   * Keeps only the hosts of {@code newLevel} (at least the current one): the others' processes
   * join the no-host state, their lines kept as its evidence where it keeps any.
   */
  void sample(int newLevel) {
    if (newLevel <= level) {
      return;
    }
    level = newLevel;
    hostsFolded = true;
    for (ProcessState p : inOrder) {
      if (p.host != null && !p.evidence.admitted && !kept(p.host, level) && Admission.showsWrong(p)) {
        admit(p.evidence);
      }
    }
    List<ProcessState> keep = new ArrayList<>(inOrder.size());
    List<ProcessState> gone = new ArrayList<>();
    for (ProcessState p : inOrder) {
      (p.host == null || p.evidence.admitted || kept(p.host, level) ? keep : gone).add(p);
    }
    if (gone.isEmpty()) {
      return;
    }
    hostEvidence.values().removeIf(h -> !h.admitted && !kept(h.name, level));
    Arrays.fill(recentHosts, null);
    inOrder.clear();
    int size = 64;
    while (size < 2 * keep.size() + 2) {
      size *= 2;
    }
    index = new ProcessIndex(size);
    for (ProcessState p : keep) {
      add(p);
    }
    HostEvidence none = evidence(null);
    ProcessState rest = get(null, -1, -1, -1, false);
    HostEvidence last = null;
    for (ProcessState p : gone) {
      rest.merge(p);
      if (p.evidence != last) {
        none.addAll(p.evidence, 0);
        last = p.evidence;
      }
    }
    evicted.run();
  }

  /**
   * The state of a host outside the sample whose line shows something wrong: the host is told
   * apart from now on, beyond the sample. Null past {@link Limits#admitted} such hosts (recorded:
   * its lines stay without a host, and the report must not read them as one process's).
   */
  ProcessState admit(byte[] b, int hs, int he, long pid, boolean glued) {
    String name = new String(b, hs, he - hs, StandardCharsets.UTF_8);
    HostEvidence h = hostEvidence.get(name);
    if (h == null && !admit(evidence(name))) {
      hostEvidence.remove(name); // (never in recentHosts: it was not in the map before this line)
      return null;
    }
    return get(b, hs, he, pid, glued);
  }

  /** Marks a host admitted beyond the sample; false past {@link Limits#admitted} such hosts. */
  private boolean admit(HostEvidence h) {
    if (admittedHosts >= limits.admitted()) {
      admittedFolded = true;
      return false;
    }
    h.admitted = true;
    admittedHosts++;
    admittedHashes.set(h.name.hashCode() & 0xFFFF);
    return true;
  }

  /** Whether the sample keeps host {@code name} (admitted or not). */
  boolean keeps(String name) {
    return kept(name, level);
  }

  boolean admittedFolded() {
    return admittedFolded;
  }

  /** Puts a state back into the table (after a sample). */
  private void add(ProcessState p) {
    HostEvidence h = p.evidence;
    byte[] key = h.name == null ? ProcessIndex.NO_HOST : h.bytes;
    index.put(key, p.pid, p);
    inOrder.add(p);
  }

  /** The evidence of a host (null: lines without a host prefix). */
  HostEvidence evidence(String host) {
    if (host == null) {
      if (noHost == null) {
        noHost = new HostEvidence(null, ProcessIndex.NO_HOST, budget);
      }
      return noHost;
    }
    return hostEvidence.computeIfAbsent(host, k -> new HostEvidence(k, k.getBytes(StandardCharsets.UTF_8), budget));
  }

  /** The hosts, in first-seen order, and then the no-host entry if there is one. */
  List<HostEvidence> hosts() {
    List<HostEvidence> out = new ArrayList<>(hostEvidence.values());
    if (noHost != null) {
      out.add(noHost);
    }
    return out;
  }

  /** The evidence of a host by name; null if the host is not in the table. */
  HostEvidence host(String name) {
    return name == null ? noHost : hostEvidence.get(name);
  }

  List<ProcessState> all() {
    return inOrder;
  }

  boolean hostsFolded() {
    return hostsFolded;
  }

  int processLimit() {
    return limits.processes();
  }

  boolean processesFolded() {
    return processesFolded;
  }

  /** Before merging another table's states: keeps only the hosts both keep. */
  void sampleLike(ProcessTable o) {
    sample(o.level);
    hostsFolded |= o.hostsFolded;
    processesFolded |= o.processesFolded;
    admittedFolded |= o.admittedFolded;
  }

  /**
   * Hosts the log shows, estimated when only a sample was kept (each sampled host stands for
   * 2^level; an admitted one is among those the others stand for).
   */
  long hostsSeen() {
    return Math.max(hostEvidence.size(), (long) (hostEvidence.size() - admittedHosts) << level);
  }
}
