package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The job's evidence lists: gathered from every host, the first few of each kept, in line order. */
final class JobEvidence {
  private JobEvidence() {}

  /** The evidence of every host; a host's processes share one HostEvidence, so one per host. */
  static void collect(Map<String, List<ProcessState>> byHost, List<ProcessState> unattributed,
      Map<String, List<Evidence>> evidence) {
    List<Evidence> network = new ArrayList<>();
    List<Evidence> gdrYes = new ArrayList<>();
    List<Evidence> gdrNo = new ArrayList<>();
    List<Evidence> noDevice = new ArrayList<>();
    List<Evidence> ibUsing = new ArrayList<>();
    List<Evidence> socket = new ArrayList<>();
    List<Evidence> boot = new ArrayList<>();
    List<Evidence> comm = new ArrayList<>();
    List<Evidence> local = new ArrayList<>();
    List<Evidence> rings = new ArrayList<>();
    java.util.Set<HostEvidence> hosts = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    byHost.values().forEach(ps -> hosts.add(ps.get(0).evidence));
    unattributed.forEach(p -> hosts.add(p.evidence));
    for (HostEvidence h : hosts) {
      network.addAll(h.items(HostEvidence.NETWORK));
      gdrYes.addAll(h.items(HostEvidence.CHANNEL_GDR));
      gdrNo.addAll(h.items(HostEvidence.CHANNEL_NO_GDR));
      noDevice.addAll(h.items(HostEvidence.IB_NO_DEVICE));
      ibUsing.addAll(h.items(HostEvidence.IB_USING));
      socket.addAll(h.items(HostEvidence.SOCKET));
      boot.addAll(h.items(HostEvidence.BOOTSTRAP));
      comm.addAll(h.items(HostEvidence.COMM));
      local.addAll(h.items(HostEvidence.LOCAL_CHANNELS));
      rings.addAll(h.items(HostEvidence.RINGS_GDR));
    }
    evidence.put("network", first(network));
    evidence.put("channels.gdrdma", first(gdrYes));
    evidence.put("channels.noGdrdma", first(gdrNo));
    List<Evidence> channels = new ArrayList<>(first(gdrNo));
    channels.addAll(first(gdrYes));
    evidence.put("channels", first(channels));
    evidence.put("ibNoDevice", first(noDevice));
    evidence.put("ibUsing", first(ibUsing));
    evidence.put("socket", first(socket));
    evidence.put("bootstrap", first(boot));
    evidence.put("comm", first(comm));
    evidence.put("localChannels", first(local));
    evidence.put("ringsGdr", first(rings));
  }

  /**
   * The first {@link EvidenceList#KEEP} items in (source, line) order, ties in list order: what a
   * stable sort would put first, found in one pass (the lists hold a few items per host, and this
   * runs interpreted; sorting them with comparator lambdas cost more than the rest of the build).
   */
  static List<Evidence> first(List<Evidence> l) {
    Evidence[] first = new Evidence[EvidenceList.KEEP];
    int n = 0;
    for (Evidence e : l) {
      int at = n;
      while (at > 0 && before(e, first[at - 1])) {
        at--;
      }
      if (at == first.length) {
        continue;
      }
      int last = Math.min(n, first.length - 1);
      System.arraycopy(first, at, first, at + 1, last - at);
      first[at] = e;
      n = Math.min(n + 1, first.length);
    }
    return List.of(java.util.Arrays.copyOf(first, n));
  }

  /**
   * Line order; records glued into one line are each their own text, in the order of their texts:
   * which host's come first depends on the order the hosts were met, which parts read differently.
   */
  private static boolean before(Evidence a, Evidence b) {
    int c = a.source().compareTo(b.source());
    return c < 0 || c == 0 && (a.line() < b.line() || a.line() == b.line() && a.text().compareTo(b.text()) < 0);
  }
}
