package dev.nccltriage.source.log;

/** Network channel lines of one process over one network, split by direction and GDR use. */
final class ChannelCounter {
  final String network;
  long send;
  long sendGdr;
  long receive;
  long receiveGdr;
  long devices; // bit i set: NET/<name>/i was used (i < 64)
  ChannelCounter next; // the process's counter of its next network, if it used another

  ChannelCounter(String network) {
    this.network = network;
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
