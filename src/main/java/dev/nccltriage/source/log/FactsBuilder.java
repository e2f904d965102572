package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import dev.nccltriage.facts.ChannelStats;
import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.GdrDecision;
import dev.nccltriage.facts.Hca;
import dev.nccltriage.facts.Iface;
import dev.nccltriage.facts.InputStats;
import dev.nccltriage.facts.LeftOut;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.LogSignals;
import dev.nccltriage.facts.NodeFacts;
import dev.nccltriage.facts.Version;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Turns what the parser collected into job-level {@link LogFacts}. Derives; never judges. */
final class FactsBuilder {
  /** OOB interfaces the job lists, as many as socket interfaces (the majority's is named apart). */
  private static final int MAX_OOB_LISTED = ProcessState.MAX_SOCKET_IFACES;
  private final LogAccumulator acc;
  private final List<InputStats> inputs;
  private final Map<String, List<Evidence>> evidence = new LinkedHashMap<>();
  private final Map<List<Hca>, Set<String>> portsOfList = new java.util.IdentityHashMap<>();

  FactsBuilder(LogAccumulator acc, List<InputStats> inputs) {
    this.acc = acc;
    this.inputs = inputs;
  }

  LogFacts build() {
    acc.keepJobsFirst(); // the parts kept more of each capped collection, so that merging them is exact
    List<ProcessState> procs = GluedHosts.resolve(acc.processes.all());
    // one plain pass: a large job has thousands of processes, and this runs once, mostly interpreted
    Map<String, List<ProcessState>> byHost = new LinkedHashMap<>();
    List<ProcessState> unattributed = new ArrayList<>();
    int nRanks = -1;
    int nNodes = -1;
    int localRanks = -1;
    boolean ibNoDevice = false;
    boolean ibLogged = false;
    for (ProcessState p : procs) {
      if (p.host != null) {
        byHost.computeIfAbsent(p.host, k -> new ArrayList<>()).add(p);
      } else {
        unattributed.add(p);
      }
      nRanks = Math.max(nRanks, p.nRanks);
      nNodes = Math.max(nNodes, p.nNodes);
      localRanks = Math.max(localRanks, p.localRanks);
      ibNoDevice |= p.ibNoDeviceSeen;
      ibLogged |= p.ibLogged;
    }
    int hostProcs = procs.size() - unattributed.size();
    Integer ranks = nRanks > 0 ? Integer.valueOf(nRanks) : hostProcs == 0 ? null : hostProcs;
    Integer localGpus = localRanks > 0 ? Integer.valueOf(localRanks) : localGpus(byHost);
    NodeCount count = NodeCount.of(acc, byHost, procs, nRanks, nNodes, localRanks);
    Integer nodes = count.nodes();
    String nodesFrom = count.from();
    List<String> versionList = versions(acc.versions.keySet());
    List<Version> parsed = (versionList.isEmpty() ? List.copyOf(acc.frameworkVersions.keySet()) : versionList)
        .stream().map(Version::parse).filter(v -> v != null).sorted().toList();
    transports = new Transports(parsed.isEmpty() ? null : parsed.get(0));

    List<NodeFacts> nodeDetails = new ArrayList<>();
    Map<String, Integer> transportNodes = new LinkedHashMap<>();
    ChannelSum jobChannels = new ChannelSum(); // node() adds every process's channels to it
    for (Map.Entry<String, List<ProcessState>> h : byHost.entrySet()) {
      nodeDetails.add(node(h.getKey(), h.getValue(), jobChannels));
    }
    if (!unattributed.isEmpty()) {
      nodeDetails.add(node(null, unattributed, jobChannels));
    }
    for (NodeFacts n : nodeDetails) {
      if (n.transport() != null) {
        transportNodes.merge(n.transport(), 1, Integer::sum);
      }
    }
    Transports.Network network = transports.of(procs);
    String transport = network.name();
    Boolean rdma = network.rdma();

    List<Hca> hcas = new ArrayList<>();
    Set<String> linkLayers = new TreeSet<>();
    Set<List<Hca>> listsSeen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    Set<String> seenPorts = new LinkedHashSet<>();
    int minPorts = Integer.MAX_VALUE;
    boolean ro = false;
    for (ProcessState p : procs) {
      List<Hca> list = p.hcas != null ? p.hcas : p.perLineHcas.isEmpty() ? null : p.perLineHcas;
      if (list == null) {
        continue;
      }
      ro |= p.relaxedOrdering;
      minPorts = Math.min(minPorts, ports(list).size());
      if (!listsSeen.add(list)) {
        continue; // the same list (parsed once per distinct line) adds no port a second time
      }
      for (Hca h : list) {
        boolean added = false;
        for (Hca port : h.ports()) {
          added |= seenPorts.add(port.name() + ":" + port.port());
        }
        if (added) {
          h.ports().forEach(port -> linkLayers.add(port.linkLayer()));
          if (hcas.size() < ProcessState.MAX_HCAS) {
            hcas.add(h);
          }
        }
      }
    }
    Integer hcaPorts = seenPorts.isEmpty() ? null : seenPorts.size();

    Map<String, Integer> oobCount = new LinkedHashMap<>();
    Iface oob = null;
    int best = 0;
    for (ProcessState p : procs) {
      if (p.oob != null) {
        int c = oobCount.merge(p.oob.name(), 1, Integer::sum);
        if (c > best) {
          best = c;
          oob = p.oob;
        }
      }
    }
    Iface bootstrap = procs.stream().map(p -> p.bootstrap).filter(x -> x != null).findFirst().orElse(null);
    List<Iface> socketIfaces = new ArrayList<>();
    for (ProcessState p : procs) {
      if (p.socketIfaces != null) {
        for (Iface f : p.socketIfaces) {
          if (socketIfaces.stream().noneMatch(x -> x.name().equals(f.name())) && socketIfaces.size() < ProcessState.MAX_SOCKET_IFACES) {
            socketIfaces.add(f);
          }
        }
      }
    }
    ChannelStats channels = jobChannels.stats();
    long local = 0;
    int ringsGdr = -1;
    for (ProcessState p : procs) {
      local += p.localChannels;
      if (p.ringsGdr >= 0) {
        ringsGdr = ringsGdr < 0 ? p.ringsGdr : Math.min(ringsGdr, p.ringsGdr);
      }
    }
    JobEvidence.collect(byHost, unattributed, evidence);

    List<GdrDecision> gdr = new ArrayList<>();
    acc.gdr.values().forEach(g -> gdr.add(new GdrDecision(g.enabled, g.reason, g.distance, g.threshold,
        g.evidence.count(), g.evidence.items())));
    Map<String, String> env = new LinkedHashMap<>();
    Map<String, List<String>> conflicts = new LinkedHashMap<>();
    acc.env.forEach((name, values) -> {
      env.put(name, values.keySet().iterator().next());
      if (values.size() > 1) {
        conflicts.put(name, List.copyOf(values.keySet()));
      }
      List<Evidence> ev = items(values);
      evidence.put("env." + name, ev.subList(0, Math.min(ev.size(), EvidenceList.KEEP)));
    });
    List<ErrorSignature> errors = new ArrayList<>();
    acc.errors.values().forEach(e -> errors.add(new ErrorSignature(e.kind.id(), e.detail, e.status,
        e.evidence.count(), List.copyOf(e.hosts), e.evidence.items())));
    evidence.put("versions", JobEvidence.first(items(acc.versions)));
    evidence.put("pluginsLoaded", JobEvidence.first(items(acc.pluginsLoaded)));
    evidence.put("dmabuf", acc.dmabuf.items());
    evidence.put("testsPreamble", acc.testsPreamble.items());

    LogSignals signals = SignalsBuilder.build(acc, procs, byHost, network.sawRdma(), versionList, evidence);
    String gdrShown = channels.total() > 0 || signals.gdrLogged() == null ? channels.gdr() : signals.gdrLogged();
    List<String> versionsShown = versionList.isEmpty() && signals.frameworkVersion() != null
        ? List.of(signals.frameworkVersion()) : versionList;
    Differences differences = new Differences(nodeDetails, acc.processes::host);
    List<dev.nccltriage.facts.Difference> differs = differences.find();
    return new LogFacts(inputs, acc.ncclLines, versionsShown, ranks,
        hostProcs, nodes, nodesFrom,
        count.single(), localGpus, transport, rdma, transportNodes,
        hcas, hcaPorts, minPorts == Integer.MAX_VALUE ? null : minPorts, ro, List.copyOf(linkLayers),
        oob, oobCount.keySet().stream().limit(MAX_OOB_LISTED).toList(), bootstrap, socketIfaces, channels, local, gdrShown,
        ringsGdr < 0 ? null : ringsGdr, !acc.dmabuf.isEmpty(), gdr, env, conflicts, errors,
        List.copyOf(acc.pluginsLoaded.keySet()), ibNoDevice, ibLogged,
        nodeDetails, differs, signals, evidence, leftOut(byHost.size(), nodeDetails.size(), differences, differs.size()));
  }

  /** What a report of this job leaves out; null when nothing. */
  private LeftOut leftOut(int hosts, int nodes, Differences differences, int differsListed) {
    ProcessTable t = acc.processes;
    int listed = Math.min(nodes, LogFacts.NODES_LISTED);
    Map<String, Long> notKept = acc.caps.linesNotKept();
    if (nodes <= listed && !t.hostsFolded() && !t.processesFolded() && differences.found() <= differsListed
        && notKept.isEmpty() && acc.truncated == 0) {
      return null;
    }
    return new LeftOut(t.hostsFolded() ? Math.max(hosts, t.hostsSeen()) : hosts, t.hostsFolded(), hosts, listed,
        differences.found(), differsListed, t.processesFolded(), t.processLimit(), notKept, acc.truncated);
  }

  /** Distinct versions; "2.18.3" is dropped when "2.18.3+cuda12.2" says the same and more. */
  private static List<String> versions(Set<String> seen) {
    Set<String> withBuild = new java.util.HashSet<>();
    for (String w : seen) {
      int plus = w.indexOf('+');
      if (plus >= 0) {
        withBuild.add(w.substring(0, plus));
      }
    }
    TreeSet<String> out = new TreeSet<>(seen);
    out.removeIf(v -> !v.contains("+") && withBuild.contains(v));
    return List.copyOf(out);
  }

  private Transports transports = new Transports(null);

  private NodeFacts node(String host, List<ProcessState> ps, ChannelSum jobChannels) {
    ChannelSum s = new ChannelSum();
    long devices = 0;
    Integer ports = null;
    String oob = null;
    String boot = null;
    String version = null;
    TreeSet<Integer> ranks = new TreeSet<>();
    int localRanks = -1;
    for (ProcessState p : ps) {
      s.add(p);
      jobChannels.add(p);
      devices |= p.devices;
      localRanks = Math.max(localRanks, p.localRanks);
      List<Hca> list = p.hcas != null ? p.hcas : p.perLineHcas.isEmpty() ? null : p.perLineHcas;
      if (list != null) {
        int n = ports(list).size();
        ports = ports == null ? n : Math.min(ports, n);
      }
      if (oob == null && p.oob != null) {
        oob = p.oob.name();
      }
      if (boot == null && p.bootstrap != null) {
        boot = p.bootstrap.name() + " " + p.bootstrap.family();
      }
      if (version == null && p.version != null) {
        version = p.version;
      }
      if (p.rankMax >= 0 && ranks.size() < 64) {
        ranks.add(p.rankMin);
        if (p.rankMax != p.rankMin) {
          ranks.add(p.rankMax);
        }
      }
    }
    String transport = transports.of(ps).name();
    Integer gpus = localRanks > 0 ? Integer.valueOf(localRanks) : devices == 0 ? null : 64 - Long.numberOfLeadingZeros(devices);
    return new NodeFacts(host, ps.size(), gpus, transport, ports, oob, s.stats(), List.copyOf(ranks), boot,
        version == null ? null : Version.parse(version) == null ? version : Version.parse(version).toString());
  }

  /**
   * The distinct "device:port" of an HCA list. Processes share their list object when they
   * printed the same line (thousands do in a large job), so the answer is kept per list.
   */
  private Set<String> ports(List<Hca> list) {
    return portsOfList.computeIfAbsent(list, l -> {
      Set<String> out = new java.util.HashSet<>();
      l.forEach(h -> h.ports().forEach(x -> out.add(x.name() + ":" + x.port())));
      return out;
    });
  }

  /** GPUs per node from the cudaDev indices in prefixes, when no comm line said localRanks. */
  private static Integer localGpus(Map<String, List<ProcessState>> byHost) {
    int most = 0;
    for (List<ProcessState> ps : byHost.values()) {
      most = Math.max(most, NodeCount.gpusShown(ps));
    }
    return most == 0 ? null : most;
  }

  /** Every item of the lists, in the map's order (first-seen value, then line order). */
  private static List<Evidence> items(Map<String, EvidenceList> lists) {
    List<Evidence> out = new ArrayList<>();
    lists.values().forEach(l -> out.addAll(l.items()));
    return out;
  }
}
