package dev.nccltriage.source.log;

import dev.nccltriage.evidence.EvidenceList;
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
  final boolean hostFromGluedLine;

  long devices; // cudaDev bits seen in prefixes
  int rankMin = Integer.MAX_VALUE;
  int rankMax = -1;
  int nRanks = -1;
  int nNodes = -1;
  int localRanks = -1;
  final EvidenceList commEvidence = new EvidenceList();

  String network; // "Using network X" (last one)
  final EvidenceList networkEvidence = new EvidenceList();
  final Map<String, ChannelCounter> netChannels = new LinkedHashMap<>(4);
  long localChannels; // P2P / SHM
  final EvidenceList localChannelEvidence = new EvidenceList();

  final EvidenceList ibNoDevice = new EvidenceList();
  boolean ibLogged; // any NET/IB line: the IB transport was at least initialised
  List<Hca> hcas; // first non-empty NET/IB : Using list
  boolean hcaListEmpty; // an empty NET/IB : Using line (2.24+ no-device shape)
  boolean relaxedOrdering;
  Iface oob;
  final EvidenceList ibUsingEvidence = new EvidenceList();
  final List<Hca> perLineHcas = new ArrayList<>(2); // 2.3: one "NET/IB: [i] dev:port/LL" line each

  List<Iface> socketIfaces;
  final EvidenceList socketEvidence = new EvidenceList();
  Iface bootstrap;
  final EvidenceList bootstrapEvidence = new EvidenceList();

  int ringsGdr = -1; // "Connected all rings, use ring PXN %d GDR %d"
  final EvidenceList ringsGdrEvidence = new EvidenceList();

  ProcessState(String host, long pid, boolean hostFromGluedLine) {
    this.host = host;
    this.pid = pid;
    this.hostFromGluedLine = hostFromGluedLine;
  }

  private String lastNetwork;
  private ChannelCounter lastCounter;

  ChannelCounter channels(String network) {
    if (network == lastNetwork) { // interned by the parser: identity is the common case
      return lastCounter;
    }
    lastNetwork = network;
    lastCounter = netChannels.computeIfAbsent(network, k -> new ChannelCounter());
    return lastCounter;
  }

  void seeRank(int rank) {
    rankMin = Math.min(rankMin, rank);
    rankMax = Math.max(rankMax, rank);
  }

  void merge(ProcessState o, long off) {
    devices |= o.devices;
    rankMin = Math.min(rankMin, o.rankMin);
    rankMax = Math.max(rankMax, o.rankMax);
    nRanks = Math.max(nRanks, o.nRanks);
    nNodes = Math.max(nNodes, o.nNodes);
    localRanks = Math.max(localRanks, o.localRanks);
    commEvidence.addAll(o.commEvidence, off);
    if (o.network != null) {
      network = o.network;
    }
    networkEvidence.addAll(o.networkEvidence, off);
    o.netChannels.forEach((k, v) -> channels(k).merge(v, off));
    localChannels += o.localChannels;
    localChannelEvidence.addAll(o.localChannelEvidence, off);
    ibNoDevice.addAll(o.ibNoDevice, off);
    ibLogged |= o.ibLogged;
    if (hcas == null) {
      hcas = o.hcas;
      relaxedOrdering = o.relaxedOrdering;
    }
    hcaListEmpty |= o.hcaListEmpty;
    if (oob == null) {
      oob = o.oob;
    }
    ibUsingEvidence.addAll(o.ibUsingEvidence, off);
    for (Hca h : o.perLineHcas) {
      if (perLineHcas.stream().noneMatch(x -> x.name().equals(h.name()) && x.port() == h.port())) {
        perLineHcas.add(h);
      }
    }
    if (socketIfaces == null) {
      socketIfaces = o.socketIfaces;
    }
    socketEvidence.addAll(o.socketEvidence, off);
    if (bootstrap == null) {
      bootstrap = o.bootstrap;
    }
    bootstrapEvidence.addAll(o.bootstrapEvidence, off);
    if (o.ringsGdr >= 0) {
      ringsGdr = ringsGdr < 0 ? o.ringsGdr : Math.min(ringsGdr, o.ringsGdr);
    }
    ringsGdrEvidence.addAll(o.ringsGdrEvidence, off);
  }
}
