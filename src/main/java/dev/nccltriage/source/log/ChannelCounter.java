package dev.nccltriage.source.log;

import dev.nccltriage.evidence.EvidenceList;

/** Network channel lines of one process over one network, split by direction and GDR use. */
final class ChannelCounter {
  long send;
  long sendGdr;
  long receive;
  long receiveGdr;
  long devices; // bit i set: NET/<name>/i was used (i < 64)
  final EvidenceList withGdr;
  final EvidenceList withoutGdr;

  ChannelCounter(HostEvidence host) {
    withGdr = host.channelGdr;
    withoutGdr = host.channelNoGdr;
  }

  long total() {
    return send + receive;
  }

  void merge(ChannelCounter o) {
    send += o.send;
    sendGdr += o.sendGdr;
    receive += o.receive;
    receiveGdr += o.receiveGdr;
    devices |= o.devices;
  }
}
