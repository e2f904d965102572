package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.ErrorKind;
import dev.nccltriage.facts.Iface;
import dev.nccltriage.facts.LogSignals;
import dev.nccltriage.facts.NetworkKind;
import dev.nccltriage.facts.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** Derives {@link LogSignals} and their evidence from what the parser collected. Never judges. */
final class SignalsBuilder {
  /** Pod names the training operators give by design: PyTorchJob, MPIJob, TFJob, JobSet replicas. */
  private static final Pattern OPERATOR_POD =
      Pattern.compile("-(?:worker|master|launcher|chief|ps|evaluator)-\\d+$");
  /** docker names a container's host after the first 12 hex digits of its id. */
  private static final Pattern DOCKER_HOST = Pattern.compile("^[0-9a-f]{12}$");
  /** Multus names the interfaces it adds net1, net2, ... */
  private static final Pattern MULTUS_IFACE = Pattern.compile("^net\\d+$");
  /** IPoIB interfaces exist only on InfiniBand hardware: ib0, ibp12s0, ibs3. */
  private static final Pattern IPOIB_IFACE = Pattern.compile("^ib[ps]?\\d");

  private SignalsBuilder() {}

  static LogSignals build(LogAccumulator acc, List<ProcessState> procs, Map<String, List<ProcessState>> byHost,
      boolean rdmaTransportSeen, List<String> versions, Map<String, List<Evidence>> evidence) {
    evidence.put("failures", acc.failures.items());
    for (int k = 0; k < acc.frameworkFailures.length; k++) {
      evidence.put(FrameworkFailures.EVIDENCE_KEYS[k], acc.frameworkFailures[k].items());
    }
    evidence.put("warnings", acc.warnings.items());
    evidence.put("linkLocal", acc.linkLocal.items());
    evidence.put("loopback", acc.loopback.items());

    List<Evidence> k8s = new ArrayList<>(acc.kubernetes.items());
    boolean kubernetes = !acc.kubernetes.isEmpty();
    for (Map.Entry<String, List<ProcessState>> h : byHost.entrySet()) {
      if (OPERATOR_POD.matcher(h.getKey()).find()) {
        kubernetes = true;
        k8s.addAll(firstOf(h.getValue().get(0).evidence));
        break;
      }
    }
    boolean ipoib = false;
    // every process of a job names the same few interfaces: each name is matched once
    Map<String, Boolean> multus = new java.util.HashMap<>();
    java.util.Set<String> ipoibTried = new java.util.HashSet<>();
    for (ProcessState p : procs) {
      for (Iface f : interfaces(p)) {
        String n = f.name();
        if (!kubernetes && multus.computeIfAbsent(n, x -> MULTUS_IFACE.matcher(x).matches())) {
          kubernetes = true;
          k8s.addAll(p.evidence.items(HostEvidence.IB_USING));
          k8s.addAll(p.evidence.items(HostEvidence.BOOTSTRAP));
        }
        if (!ipoib && !ipoibTried.contains(n)) {
          ipoib = IPOIB_IFACE.matcher(n).find();
          ipoibTried.add(n);
        }
      }
    }
    evidence.put("kubernetes", JobEvidence.first(k8s));
    List<Evidence> box = new ArrayList<>(k8s);
    boolean container = kubernetes;
    for (Map.Entry<String, List<ProcessState>> h : byHost.entrySet()) {
      if (!container && DOCKER_HOST.matcher(h.getKey()).matches() && h.getKey().chars().anyMatch(Character::isLetter)) {
        container = true;
        box.addAll(firstOf(h.getValue().get(0).evidence));
      }
    }
    evidence.put("container", JobEvidence.first(box));

    boolean rdmaSeen = rdmaTransportSeen || ipoib || procs.stream().anyMatch(p -> p.hcas != null && !p.hcas.isEmpty()
        || !p.perLineHcas.isEmpty() || Boolean.TRUE.equals(NetworkKind.providerRdma(p.ofiProvider)));
    rdmaSeen |= acc.pluginsLoaded.keySet().stream().anyMatch(n -> Boolean.TRUE.equals(NetworkKind.rdma(n)));
    for (LogAccumulator.ErrAcc e : acc.errors.values()) {
      rdmaSeen |= e.kind == ErrorKind.IBV_OPEN_DEVICE || e.kind == ErrorKind.IB_DEVICE_UNUSABLE
          || e.kind == ErrorKind.COMPLETION || e.kind == ErrorKind.ASYNC_EVENT || e.kind == ErrorKind.IBV_MODIFY_QP;
    }

    List<String> providers = List.copyOf(acc.ofiProvider.keySet());
    List<Evidence> ofiEv = new ArrayList<>();
    acc.ofiProvider.values().forEach(l -> ofiEv.addAll(l.items()));
    evidence.put("ofiProvider", JobEvidence.first(ofiEv));

    String framework = null;
    if (versions.isEmpty() && !acc.frameworkVersions.isEmpty()) {
      framework = acc.frameworkVersions.keySet().iterator().next();
      List<Evidence> fv = new ArrayList<>();
      acc.frameworkVersions.values().forEach(l -> fv.addAll(l.items()));
      evidence.put("versions", JobEvidence.first(fv));
    }
    Set<Version> distinct = new TreeSet<>();
    versions.stream().map(Version::parse).filter(v -> v != null).forEach(distinct::add);

    return new LogSignals(!acc.failures.isEmpty(), procs.stream().anyMatch(p -> p.initSeen), acc.warnings.count(),
        kubernetes ? Boolean.TRUE : null, container ? Boolean.TRUE : null, rdmaSeen ? Boolean.TRUE : null,
        !acc.linkLocal.isEmpty(), !acc.loopback.isEmpty(), sharedBootstrap(byHost, evidence),
        gdrLogged(acc, evidence), providers, framework, distinct.size() > 1);
  }

  /** none or some from NCCL's GDR decisions: distance lines first (they are per GPU/NIC pair), then NIC lines. */
  private static String gdrLogged(LogAccumulator acc, Map<String, List<Evidence>> evidence) {
    String r = perGpu(acc.gdrPairs);
    if (r == null) {
      r = share(acc.gdrHcas);
    }
    boolean pluginOff = acc.gdr.values().stream().anyMatch(g -> g.reason.equals("plugin"));
    if (r == null && pluginOff) {
      r = "none";
    }
    List<Evidence> ev = new ArrayList<>();
    acc.gdr.values().stream().filter(g -> !g.enabled).forEach(g -> ev.addAll(g.evidence.items()));
    evidence.put("gdrLogged", JobEvidence.first(ev));
    return r;
  }

  /**
   * NCCL decides GDR for every GPU/NIC pair it considers, far NICs a rail-aligned ring never uses
   * included: a GPU lacks GPUDirect RDMA only when every pair of it is disabled ("host/GPU|pair").
   */
  private static String perGpu(Map<String, Boolean> pairs) {
    if (pairs.isEmpty()) {
      return null;
    }
    Map<String, Boolean> gpus = new java.util.LinkedHashMap<>();
    pairs.forEach((key, enabled) -> gpus.merge(key.substring(0, Math.max(0, key.indexOf('|'))), enabled,
        Boolean::logicalOr));
    return share(gpus);
  }

  private static String share(Map<String, Boolean> decisions) {
    if (decisions.isEmpty()) {
      return null;
    }
    long off = decisions.values().stream().filter(v -> !v).count();
    return off == 0 ? null : off == decisions.size() ? "none" : "some";
  }

  /**
   * An address two hosts both bootstrapped on: each node needs its own reachable address, so a
   * shared one is a private container address (a docker bridge's 172.17.0.2) the others cannot reach.
   */
  private static String sharedBootstrap(Map<String, List<ProcessState>> byHost, Map<String, List<Evidence>> evidence) {
    Map<String, String> hostOf = new java.util.HashMap<>();
    for (Map.Entry<String, List<ProcessState>> h : byHost.entrySet()) {
      for (ProcessState p : h.getValue()) {
        Iface b = p.bootstrap;
        if (b == null || b.address() == null || b.isLoopback()) {
          continue;
        }
        String other = hostOf.putIfAbsent(b.address(), h.getKey());
        if (other != null && !other.equals(h.getKey())) {
          List<Evidence> ev = new ArrayList<>(byHost.get(other).get(0).evidence.items(HostEvidence.BOOTSTRAP));
          ev.addAll(p.evidence.items(HostEvidence.BOOTSTRAP));
          evidence.put("sharedBootstrap", JobEvidence.first(ev));
          return b.address();
        }
      }
    }
    return null;
  }

  private static List<Iface> interfaces(ProcessState p) {
    List<Iface> out = new ArrayList<>();
    if (p.bootstrap != null) {
      out.add(p.bootstrap);
    }
    if (p.oob != null) {
      out.add(p.oob);
    }
    if (p.socketIfaces != null) {
      out.addAll(p.socketIfaces);
    }
    return out;
  }

  private static List<Evidence> firstOf(HostEvidence h) {
    List<Evidence> ev = new ArrayList<>(h.items(HostEvidence.COMM));
    ev.addAll(h.items(HostEvidence.NETWORK));
    ev.addAll(h.items(HostEvidence.BOOTSTRAP));
    ev.addAll(h.items(HostEvidence.IB_USING));
    return ev;
  }
}
