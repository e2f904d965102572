package dev.nccltriage.facts;

import java.util.List;

/**
 * What one host's processes showed. {@code host} is null for lines without a host prefix; {@code
 * bootstrap} is the interface and address family it bootstrapped on ("eth0 IPv4").
 */
public record NodeFacts(
    String host,
    int processes,
    Integer gpus,
    String transport,
    Integer hcaPorts,
    String oobInterface,
    ChannelStats netChannels,
    List<Integer> ranks,
    String bootstrap,
    String ncclVersion) {}
