package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Adds what the container showed (and the site's expectations) to a fact set, under the pod.*,
 * probe.*, expect.* and env.* names. Where the log gave no HCA count, the container's answers
 * Q2's facts instead, so the tree can predict what NCCL will do.
 */
public final class PodFactSet {
  private static final Pattern OVERLAY = Pattern.compile("^(lo|eth0|docker|veth|cni|flannel|cali|tunl|kube-|cilium|weave|vxlan|genev|lxc)");
  /** GPUs of a Grace superchip (NVIDIA GH200 480GB, NVIDIA GB200): joined to their CPU by NVLink-C2C. */
  private static final Pattern GRACE_SUPERCHIP = Pattern.compile("\\bG[HB][0-9]{3}\\b");

  private PodFactSet() {}

  public static void add(FactSet s, PodFacts p, Expectations expect, boolean logGiven) {
    Map<String, List<Evidence>> ev = p.evidence();
    s.put("log.present", logGiven, List.of());
    // the job's environment: what the log printed wins over this process's (a kubectl exec shell
    // lacks what the entrypoint exported); every prediction below uses it
    p.env().forEach((k, v) -> {
      if (s.get("env." + k).isEmpty()) {
        s.put("env." + k, v, ev(ev, "env." + k));
      }
    });
    PodFacts.Devices d = p.devices();
    s.put("probe.devices", d.status(), List.of());
    s.put("pod.devInfiniband", d.present(), ev(ev, "pod.uverbs"));
    s.put("pod.uverbs", (long) d.uverbs().size(), ev(ev, "pod.uverbs"));
    long openable = d.opens().values().stream().filter("ok"::equals).count();
    // a device a capture did not try is neither: each count is known only where those could not change it
    long untried = d.opens().values().stream().filter(r -> r.startsWith(PodFacts.Devices.UNTRIED)).count();
    long unopenable = d.uverbs().size() - openable - untried;
    if (untried == 0 || openable > 0) {
      s.put("pod.uverbsOpenable", openable, ev(ev, "pod.uverbsOpenable", "pod.uverbs"));
    }
    if (d.present() && (untried == 0 || unopenable > 0)) {
      s.put("pod.uverbsUnopenable", unopenable, ev(ev, "pod.uverbsOpenable", "pod.uverbs"));
    }
    s.put("pod.uverbsNames", d.uverbsHca().values().stream().sorted(NaturalOrder.INSTANCE).toList(), ev(ev, "pod.uverbsNames"));
    s.put("pod.rdmaCm", d.rdmaCm(), ev(ev, "pod.uverbs"));

    PodFacts.Hcas h = p.hcas();
    s.put("probe.hcas", h.status().equals("ok") ? h.source() : h.status(), ev(ev, "probe.hcas"));
    // what the values shown came from: after an ibv_devinfo timeout the ports are sysfs's
    s.put("probe.hcasRead", h.status().equals("timeout") ? h.source() + " (ibv_devinfo timed out)"
        : h.status().equals("ok") ? h.source() : h.status(), ev(ev, "probe.hcas"));
    List<Evidence> hcaEv = ev(ev, "pod.portsActive", "pod.hcas", "pod.hcasOnNode");
    s.put("pod.hcas", (long) h.usable().size(), ev(ev, "pod.uverbsNames", "pod.hcas", "pod.hcasOnNode"));
    s.put("pod.hcasOnNode", (long) h.onNode().size(), ev(ev, "pod.hcasOnNode"));
    if (h.rdmaNicsOnNode() != null) {
      s.put("pod.rdmaNicsOnNode", (long) h.rdmaNicsOnNode().size(), ev(ev, "pod.rdmaNicsOnNode"));
    }
    if (d.present() && !h.onNode().isEmpty()) {
      s.put("pod.hcasNotAllocated", (long) Math.max(0, h.onNode().size() - h.usable().size()),
          ev(ev, "pod.uverbsNames", "pod.hcasOnNode", "pod.uverbs"));
    }
    s.put("pod.hcaNames", h.usable(), ev(ev, "pod.uverbsNames"));
    s.put("pod.ports", (long) h.ports().size(), hcaEv);
    Long active = activeCount(h.ports());
    if (active != null) {
      s.put("pod.portsActive", active, hcaEv);
    }
    s.put("pod.linkLayers", h.ports().stream().map(PodFacts.Port::linkLayer).filter(x -> x != null).distinct().toList(), hcaEv);
    h.ports().stream().filter(x -> "ACTIVE".equals(x.state()) && x.rateGbps() != null)
        .mapToDouble(PodFacts.Port::rateGbps).min().ifPresent(r -> s.put("pod.minRateGbps", r, hcaEv));

    PodFacts.Verbs verbs = p.verbs();
    s.put("probe.verbs", verbs.status(), List.of());
    s.put("pod.libibverbs", verbs.libibverbs(), ev(ev, "pod.libibverbs"));
    s.put("pod.verbsProviders", verbs.providers(), ev(ev, "pod.verbsProviders"));
    s.put("pod.verbsProvidersMissing", verbs.missing(), ev(ev, "pod.verbsProviders", "pod.uverbsNames"));

    PodFacts.Rdma r = p.rdma();
    s.put("probe.rdma", r.status(), ev(ev, "probe.rdma"));
    s.put("pod.rdmaNetns", r.netnsMode(), ev(ev, "pod.rdmaNetns"));
    s.put("pod.rdmaNetdevs", r.netdevsHere(), ev(ev, "pod.rdmaNetdevs"));
    s.put("pod.rdmaPortsNoNetdev", (long) r.rocePortsNoNetdev(), ev(ev, "pod.rdmaPortsNoNetdev", "pod.rdmaNetdevs"));
    putRdmaHardware(s, d, h, r, ev);

    PodFacts.Interfaces ifs = p.interfaces();
    s.put("probe.interfaces", ifs.status().equals("ok") ? ifs.source() : ifs.status(), List.of());
    s.put("probe.interfacesRead", ifs.status().equals("ok") ? ifs.source()
        : ifs.status().equals("java") ? "java" : ifs.source() + ", which gave " + ifs.status(), List.of());
    List<Evidence> ifEv = ev(ev, "pod.interfaces");
    if (ifs.status().equals("ok") || ifs.status().equals("java")) {
      List<String> names = ifs.interfaces().stream().map(PodFacts.Iface::name).toList();
      List<String> secondary = new ArrayList<>();
      for (PodFacts.Iface i : ifs.interfaces()) {
        if (!OVERLAY.matcher(i.name()).find() && i.addresses().stream().anyMatch(PodFactSet::routable)) {
          secondary.add(i.name());
        }
      }
      s.put("pod.interfaces", names, ifEv);
      s.put("pod.secondaryInterfaces", secondary, ifEv);
      s.put("pod.secondaryCount", (long) secondary.size(), ifEv);
      List<String> noAddr = r.netdevsHere().stream().filter(n -> ifs.interfaces().stream()
          .noneMatch(i -> i.name().equals(n) && i.addresses().stream().anyMatch(PodFactSet::routable))).toList();
      s.put("pod.rdmaNetdevsNoAddress", noAddr, noAddr.isEmpty() ? ifEv
          : concat(ifaceEv(ev, noAddr), ev(ev, "pod.rdmaNetdevs")));
      List<String> down = new ArrayList<>();
      List<String> downNames = new ArrayList<>();
      for (PodFacts.Iface i : ifs.interfaces()) {
        String state = linkDown(i);
        if (state != null && (secondary.contains(i.name()) || r.netdevsHere().contains(i.name()))) {
          down.add(i.name() + " (" + state + ")");
          downNames.add(i.name());
        }
      }
      // the interfaces whose link state was judged: those down, else the RDMA-side ones (all up)
      List<String> judged = new ArrayList<>(secondary);
      r.netdevsHere().stream().filter(n -> !judged.contains(n)).forEach(judged::add);
      List<Evidence> judgedEv = ifaceEv(ev, down.isEmpty() ? judged : downNames);
      s.put("pod.secondaryDown", down, judgedEv.isEmpty() ? ifEv : judgedEv);
      // the interface NCCL will pick for bootstrap and the IB handshake, from what the container shows
      Optional<SocketInterfaceChoice.Pick> pick = SocketInterfaceChoice.predict(env(s, "NCCL_SOCKET_IFNAME"),
          env(s, "NCCL_SOCKET_FAMILY"), ifs.interfaces());
      List<Evidence> pickEv = new ArrayList<>();
      pick.ifPresent(k -> pickEv.add(new Evidence("ncclFindInterfaces", 0,
          "predicted " + k.name() + " " + k.address() + " (" + k.how() + ")")));
      List<String> cited = new ArrayList<>();
      pick.ifPresent(k -> cited.add(k.name()));
      secondary.stream().filter(n -> !cited.contains(n)).forEach(cited::add);
      pickEv.addAll(concat(envEvidence(s, "NCCL_SOCKET_IFNAME"), ifaceEv(ev, cited)));
      s.put("pod.oobPredicted", pick.map(SocketInterfaceChoice.Pick::name).orElse("none"), pickEv);
      pick.ifPresent(k -> s.put("pod.oobOverlay", OVERLAY.matcher(k.name()).find(), pickEv));
      // Q3 from the container when the log did not say
      if (s.get("net.oobInterface").isEmpty()) {
        pick.ifPresent(k -> {
          s.put("net.oobInterface", k.name(), pickEv);
          s.put("net.oobAddress", k.address(), pickEv);
        });
      }
      String sock = env(s, "NCCL_SOCKET_IFNAME");
      if (sock != null && sock.length() > 1) {
        NcclNameFilter filter = NcclNameFilter.parse(sock);
        List<String> selected = names.stream().filter(filter::selects).toList();
        s.put("pod.socketIfnameMatches", !selected.isEmpty(),
            concat(envEvidence(s, "NCCL_SOCKET_IFNAME"), selected.isEmpty() ? ifEv : ifaceEv(ev, selected)));
      }
      if (expect.iface() != null) {
        boolean present = ifs.interfaces().stream().anyMatch(i -> i.name().equals(expect.iface())
            && i.addresses().stream().anyMatch(PodFactSet::routable));
        s.put("pod.expectedIfacePresent", present, ifEv);
      }
    }

    PodFacts.Memlock m = p.memlock();
    s.put("probe.memlock", m.status(), List.of());
    s.put("pod.memlockBytes", m.softBytes(), ev(ev, "pod.memlockBytes"));
    if (m.softBytes() != null) {
      long b = m.softBytes();
      s.put("pod.memlock", b == -1 ? "unlimited" : b % (1 << 20) == 0 && b > 0 ? (b >> 20) + " MiB"
          : b % 1024 == 0 && b > 0 ? (b >> 10) + " KiB" : b + " bytes", ev(ev, "pod.memlockBytes"));
    }
    s.put("pod.ipcLock", m.ipcLock(), ev(ev, "pod.ipcLock"));
    if (expect.minMemlockBytes() != null && m.softBytes() != null) {
      long need = expect.minMemlockBytes();
      long have = m.softBytes();
      long deficit = have == -1 ? 0 : need == -1 ? 1 : need - have;
      s.put("pod.memlockDeficit", deficit, ev(ev, "pod.memlockBytes"));
    }

    PodFacts.GpuDirect g = p.gpudirect();
    s.put("probe.gpudirect", g.status(), List.of());
    s.put("pod.peermemLoaded", g.peermemLoaded(), ev(ev, "pod.peermemLoaded"));
    s.put("pod.peermemRegistered", g.peermemRegistered(), ev(ev, "pod.peermemRegistered"));
    s.put("pod.nvPeerMem", g.nvPeerMem(), ev(ev, "pod.peermemLoaded"));
    Version kernel = g.kernel() == null ? null : Version.parse(g.kernel());
    s.put("pod.kernel", kernel, ev(ev, "pod.kernel"));
    s.put("pod.nvidiaModule", g.nvidiaModule(), ev(ev, "pod.nvidiaModule"));
    if (kernel != null && g.nvidiaModule() != null) {
      boolean possible = kernel.compareTo(new Version(5, 12, 0)) >= 0 && g.nvidiaModule().equals("open");
      s.put("pod.dmabufPossible", possible, ev(ev, "pod.kernel", "pod.nvidiaModule"));
    }
    s.put("pod.gpus", g.gpus() == null ? null : (long) g.gpus(), ev(ev, "pod.gpus"));
    s.put("pod.gpuNicWorst", g.gpuNicWorst(), ev(ev, "pod.gpuNicWorst"));
    s.put("pod.gpuModels", g.gpuModels().isEmpty() ? null : g.gpuModels(), ev(ev, "pod.gpuModels"));
    boolean judged = g.gpuNicWorst() != null && !g.gpuModels().isEmpty();
    boolean c2c = judged && c2c(g);
    if (judged) {
      s.put("pod.gpuNicC2c", c2c, c2c ? concat(ev(ev, "pod.gpuNicWorst"), ev(ev, "pod.gpuModels"))
          : ev(ev, "pod.gpuNicWorst"));
    }
    s.put("pod.gpuNicPath", g.gpuNicWorst() == null ? null
        : c2c ? g.gpuNicWorst() + " (through its Grace CPU over NVLink-C2C: NCCL's P2C path)" : g.gpuNicWorst(),
        ev(ev, "pod.gpuNicWorst"));

    GidFactSet.add(s, p, envEvidence(s, "NCCL_IB_GID_INDEX"));
    String ibHca = env(s, "NCCL_IB_HCA");
    List<Evidence> ibHcaEv = s.get("env.NCCL_IB_HCA").map(FactValue::evidence).orElse(List.of());
    NcclNameFilter filter = ibHca == null ? null : NcclNameFilter.parse(ibHca);
    if (filter != null && !h.usable().isEmpty()) {
      List<Evidence> filterEv = concat(ibHcaEv, ev(ev, "pod.uverbsNames", "pod.hcasOnNode"));
      s.put("pod.ibHcaMatches", filter.selectsAny(h.usable()), filterEv);
      s.put("pod.ibHcaExcludes", !h.usable().stream().allMatch(filter::selects), filterEv);
    }
    if (!h.ports().isEmpty()) {
      // the ports NCCL would take: ACTIVE, of a usable HCA, selected by the job's NCCL_IB_HCA
      Long selected = activeCount(h.ports().stream()
          .filter(x -> h.usable().contains(x.hca()) && (filter == null || filter.selects(x.hca()))).toList());
      if (selected != null) {
        s.put("pod.portsSelectedActive", selected, concat(hcaEv, ibHcaEv));
      }
    }
    long ports = h.ports().isEmpty() ? h.usable().size() : h.ports().size();
    if (expect.hcas() != null && d.present()) {
      // the container's own count, beside the log's (ib.hcaDeficit), so that one can refute the other
      s.put("pod.hcaDeficit", (long) (expect.hcas() - ports), hcaEv);
    }
    // Q2 from the container when the log did not say
    if (s.get("ib.hcaPortsMin").isEmpty() && d.present()) {
      s.put("ib.hcaPortsMin", ports, hcaEv);
      s.put("ib.hcaNames", h.usable(), hcaEv);
      if (expect.hcas() != null) {
        s.put("ib.hcaDeficit", (long) (expect.hcas() - ports), hcaEv);
      } else if (g.gpus() != null && g.gpus() > 0) {
        s.put("ib.hcaPerGpu", ports / (double) g.gpus(), concat(hcaEv, ev(ev, "pod.gpus")));
        s.put("job.localGpus", (long) g.gpus(), ev(ev, "pod.gpus"));
      }
    }
    if (expect.hcas() != null && s.get("expect.hcas").isEmpty()) {
      s.put("expect.hcas", (long) expect.hcas(), List.of());
    }
    if (expect.iface() != null) {
      s.put("expect.iface", expect.iface(), List.of());
    }
    if (expect.gdr() != null) {
      s.put("expect.gdr", expect.gdr(), List.of());
    }
    if (expect.minMemlockBytes() != null) {
      s.put("expect.memlockBytes", expect.minMemlockBytes(), List.of());
    }
  }

  /**
   * How an interface's link is down ("DOWN, NO-CARRIER"), or null when it is up or the source did
   * not say. No UP flag: nobody brought it up; NO-CARRIER or a down operstate: no link under it
   * (for an SR-IOV VF or macvlan, the node's PF; for IPoIB, the IB port).
   */
  private static String linkDown(PodFacts.Iface i) {
    List<String> f = i.flags();
    String op = i.state() == null ? "" : i.state();
    boolean down = f.contains("NO-CARRIER") || !f.isEmpty() && !f.contains("UP")
        || op.equals("DOWN") || op.equals("LOWERLAYERDOWN") || op.equals("NOTPRESENT");
    if (!down) {
      return null;
    }
    List<String> words = new ArrayList<>();
    words.add(op.isEmpty() ? "DOWN" : op);
    if (f.contains("NO-CARRIER")) {
      words.add("NO-CARRIER");
    }
    if (!f.isEmpty() && !f.contains("UP")) {
      words.add("not set UP");
    }
    return String.join(", ", words);
  }

  private static String env(FactSet s, String name) {
    return s.get("env." + name).map(v -> String.valueOf(v.value())).orElse(null);
  }

  private static List<Evidence> envEvidence(FactSet s, String name) {
    return s.get("env." + name).map(FactValue::evidence).orElse(List.of());
  }

  /**
   * A Grace superchip's GPU (GH200, GB200) reaches the CPU over NVLink-C2C, not PCIe, so nvidia-smi
   * shows its NIC on that CPU as PHB or NODE; NCCL calls this path P2C and (from 2.27 by default)
   * uses GPUDirect RDMA over it. A NIC across the SMP link (SYS) is no C2C path.
   */
  private static boolean c2c(PodFacts.GpuDirect g) {
    return g.gpuModels().stream().allMatch(m -> GRACE_SUPERCHIP.matcher(m).find())
        && (g.gpuNicWorst().equals("PHB") || g.gpuNicWorst().equals("NODE"));
  }

  /** An address other hosts could reach: not loopback, not IPv6 link-local. */
  private static boolean routable(String addr) {
    return !addr.startsWith("127.") && !addr.startsWith("::1") && !addr.toLowerCase().startsWith("fe80");
  }

  /** The lines of these interfaces (name, flags, state, addresses), at most four. */
  private static List<Evidence> ifaceEv(Map<String, List<Evidence>> m, List<String> names) {
    List<Evidence> out = new ArrayList<>();
    for (String n : names) {
      for (Evidence e : m.getOrDefault("pod.interface." + n, List.of())) {
        if (out.size() < 4 && !out.contains(e)) {
          out.add(e);
        }
      }
    }
    return out;
  }

  /**
   * Whether the node shows RDMA hardware at all. Running in a container is no such evidence: on a
   * node without RDMA NICs TCP sockets are NCCL's only network, by design. Unknown when nothing shows
   * it and the PCI bus, the one place that would show an unallocated NIC in an exclusive netns,
   * could not be read.
   */
  private static void putRdmaHardware(FactSet s, PodFacts.Devices d, PodFacts.Hcas h, PodFacts.Rdma r,
      Map<String, List<Evidence>> ev) {
    List<String> nics = h.rdmaNicsOnNode();
    if (!d.uverbs().isEmpty() || !h.onNode().isEmpty() || nics != null && !nics.isEmpty()
        || "exclusive".equals(r.netnsMode())) {
      // the facts that show it cite their own files; repeating them here would crowd every step
      s.put("pod.rdmaHardware", true, List.of());
    } else if (nics != null) {
      s.put("pod.rdmaHardware", false, ev(ev, "pod.uverbs", "pod.rdmaNicsOnNode"));
    }
  }

  private static List<Evidence> ev(Map<String, List<Evidence>> m, String... keys) {
    List<Evidence> out = new ArrayList<>();
    for (String k : keys) {
      for (Evidence e : m.getOrDefault(k, List.of())) {
        if (out.size() < 4 && !out.contains(e)) {
          out.add(e);
        }
      }
    }
    return out;
  }

  private static List<Evidence> concat(List<Evidence> a, List<Evidence> b) {
    List<Evidence> out = new ArrayList<>(a);
    b.stream().filter(e -> !out.contains(e) && out.size() < 5).forEach(out::add);
    return out;
  }

  /**
   * How many of the ports are ACTIVE; null (unknown) when none is known to be and a port's state
   * could not be read (no state file, an empty or garbled one): such a port is unknown, not down.
   */
  private static Long activeCount(List<PodFacts.Port> ports) {
    long active = ports.stream().filter(x -> "ACTIVE".equals(x.state())).count();
    return active > 0 || ports.stream().allMatch(x -> x.state() != null) ? active : null;
  }
}
