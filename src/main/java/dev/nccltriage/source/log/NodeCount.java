package dev.nccltriage.source.log;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How many nodes the job spans, from evidence only: the processes a log shows are a lower bound of
 * the job, never the job (an excerpt may hold one Pod's lines). Several nodes: NCCL's nNodes,
 * several host names, more ranks than one node's localRanks (logged world size or a rank id in a
 * connection line), nccl-tests' device list naming several hosts, "Invalid rank requested", errors
 * of the network transport. One node: nNodes 1,
 * a logged world size within one node's localRanks, every interface loopback, or one host holding
 * every rank the logged nranks names. Otherwise unknown.
 */
record NodeCount(Integer nodes, String from, Boolean single) {
  static final NodeCount UNKNOWN = new NodeCount(null, null, null);

  /** Everything the count is read from; {@code networkErrors}: errors of the network transport. */
  /** {@code testsHosts}/{@code testsRanks}: hosts and ranks nccl-tests' device list names. */
  record Input(Map<String, List<ProcessState>> byHost, List<ProcessState> all, int nRanks, int nNodes,
      int localRanks, int invalidRankOf, boolean networkErrors, boolean loopbackOnly, int testsHosts,
      int testsRanks, boolean testsHostsCapped) {}

  private static boolean netChannels(List<ProcessState> all) {
    for (ProcessState p : all) {
      if (p.hasNetChannels()) {
        return true;
      }
    }
    return false;
  }

  /** GPUs a host shows at least (device indices are dense from 0: device 3 means 4 GPUs). */
  static int gpusShown(List<ProcessState> ps) {
    long devices = 0;
    for (ProcessState p : ps) {
      devices |= p.devices;
    }
    return 64 - Long.numberOfLeadingZeros(devices);
  }

  static NodeCount of(LogAccumulator acc, Map<String, List<ProcessState>> byHost, List<ProcessState> procs,
      int nRanks, int nNodes, int localRanks) {
    return of(new Input(byHost, procs, nRanks, nNodes, localRanks, acc.invalidRankOf, networkErrors(acc),
        loopbackOnly(acc, procs), acc.testsHosts.size(), acc.testsRanks.cardinality(),
        acc.testsHostsCapped || acc.processes.hostsFolded()));
  }

  /** Errors only the network transport raises: the job's traffic went between nodes. */
  private static boolean networkErrors(LogAccumulator acc) {
    for (LogAccumulator.ErrAcc e : acc.errors.values()) {
      switch (e.kind) {
        case COMPLETION, IBV_MODIFY_QP, REMOTE_ERROR, PLUGIN_CQ -> {
          return true;
        }
        case CONNECT -> {
          if (e.detail != null && e.detail.startsWith("proxy")) {
            return true;
          }
        }
        default -> { }
      }
    }
    return false;
  }

  /** Every interface NCCL listed (bootstrap, OOB, sockets) is loopback, and there is one. */
  private static boolean loopbackOnly(LogAccumulator acc, List<ProcessState> procs) {
    if (acc.loopback.isEmpty()) {
      return false;
    }
    for (ProcessState p : procs) {
      if (p.bootstrap != null && !p.bootstrap.isLoopback() || p.oob != null && !p.oob.isLoopback()) {
        return false;
      }
      if (p.socketIfaces != null && p.socketIfaces.stream().anyMatch(f -> !f.isLoopback())) {
        return false;
      }
    }
    return true;
  }

  static NodeCount of(Input in) {
    int peerMax = -1;
    for (ProcessState p : in.all()) {
      peerMax = Math.max(peerMax, Math.max(p.peerRankMax, p.rankMax));
    }
    // several nodes
    if (in.nNodes() > 1) {
      return new NodeCount(in.nNodes(), "comm", false);
    }
    if (in.byHost().size() >= 2 || in.testsHosts() >= 2) {
      // more hosts than the list keeps: several, but not a count to report
      return new NodeCount(in.testsHostsCapped() ? null : Math.max(in.byHost().size(), in.testsHosts()),
          "hostnames", false);
    }
    if (in.localRanks() > 0 && in.nRanks() > in.localRanks()) {
      return new NodeCount((in.nRanks() + in.localRanks() - 1) / in.localRanks(), "ranks", false);
    }
    if (in.localRanks() > 0 && peerMax >= in.localRanks()) {
      return new NodeCount(null, "ranks", false);
    }
    if (in.invalidRankOf() > 0 && in.nNodes() != 1) {
      return new NodeCount(null, "errors", false);
    }
    if (in.networkErrors() && in.nNodes() != 1) {
      return new NodeCount(null, "errors", false);
    }
    // one node
    if (in.nNodes() == 1 || in.nRanks() == 1 || in.nRanks() > 0 && in.localRanks() >= in.nRanks()) {
      return new NodeCount(1, "comm", true);
    }
    if (in.loopbackOnly()) {
      return new NodeCount(1, "loopback", true);
    }
    if (in.testsHosts() == 1 && in.nRanks() > 0 && in.testsRanks() >= in.nRanks()) {
      return new NodeCount(1, "ranks", true); // nccl-tests listed every rank on one host
    }
    if (in.byHost().size() == 1 && in.nRanks() > 0) {
      List<ProcessState> host = in.byHost().values().iterator().next();
      Set<Integer> ranks = new HashSet<>();
      for (ProcessState p : host) {
        if (p.rankMax >= 0) {
          ranks.add(p.rankMax);
        }
      }
      // one host holding every rank; or, when no line lost its host prefix (it could be another
      // node's), a logged world size that fits the GPUs the host shows
      boolean hostless = in.all().size() > host.size();
      if (ranks.size() >= in.nRanks() || !hostless && gpusShown(host) >= in.nRanks()) {
        return new NodeCount(1, "ranks", true);
      }
    }
    if (netChannels(in.all())) {
      // NCCL connects ranks over the network only across nodes (P2P and SHM serve a node), so a
      // connection "via NET/" that nothing above contradicts shows two nodes at least
      return new NodeCount(null, "channels", false);
    }
    return UNKNOWN;
  }
}
