package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.ArrayList;
import java.util.List;

/** Flattens {@link LogFacts} into the named facts of the vocabulary, each with its evidence. */
public final class LogFactSet {
  private LogFactSet() {}

  public static FactSet from(LogFacts f, Integer expectHcas) {
    FactSet s = new FactSet();
    s.put("log.ncclLines", f.ncclLines(), List.of());
    Version lowest = f.ncclVersions().stream().map(Version::parse).filter(v -> v != null)
        .min(Version::compareTo).orElse(null);
    s.put("log.ncclVersion", lowest, f.evidenceFor("versions"));
    if (f.ncclLines() == 0) {
      // a job that failed before NCCL printed a line (at its framework's rendezvous, say)
      failures(s, f);
      return s;
    }
    List<Evidence> nodesEv = nodesEvidence(f);
    s.put("job.nodes", f.nodes() == null ? null : (long) f.nodes(), nodesEv);
    s.put("job.singleNode", f.singleNode(), nodesEv);
    s.put("job.ranks", f.ranks() == null ? null : (long) f.ranks(), f.evidenceFor("comm"));
    s.put("job.localGpus", f.localGpus() == null ? null : (long) f.localGpus(), f.evidenceFor("comm"));

    List<Evidence> transportEv = concat(f.evidenceFor("network"), f.evidenceFor("channels"));
    s.put("net.transport", f.transport(), transportEv);
    s.put("net.rdma", f.rdma(), transportEv);
    s.put("net.mixed", f.transport() == null ? null : "mixed".equals(f.transport()), transportEv);
    // local channels alone do not show a single node: an excerpt may hold one node's lines only
    Boolean usesNetwork = f.netChannels().total() > 0 ? Boolean.TRUE
        : f.singleNode() == null ? null : !f.singleNode();
    List<Evidence> usesEv = f.netChannels().total() > 0 ? f.evidenceFor("channels") : nodesEv;
    s.put("net.usesNetwork", usesNetwork, usesEv);
    s.put("net.channels", f.netChannels().total(), f.evidenceFor("channels"));
    if (f.oob() != null && !f.oob().name().isEmpty()) {
      s.put("net.oobInterface", f.oob().name(), f.evidenceFor("ibUsing"));
      s.put("net.oobAddress", f.oob().address(), f.evidenceFor("ibUsing"));
    } else if (ibOob(f) && f.bootstrap() != null && !f.bootstrap().name().isEmpty()) {
      // IB's out-of-band interface is chosen like the bootstrap's (NCCL_SOCKET_IFNAME, §6.2)
      s.put("net.oobInterface", f.bootstrap().name(), f.evidenceFor("bootstrap"));
      s.put("net.oobAddress", f.bootstrap().address(), f.evidenceFor("bootstrap"));
    } else if (ibOob(f) && f.env().containsKey("NCCL_SOCKET_IFNAME") && !f.env().get("NCCL_SOCKET_IFNAME").startsWith("^")) {
      String name = f.env().get("NCCL_SOCKET_IFNAME").replaceFirst("^=", "").split(",")[0].strip();
      if (!name.isEmpty()) {
        s.put("net.oobInterface", name, f.evidenceFor("env.NCCL_SOCKET_IFNAME"));
      }
    }
    if (f.bootstrap() != null) {
      s.put("net.bootstrapInterface", f.bootstrap().name(), f.evidenceFor("bootstrap"));
    }
    if (!f.socketInterfaces().isEmpty()) {
      s.put("net.socketInterfaces", f.socketInterfaces().stream().map(Iface::name).toList(), f.evidenceFor("socket"));
    }
    s.put("ib.noDevice", f.ibNoDevice(), f.evidenceFor("ibNoDevice"));
    s.put("ib.initLogged", f.ibLogged(), f.evidenceFor("ibUsing"));
    if (f.hcaPorts() != null) {
      List<Evidence> ev = f.evidenceFor("ibUsing");
      s.put("ib.hcaPorts", (long) f.hcaPorts(), ev);
      s.put("ib.hcaPortsMin", (long) f.hcaPortsMin(), ev);
      if (f.localGpus() != null && f.localGpus() > 0) {
        s.put("ib.hcaPerGpu", f.hcaPortsMin() / (double) f.localGpus(), concat(ev, f.evidenceFor("comm")));
      }
      if (expectHcas != null) {
        s.put("ib.hcaDeficit", (long) (expectHcas - f.hcaPortsMin()), ev);
      }
      List<String> names = new ArrayList<>();
      f.hcas().forEach(h -> h.ports().forEach(p -> names.add(p.name())));
      s.put("ib.hcaNames", names, ev);
      s.put("ib.linkLayers", f.linkLayers(), ev);
      s.put("ib.mixedLinkLayers", f.linkLayers().contains("IB") && f.linkLayers().contains("RoCE"), ev);
    }
    if (f.netChannels().total() > 0) {
      List<Evidence> ev = f.netChannels().gdrdma() == f.netChannels().total()
          ? f.evidenceFor("channels.gdrdma") : f.evidenceFor("channels.noGdrdma");
      s.put("gdr.channels", f.gdr(), ev);
      ChannelStats c = f.netChannels();
      if (c.receive() > 0) {
        String r = c.receiveGdrdma() == c.receive() ? "all" : c.receiveGdrdma() == 0 ? "none" : "some";
        s.put("gdr.receiveChannels", r, ev);
      }
    }
    gdrDecisions(s, f);
    LogSignals sig = f.signals();
    s.put("gdr.logged", sig.gdrLogged(), f.evidenceFor("gdrLogged"));
    failures(s, f);
    s.put("log.warnings", sig.warnings(), f.evidenceFor("warnings"));
    s.put("net.initLogged", sig.initLogged(), f.evidenceFor("bootstrap"));
    s.put("log.kubernetes", sig.kubernetes(), f.evidenceFor("kubernetes"));
    s.put("log.container", sig.container(), f.evidenceFor("container"));
    s.put("log.versionsDiffer", sig.versionsDiffer(), f.evidenceFor("versions"));
    s.put("net.rdmaSeen", sig.rdmaSeen(), transportEv);
    s.put("net.linkLocal", sig.linkLocal(), f.evidenceFor("linkLocal"));
    s.put("net.loopback", sig.loopback(), f.evidenceFor("loopback"));
    s.put("net.sharedBootstrapAddress", sig.sharedBootstrapAddress(), f.evidenceFor("sharedBootstrap"));
    if (!sig.ofiProviders().isEmpty()) {
      List<Evidence> ev = f.evidenceFor("ofiProvider");
      s.put("plugin.ofiProviders", sig.ofiProviders(), ev);
      List<Boolean> kinds = sig.ofiProviders().stream().map(NetworkKind::providerRdma).toList();
      s.put("plugin.providerRdma", kinds.contains(Boolean.FALSE) ? Boolean.FALSE
          : kinds.contains(null) ? null : Boolean.TRUE, ev);
    }
    s.put("gdr.ringsFlag", f.ringsGdr() == null ? null : (long) f.ringsGdr(), f.evidenceFor("ringsGdr"));
    s.put("gdr.dmabufAvailable", f.dmabufAvailable() ? Boolean.TRUE : null, f.evidenceFor("dmabuf"));
    s.put("plugin.loaded", f.netPlugins(), f.evidenceFor("pluginsLoaded"));
    f.env().forEach((name, value) -> s.put("env." + name, value, f.evidenceFor("env." + name)));
    errors(s, f);
    if (expectHcas != null) {
      s.put("expect.hcas", (long) expectHcas, List.of());
    }
    return s;
  }

  /** The lines the node count came from: comm lines, else what decided it. */
  private static List<Evidence> nodesEvidence(LogFacts f) {
    List<Evidence> comm = f.evidenceFor("comm");
    if (f.nodesFrom() == null || f.nodesFrom().equals("comm") && !comm.isEmpty()) {
      return comm;
    }
    List<Evidence> ev = switch (f.nodesFrom()) {
      case "loopback" -> f.evidenceFor("loopback");
      case "errors" -> f.evidenceFor("failures");
      default -> concat(comm, f.evidenceFor("testsPreamble"));
    };
    return ev.isEmpty() ? concat(comm, f.evidenceFor("bootstrap")) : ev;
  }

  /** The transport does an IB out-of-band handshake: internal IB or the IBext plugin (same NET/IB code). */
  private static boolean ibOob(LogFacts f) {
    return f.transport() != null && f.transport().toUpperCase(java.util.Locale.ROOT).startsWith("IB");
  }

  private static void gdrDecisions(FactSet s, LogFacts f) {
    boolean noModule = false;
    boolean nic = false;
    boolean distance = false;
    boolean enabled = false;
    boolean plugin = false;
    List<Evidence> pl = new ArrayList<>();
    List<Evidence> nm = new ArrayList<>();
    List<Evidence> ni = new ArrayList<>();
    List<Evidence> di = new ArrayList<>();
    List<Evidence> en = new ArrayList<>();
    for (GdrDecision d : f.gdrDecisions()) {
      switch (d.reason()) {
        case "no-module" -> { noModule = true; nm.addAll(d.evidence()); }
        case "nic" -> { nic = true; ni.addAll(d.evidence()); }
        case "distance" -> { distance = true; di.addAll(d.evidence()); }
        case "plugin" -> { plugin = true; pl.addAll(d.evidence()); }
        default -> { enabled = true; en.addAll(d.evidence()); }
      }
    }
    s.put("gdr.noModule", noModule, nm);
    s.put("gdr.nicDisabled", nic, ni);
    s.put("gdr.distanceDisabled", distance, di);
    s.put("gdr.enabledLogged", enabled, en);
    s.put("gdr.pluginDisabled", plugin, pl);
  }

  /** Whether the job failed, and what PyTorch or the launcher said of it (its rendezvous, its watchdog, a rank's end). */
  private static void failures(FactSet s, LogFacts f) {
    s.put("log.failed", f.signals().failed(), f.evidenceFor("failures"));
    // each fact's evidence key: the failure lines of that kind
    String[][] kinds = {{"log.collectiveTimeout", "collectiveTimeouts"}, {"log.gpuOutOfMemory", "gpuOutOfMemory"},
        {"log.rankKilled", "rankKilled"}, {"log.shmExhausted", "shmExhausted"},
        {"rendezvous.connect", "rendezvousConnect"}, {"rendezvous.clients", "rendezvousClients"},
        {"rendezvous.lost", "rendezvousLost"}, {"rendezvous.unresolved", "rendezvousUnresolved"},
        {"log.pythonException", "pythonException"}, {"log.noGpu", "noGpu"}, {"log.driverTooOld", "driverTooOld"}};
    for (String[] k : kinds) {
      List<Evidence> ev = f.evidenceFor(k[1]);
      s.put(k[0], !ev.isEmpty(), ev);
    }
  }

  private static void errors(FactSet s, LogFacts f) {
    for (ErrorKind k : ErrorKind.values()) {
      List<ErrorSignature> of = f.errors().stream().filter(e -> e.kind().equals(k.id())).toList();
      List<Evidence> ev = new ArrayList<>();
      of.forEach(e -> ev.addAll(e.evidence()));
      s.put("error." + k.id(), !of.isEmpty(), ev.subList(0, Math.min(3, ev.size())));
      of.stream().map(ErrorSignature::detail).filter(d -> d != null).findFirst()
          .ifPresent(d -> s.put("error." + k.id() + ".detail", d, ev.subList(0, Math.min(3, ev.size()))));
    }
    List<String> statuses = f.errors().stream().filter(e -> e.status() != null)
        .map(e -> String.valueOf(e.status())).distinct().toList();
    if (!statuses.isEmpty()) {
      List<Evidence> ev = new ArrayList<>();
      f.errors().stream().filter(e -> e.status() != null).forEach(e -> ev.addAll(e.evidence()));
      s.put("error.completionStatus", statuses, ev.subList(0, Math.min(3, ev.size())));
    }
  }

  private static List<Evidence> concat(List<Evidence> a, List<Evidence> b) {
    List<Evidence> out = new ArrayList<>(a);
    for (Evidence e : b) {
      if (out.size() < 4 && !out.contains(e)) {
        out.add(e);
      }
    }
    return out;
  }
}
