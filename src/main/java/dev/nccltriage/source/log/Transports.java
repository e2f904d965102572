package dev.nccltriage.source.log;

import dev.nccltriage.facts.NetworkKind;
import dev.nccltriage.facts.Version;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The network one process used. What its channels used, else its "Using network" line; else, as
 * the spec's §0b reads the lines NCCL prints when there is no "Using network" (before 2.6.4, or
 * an excerpt): the 2.13+ "NET/name : GPU Direct RDMA ... for HCA" and the 2.4 "name NIC distance"
 * lines name the selected network; IB runtime errors prove IB; a non-empty IB list with no plugin
 * loaded means IB; an IB init failure followed by the socket list means Socket (from 2.4.8 the
 * socket list alone does: 2.4.0-2.4.7 print it at every init).
 */
final class Transports {
  private static final Version FIRST_SOCKET_ONLY_WHEN_USED = new Version(2, 4, 8);

  private final Version lowest;

  /** {@code lowest}: the job's lowest NCCL version, null when not logged. */
  Transports(Version lowest) {
    this.lowest = lowest;
  }

  /** The network of some processes; {@code sawRdma}: one of them used an RDMA one. */
  record Network(String name, Boolean rdma, boolean sawRdma) {}

  /**
   * One name when they agree; "mixed" for RDMA and non-RDMA together (not for two names of one
   * kind, IB and IBext_v8: then the name NCCL printed most); RDMA only if every process that shows
   * its network used an RDMA one.
   */
  Network of(List<ProcessState> procs) {
    // a process that did not print aws-ofi-nccl's provider uses what its peers on that network did
    Map<String, Boolean> providerOf = new LinkedHashMap<>();
    for (ProcessState p : procs) {
      Boolean r = providerKind(p);
      String t = of(p);
      if (r != null && t != null) {
        providerOf.merge(t, r, Boolean::logicalAnd);
      }
    }
    Set<String> names = new LinkedHashSet<>();
    boolean sawRdma = false;
    boolean sawOther = false;
    boolean sawUnknown = false;
    boolean manyMixed = false;
    for (ProcessState p : procs) {
      if (p.many && mixedKinds(p)) {
        // the lines of many hosts counted as one: RDMA and not (so the job is mixed), but whose is
        // whose is not known, nor whether a process that shows its network used RDMA
        manyMixed = true;
        sawRdma = true;
        sawUnknown = true;
        continue;
      }
      String t = of(p);
      Boolean r = p.ofiProvider == null && t != null && providerOf.containsKey(t) ? providerOf.get(t) : rdma(p, t);
      if (t != null) {
        names.add(t);
      }
      if (t == null && r == null) {
        continue; // nothing shows this process's network: an excerpt, not a third kind
      }
      sawRdma |= Boolean.TRUE.equals(r);
      sawOther |= Boolean.FALSE.equals(r);
      sawUnknown |= r == null;
    }
    Boolean rdma = sawOther ? Boolean.FALSE : sawUnknown ? null : sawRdma ? Boolean.TRUE : null;
    String name = manyMixed || sawRdma && sawOther ? "mixed" : names.isEmpty() ? null
        : names.size() == 1 ? names.iterator().next() : mostNamed(procs, names);
    return new Network(name, rdma, sawRdma);
  }

  /** Of several names of one kind, the one NCCL printed most (channels or "Using network"), else the first. */
  private static String mostNamed(List<ProcessState> procs, Set<String> names) {
    Map<String, Integer> named = new LinkedHashMap<>();
    for (ProcessState p : procs) {
      p.netChannels().keySet().forEach(n -> named.merge(n, 1, Integer::sum));
      if (p.network != null) {
        named.merge(p.network, 1, Integer::sum);
      }
    }
    return named.entrySet().stream().filter(e -> names.contains(e.getKey()))
        .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(names.iterator().next());
  }

  String of(ProcessState p) {
    String best = null;
    long most = 0;
    for (ChannelCounter c = p.firstNetChannel(); c != null; c = c.next) {
      if (c.total() > most) {
        most = c.total();
        best = c.network;
      }
    }
    if (best != null) {
      return best;
    }
    if (p.network != null) {
      return p.network;
    }
    return inferred(p);
  }

  /** Only what a process's lines imply by design; null when they do not. */
  String inferred(ProcessState p) {
    if (p.gdrHcaNet != null) {
      return p.gdrHcaNet;
    }
    if (p.nicDistanceNet != null) {
      return p.nicDistanceNet;
    }
    if (p.ofiSeen || p.pluginLoaded) {
      return null; // a plugin is tried first; its own name is not in these lines
    }
    if (p.ibRuntimeError) {
      return "IB";
    }
    boolean ibList = p.hcas != null && !p.hcas.isEmpty() || !p.perLineHcas.isEmpty();
    if (ibList) {
      return "IB";
    }
    // (the state of many hosts may have the IB failure of one and the socket list of another)
    if (p.socketListed && (p.ibFailed && !p.many || socketListMeansSocket())) {
      return "Socket";
    }
    return null;
  }

  /**
   * Whether a state that stands for many processes shows networks of both kinds: no single one of
   * them need have used both, so neither its network nor whether it used RDMA is known.
   */
  private boolean mixedKinds(ProcessState p) {
    boolean rdma = false;
    boolean other = false;
    for (String n : p.netChannels().keySet()) {
      Boolean r = NetworkKind.rdma(n);
      rdma |= Boolean.TRUE.equals(r);
      other |= Boolean.FALSE.equals(r);
    }
    for (Boolean r : new Boolean[] {NetworkKind.rdma(p.network), NetworkKind.rdma(p.nicDistanceNet),
        NetworkKind.rdma(p.gdrHcaNet), providerKind(p), p.noVerbs ? Boolean.FALSE : null,
        p.socketListed && socketListMeansSocket() ? Boolean.FALSE : null}) {
      rdma |= Boolean.TRUE.equals(r);
      other |= Boolean.FALSE.equals(r);
    }
    return rdma && other;
  }

  /**
   * From 2.4.8 the socket list is printed only when Socket is the transport; 2.4.0-2.4.7 print it
   * at every init, and for an unknown version (or an older one) it proves nothing.
   */
  private boolean socketListMeansSocket() {
    return lowest != null && lowest.compareTo(FIRST_SOCKET_ONLY_WHEN_USED) >= 0;
  }

  /**
   * Whether the process's network moves data with RDMA: by the network's kind, except that
   * aws-ofi-nccl on a TCP libfabric provider does not, whatever NCCL calls the plugin.
   */
  static Boolean rdma(ProcessState p, String transport) {
    Boolean provider = providerKind(p);
    if (provider != null && (transport == null || NetworkKind.rdma(transport) != Boolean.FALSE)) {
      return provider;
    }
    if (transport == null && p.noVerbs) {
      return false; // every RDMA transport (IB, IBext, libfabric's efa and verbs) needs libibverbs
    }
    return NetworkKind.rdma(transport);
  }

  /** What aws-ofi-nccl's provider says of RDMA; null without one, or once the plugin failed to start. */
  private static Boolean providerKind(ProcessState p) {
    return p.ofiFailed ? null : NetworkKind.providerRdma(p.ofiProvider);
  }
}
