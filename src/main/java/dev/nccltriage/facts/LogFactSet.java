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
      return s;
    }
    s.put("job.nodes", f.nodes() == null ? null : (long) f.nodes(), f.evidenceFor("comm"));
    s.put("job.singleNode", f.singleNode(), f.evidenceFor("comm"));
    s.put("job.ranks", f.ranks() == null ? null : (long) f.ranks(), f.evidenceFor("comm"));
    s.put("job.localGpus", f.localGpus() == null ? null : (long) f.localGpus(), f.evidenceFor("comm"));

    List<Evidence> transportEv = concat(f.evidenceFor("network"), f.evidenceFor("channels"));
    s.put("net.transport", f.transport(), transportEv);
    s.put("net.rdma", f.rdma(), transportEv);
    s.put("net.mixed", f.transport() == null ? null : "mixed".equals(f.transport()), transportEv);
    Boolean usesNetwork = f.netChannels().total() > 0 ? Boolean.TRUE
        : Boolean.TRUE.equals(f.singleNode()) ? Boolean.FALSE
        : f.nodes() != null && f.nodes() > 1 ? Boolean.TRUE
        : f.localChannels() > 0 ? Boolean.FALSE : null;
    List<Evidence> usesEv = f.netChannels().total() > 0 ? f.evidenceFor("channels")
        : f.localChannels() > 0 ? f.evidenceFor("localChannels") : f.evidenceFor("comm");
    s.put("net.usesNetwork", usesNetwork, usesEv);
    s.put("net.channels", f.netChannels().total(), f.evidenceFor("channels"));
    if (f.oob() != null) {
      s.put("net.oobInterface", f.oob().name(), f.evidenceFor("ibUsing"));
      s.put("net.oobAddress", f.oob().address(), f.evidenceFor("ibUsing"));
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
    s.put("gdr.ringsFlag", f.ringsGdr() == null ? null : (long) f.ringsGdr(), f.evidenceFor("ringsGdr"));
    s.put("gdr.dmabufAvailable", f.dmabufAvailable() ? Boolean.TRUE : null, f.evidenceFor("dmabuf"));
    s.put("plugin.loaded", f.netPlugins(), List.of());
    f.env().forEach((name, value) -> s.put("env." + name, value, f.evidenceFor("env." + name)));
    errors(s, f);
    if (expectHcas != null) {
      s.put("expect.hcas", (long) expectHcas, List.of());
    }
    return s;
  }

  private static void gdrDecisions(FactSet s, LogFacts f) {
    boolean noModule = false;
    boolean nic = false;
    boolean distance = false;
    boolean enabled = false;
    List<Evidence> nm = new ArrayList<>();
    List<Evidence> ni = new ArrayList<>();
    List<Evidence> di = new ArrayList<>();
    List<Evidence> en = new ArrayList<>();
    for (GdrDecision d : f.gdrDecisions()) {
      switch (d.reason()) {
        case "no-module" -> { noModule = true; nm.addAll(d.evidence()); }
        case "nic" -> { nic = true; ni.addAll(d.evidence()); }
        case "distance" -> { distance = true; di.addAll(d.evidence()); }
        default -> { enabled = true; en.addAll(d.evidence()); }
      }
    }
    s.put("gdr.noModule", noModule, nm);
    s.put("gdr.nicDisabled", nic, ni);
    s.put("gdr.distanceDisabled", distance, di);
    s.put("gdr.enabledLogged", enabled, en);
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
      s.put("error.completionStatus", statuses, List.of());
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
