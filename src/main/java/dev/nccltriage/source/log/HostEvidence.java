package dev.nccltriage.source.log;

import dev.nccltriage.evidence.EvidenceList;

/**
 * Evidence kept per host, shared by all processes on it. A job that restarts keeps adding
 * processes (new pids); keeping evidence per host bounds memory by nodes, not by restarts.
 */
final class HostEvidence {
  final EvidenceList comm = new EvidenceList();
  final EvidenceList network = new EvidenceList();
  final EvidenceList localChannels = new EvidenceList();
  final EvidenceList ibNoDevice = new EvidenceList();
  final EvidenceList ibUsing = new EvidenceList();
  final EvidenceList socket = new EvidenceList();
  final EvidenceList bootstrap = new EvidenceList();
  final EvidenceList ringsGdr = new EvidenceList();
  final EvidenceList channelGdr = new EvidenceList();
  final EvidenceList channelNoGdr = new EvidenceList();
  final EvidenceList version = new EvidenceList();

  void addAll(HostEvidence o, long off) {
    comm.addAll(o.comm, off);
    network.addAll(o.network, off);
    localChannels.addAll(o.localChannels, off);
    ibNoDevice.addAll(o.ibNoDevice, off);
    ibUsing.addAll(o.ibUsing, off);
    socket.addAll(o.socket, off);
    bootstrap.addAll(o.bootstrap, off);
    ringsGdr.addAll(o.ringsGdr, off);
    channelGdr.addAll(o.channelGdr, off);
    channelNoGdr.addAll(o.channelNoGdr, off);
    version.addAll(o.version, off);
  }
}
