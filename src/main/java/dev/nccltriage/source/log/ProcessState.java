package dev.nccltriage.source.log;

import dev.nccltriage.facts.Hca;
import dev.nccltriage.facts.Iface;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one NCCL process (host, pid) printed. Bounded: counters and first-seen values only. */
final class ProcessState {
  final String host; // null when the log has no host:pid:tid prefix
  final long pid;
  /**
   * Each of its records so far was glued after another record, whose last word may have run into
   * the host name ("...nvmlDev 1nvmhost-a:12:12"). {@link GluedHosts} gives such a name to a real
   * host that ends it, if one does. One record of its own line makes the name real. (A record
   * behind another program's text is of its own line: with a wrapper no table knows around every
   * line, each record is behind such text.)
   */
  boolean hostOnlyAfterOtherBytes;
  /**
   * Stands for processes of several hosts (those outside a sample, counted without a host): what
   * one of them printed is true of that one, but no two of its values need be of the same process.
   */
  boolean many;

  long devices; // cudaDev bits seen in prefixes
  // what no table knows before its lines' host (LogParser): a hash of the last one (0: none), and
  // whether it changed from one of its lines to another
  int wrapper;
  boolean wrapperVaries;
  int rankMin = Integer.MAX_VALUE;
  int rankMax = -1;
  int nRanks = -1;
  int nNodes = -1;
  int localRanks = -1;
  final HostEvidence evidence; // the host's: its name and the lines kept for it
  int evidenceFull; // bit k: the host keeps no more lines of kind k (EvidenceSlot), not merged

  String network; // "Using network X" (last one)
  // by network, in first-seen order: a chain, as a process uses one network (rarely two)
  private ChannelCounter firstChannels;
  long localChannels; // P2P / SHM

  boolean ibNoDeviceSeen;
  boolean ibLogged; // any NET/IB line: the IB transport was at least initialised
  List<Hca> hcas; // first non-empty NET/IB : Using list
  boolean hcaListEmpty; // an empty NET/IB : Using line (2.24+ no-device shape)
  boolean relaxedOrdering;
  Iface oob;
  List<Hca> perLineHcas = List.of(); // 2.3: one "NET/IB: [i] dev:port/LL" line each (sorted by index)

  List<Iface> socketIfaces; // in the order listed; a list may be another state's
  /**
   * Socket interfaces a state adds after its first list (the state of lines without a host pools
   * every process's lists): as many as the job's facts list.
   */
  static final int MAX_SOCKET_IFACES = 32;
  Iface[] lastSocketList; // the last NET/Socket list (a remembered text's): a repeat adds nothing
  Iface bootstrap;

  int ringsGdr = -1; // "Connected all rings, use ring PXN %d GDR %d"

  // What tells the network when no "Using network" line does (before 2.6.4, or an excerpt):
  int peerRankMax = -1; // highest rank id on either side of its connection lines
  boolean ibFailed; // IB init failed: No device found, no libibverbs, no IP interface, unusable devices
  boolean socketListed; // "NET/Socket : Using [..]" (2.4.0-2.4.7 print it whatever was chosen)
  String nicDistanceNet; // 2.4: "CUDA Dev 0[0], IB NIC distance : PHB"
  String gdrHcaNet; // 2.13+: "NET/<name> : GPU Direct RDMA ... for HCA": the selected network
  boolean ibRuntimeError; // completion, async, QP or registration errors of the IB transport
  boolean ofiSeen; // a "NET/OFI" line: aws-ofi-nccl was loaded
  String ofiProvider; // "NET/OFI Selected Provider is tcp"
  boolean ofiFailed; // aws-ofi-nccl failed to initialise: its provider carries nothing
  String version; // the NCCL version this process printed (2.22+ prints it per process)
  boolean pluginLoaded; // a net plugin loaded in this process
  boolean initSeen; // lines of its network init: Bootstrap, NET/Plugin, NET/Socket, NET/IB, its version
  boolean noVerbs; // libibverbs could not be loaded: no verbs-based RDMA (IB, IBext, EFA) in this process
  boolean wrongLine; // a WARN, a failure or an error signature of this process (see Admission)

  ProcessState(long pid, boolean hostAfterOtherBytes, HostEvidence evidence) {
    this.host = evidence.name;
    this.pid = pid;
    this.hostOnlyAfterOtherBytes = hostAfterOtherBytes;
    this.evidence = evidence;
  }

  ChannelCounter channels(String network) {
    ChannelCounter c = firstChannels;
    ChannelCounter last = null;
    while (c != null) {
      if (c.network.equals(network)) { // interned by the parser: identity is the common case
        return c;
      }
      last = c;
      c = c.next;
    }
    c = new ChannelCounter(network);
    if (last == null) {
      firstChannels = c;
    } else {
      last.next = c;
    }
    return c;
  }

  /** Its network channels by network, in first-seen order (built when asked: facts, not parsing). */
  Map<String, ChannelCounter> netChannels() {
    if (firstChannels == null) {
      return Map.of();
    }
    if (firstChannels.next == null) {
      return java.util.Collections.singletonMap(firstChannels.network, firstChannels);
    }
    Map<String, ChannelCounter> m = new LinkedHashMap<>();
    for (ChannelCounter c = firstChannels; c != null; c = c.next) {
      m.put(c.network, c);
    }
    return m;
  }

  /**
   * Its network channels in first-seen order, as a chain (no map: a host outside the sample is
   * tested line by line, see Admission).
   */
  ChannelCounter firstNetChannel() {
    return firstChannels;
  }

  boolean hasNetChannels() {
    return firstChannels != null;
  }

  /** A rank id; one that does not fit an int (a garbled line) is not a rank. */
  void seeRank(long rank) {
    if (rank < 0 || rank > Integer.MAX_VALUE) {
      return;
    }
    rankMin = Math.min(rankMin, (int) rank);
    rankMax = Math.max(rankMax, (int) rank);
  }

  /** Adds another part's counts and values; evidence is merged per host by the caller. */
  void merge(ProcessState o) {
    hostOnlyAfterOtherBytes &= o.hostOnlyAfterOtherBytes;
    many |= o.many || host == null && o.host != null;
    devices |= o.devices;
    wrongLine |= o.wrongLine;
    rankMin = Math.min(rankMin, o.rankMin);
    rankMax = Math.max(rankMax, o.rankMax);
    nRanks = Math.max(nRanks, o.nRanks);
    nNodes = Math.max(nNodes, o.nNodes);
    localRanks = Math.max(localRanks, o.localRanks);
    if (o.network != null) {
      network = o.network;
    }
    for (ChannelCounter c = o.firstChannels; c != null; c = c.next) {
      channels(c.network).merge(c);
    }
    localChannels += o.localChannels;
    ibLogged |= o.ibLogged;
    ibNoDeviceSeen |= o.ibNoDeviceSeen;
    if (hcas == null) {
      hcas = o.hcas;
      relaxedOrdering = o.relaxedOrdering;
    }
    hcaListEmpty |= o.hcaListEmpty;
    if (oob == null) {
      oob = o.oob;
    }
    for (Hca h : o.perLineHcas) {
      addPerLineHca(h);
    }
    if (socketIfaces == null) {
      socketIfaces = o.socketIfaces;
    } else if (o.socketIfaces != null && socketIfaces != o.socketIfaces) {
      for (Iface f : o.socketIfaces) {
        addSocketIface(f, MAX_SOCKET_IFACES);
      }
    }
    if (bootstrap == null) {
      bootstrap = o.bootstrap;
    }
    if (o.ringsGdr >= 0) {
      ringsGdr = ringsGdr < 0 ? o.ringsGdr : Math.min(ringsGdr, o.ringsGdr);
    }
    peerRankMax = Math.max(peerRankMax, o.peerRankMax);
    ibFailed |= o.ibFailed;
    socketListed |= o.socketListed;
    nicDistanceNet = nicDistanceNet != null ? nicDistanceNet : o.nicDistanceNet;
    gdrHcaNet = gdrHcaNet != null ? gdrHcaNet : o.gdrHcaNet;
    ibRuntimeError |= o.ibRuntimeError;
    ofiSeen |= o.ofiSeen;
    ofiProvider = ofiProvider != null ? ofiProvider : o.ofiProvider;
    ofiFailed |= o.ofiFailed;
    version = version != null ? version : o.version;
    pluginLoaded |= o.pluginLoaded;
    noVerbs |= o.noVerbs;
    initSeen |= o.initSeen;
  }

  /**
   * Socket interfaces a line listed, after those listed before (a process prints one list; the
   * state of lines without a host, many): new ones only, in order, up to MAX_SOCKET_IFACES. The
   * list is replaced, not changed, since a merge may have shared it with another state.
   */
  void addSocketIfaces(Iface[] listed) {
    for (Iface f : listed) {
      addSocketIface(f, MAX_SOCKET_IFACES);
    }
  }

  /** One interface, if new and the state holds fewer than {@code limit}. */
  void addSocketIface(Iface f, int limit) {
    List<Iface> now = socketIfaces == null ? List.of() : socketIfaces;
    if (now.size() < limit && !holds(now, f)) {
      List<Iface> union = new ArrayList<>(now);
      union.add(f);
      socketIfaces = union;
    }
  }

  private static boolean holds(List<Iface> list, Iface f) {
    // by index: an iterator is an allocation per call under C1, and old NCCL prints a "NET : Using
    // interface" line per connection
    for (int i = 0, n = list.size(); i < n; i++) {
      Iface x = list.get(i);
      if (x == f || x.equals(f)) {
        return true;
      }
    }
    return false;
  }

  /**
   * HCAs kept of a list, of a process's lines (2.3 lists one a line) and of the job: a node has a
   * few dozen ports at most (NCCL's MAX_IB_DEVS is 32), and a garbled log of distinct lines must
   * neither make each line cost a pass over all before it nor fill the report.
   */
  static final int MAX_HCAS = 64;

  /** An HCA of a 2.3 per-line listing, once per device and port, kept in index order. */
  void addPerLineHca(Hca h) {
    int at = perLineHcas.size();
    for (int i = perLineHcas.size() - 1; i >= 0; i--) {
      Hca x = perLineHcas.get(i);
      if (x.name().equals(h.name()) && x.port() == h.port()) {
        return;
      }
      if (x.index() > h.index()) {
        at = i; // after every HCA of a lower or equal index, as a stable sort would put it
      }
    }
    if (perLineHcas.size() >= MAX_HCAS) {
      return;
    }
    if (perLineHcas.isEmpty()) {
      perLineHcas = new ArrayList<>(2);
    }
    perLineHcas.add(at, h);
  }

  void seePeerRank(long rank) {
    if (rank > peerRankMax && rank < Integer.MAX_VALUE) {
      peerRankMax = (int) rank;
    }
  }
}
