package dev.nccltriage.source.log;

import dev.nccltriage.facts.ChannelStats;

/** Channel counts summed without a record per addition. */
final class ChannelSum {
  long total;
  long gdr;
  long send;
  long sendGdr;
  long receive;
  long receiveGdr;

  void add(ProcessState p) {
    for (ChannelCounter c = p.firstNetChannel(); c != null; c = c.next) {
      total += c.total();
      gdr += c.sendGdr + c.receiveGdr;
      send += c.send;
      sendGdr += c.sendGdr;
      receive += c.receive;
      receiveGdr += c.receiveGdr;
    }
  }

  ChannelStats stats() {
    return new ChannelStats(total, gdr, send, sendGdr, receive, receiveGdr);
  }
}
