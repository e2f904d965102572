package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Difference;
import dev.nccltriage.facts.NodeFacts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** Finds the nodes that disagree with the majority: transport, HCA count, GDR use, OOB interface. */
final class Differences {
  static final int MAX = 32;
  private final List<NodeFacts> nodes;
  private final Function<String, HostEvidence> evidence;
  private int found; // differing (node, aspect) pairs, listed or not

  Differences(List<NodeFacts> nodes, Function<String, HostEvidence> evidenceByHost) {
    this.nodes = nodes.stream().filter(n -> n.host() != null).toList();
    this.evidence = evidenceByHost;
  }

  List<Difference> find() {
    List<Difference> out = new ArrayList<>();
    if (nodes.size() < 2) {
      return out;
    }
    aspect(out, "transport", NodeFacts::transport, (n, major, count) ->
        "uses " + n.transport() + " while " + count + " other node(s) use " + major);
    aspect(out, "hcas", NodeFacts::hcaPorts, (n, major, count) ->
        "NCCL sees " + n.hcaPorts() + " HCA port(s) while " + count + " other node(s) see " + major);
    aspect(out, "gdr", n -> n.netChannels().total() == 0 ? null : n.netChannels().gdr(), (n, major, count) ->
        "GPUDirect RDMA on " + n.netChannels().gdr() + " of its network channels while " + count
            + " other node(s) have it on " + major);
    aspect(out, "oob", NodeFacts::oobInterface, (n, major, count) ->
        "out-of-band interface " + n.oobInterface() + " while " + count + " other node(s) use " + major);
    aspect(out, "bootstrap", NodeFacts::bootstrap, (n, major, count) ->
        "bootstraps on " + n.bootstrap() + " while " + count + " other node(s) use " + major);
    aspect(out, "version", NodeFacts::ncclVersion, (n, major, count) ->
        "runs NCCL " + n.ncclVersion() + " while " + count + " other node(s) run " + major);
    return out;
  }

  /** Differences found by {@link #find}, including those past the {@link #MAX} it lists. */
  int found() {
    return found;
  }

  interface Describe {
    String what(NodeFacts n, Object majority, int majorityCount);
  }

  private void aspect(List<Difference> out, String name, Function<NodeFacts, Object> key, Describe d) {
    Map<Object, Integer> counts = new LinkedHashMap<>();
    for (NodeFacts n : nodes) {
      Object k = key.apply(n);
      if (k != null) {
        counts.merge(k, 1, Integer::sum);
      }
    }
    if (counts.size() < 2) {
      return;
    }
    Object major = counts.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey();
    int majorCount = counts.get(major);
    for (NodeFacts n : nodes) {
      Object k = key.apply(n);
      if (k != null && !Objects.equals(k, major)) {
        found++;
        if (out.size() < MAX) {
          out.add(new Difference(n.host(), name, d.what(n, major, majorCount), evidence(n.host(), name)));
        }
      }
    }
  }

  private List<Evidence> evidence(String host, String aspect) {
    List<Evidence> ev = new ArrayList<>();
    HostEvidence h = evidence.apply(host);
    if (h != null) {
      switch (aspect) {
        case "transport" -> {
          ev.addAll(h.items(HostEvidence.IB_NO_DEVICE));
          ev.addAll(h.items(HostEvidence.NETWORK));
          ev.addAll(h.items(HostEvidence.CHANNEL_NO_GDR));
        }
        case "hcas", "oob" -> ev.addAll(h.items(HostEvidence.IB_USING));
        case "bootstrap" -> ev.addAll(h.items(HostEvidence.BOOTSTRAP));
        case "version" -> ev.addAll(h.items(HostEvidence.VERSION));
        default -> ev.addAll(h.items(HostEvidence.CHANNEL_NO_GDR));
      }
    }
    return JobEvidence.first(ev);
  }
}
