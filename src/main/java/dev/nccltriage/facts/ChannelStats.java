package dev.nccltriage.facts;

/** Network channel connections NCCL logged, by direction, and how many carried /GDRDMA. */
public record ChannelStats(long total, long gdrdma, long send, long sendGdrdma, long receive, long receiveGdrdma) {
  public static final ChannelStats NONE = new ChannelStats(0, 0, 0, 0, 0, 0);

  public ChannelStats plus(ChannelStats o) {
    return new ChannelStats(total + o.total, gdrdma + o.gdrdma, send + o.send,
        sendGdrdma + o.sendGdrdma, receive + o.receive, receiveGdrdma + o.receiveGdrdma);
  }

  /** {@code all}, {@code some}, {@code none}, or {@code unknown} when no network channel was seen. */
  public String gdr() {
    if (total == 0) {
      return "unknown";
    }
    return gdrdma == total ? "all" : gdrdma == 0 ? "none" : "some";
  }
}
