package dev.nccltriage.source.k8s;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.FactSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * The {@code k8s.*} and {@code env.NCCL_*} facts of one pod template, with evidence at the line of the
 * key that matters ({@code lines} gives a line's text; the template's object is still held).
 */
final class TemplateFacts {
  private static final Pattern RDMA = Pattern.compile(
      "^(rdma/.+|nvidia\\.com/hostdev|mellanox\\.com/.+|.*sriov.*|.*rdma.*)$", Pattern.CASE_INSENSITIVE);
  private static final Pattern GPU = Pattern.compile("^(nvidia\\.com/gpu|nvidia\\.com/mig-.+)$");
  private static final Pattern NCCL_ENV = Pattern.compile("^NCCL_[A-Z0-9_]+$");

  private final Set<String> siteRdma;
  private final String file;
  private final IntFunction<String> lines;
  private final String kind;
  private final String name;
  private final ManifestSource.Found f;
  private final long pods;
  private final Set<String> objectIgnores;
  private final FactSet facts = new FactSet();
  private final Map<Long, String> containerAt = new LinkedHashMap<>();

  TemplateFacts(Set<String> siteRdma, String file, IntFunction<String> lines, String kind, String name,
      ManifestSource.Found f, long pods, Set<String> objectIgnores) {
    this.siteRdma = siteRdma;
    this.file = file;
    this.lines = lines;
    this.kind = kind;
    this.name = name;
    this.f = f;
    this.pods = pods;
    this.objectIgnores = objectIgnores;
  }

  private Evidence ev(int line, String container) {
    if (container != null) {
      containerAt.putIfAbsent((long) line, container);
    }
    String t = lines.apply(line).strip();
    return new Evidence(file, line, t.isEmpty() ? null : t); // "": the line is not held, its text unknown
  }

  /** A container's line: its name's, else its item's (a container without a name still has a line). */
  private static int where(Node container) {
    return container.get("name").present() ? container.get("name").keyLine() : container.line();
  }

  PodTemplate build() {
    Node tpl = f.template();
    Node spec = tpl.get("spec");
    Node metadata = tpl.get("metadata");
    int tplLine = f.path().isEmpty() && tpl.get("kind").present() ? metadata.present() ? metadata.keyLine()
        : tpl.line() : tpl.keyLine();
    facts.put("k8s.kind", kind, List.of(ev(tplLine, null)));
    facts.put("k8s.pods", pods < 0 ? null : (Long) pods, List.of()); // unknown when a count does not fit

    List<Node> containers = spec.get("containers").list();
    List<Evidence> gpu = new ArrayList<>();
    List<String> rdma = new ArrayList<>();
    List<Evidence> rdmaEv = new ArrayList<>();
    List<Node> rdmaContainers = new ArrayList<>();
    List<Node> gpuContainers = new ArrayList<>();
    Map<String, Evidence> env = new LinkedHashMap<>();
    Map<String, String> envValue = new LinkedHashMap<>();
    Map<String, Node> shmMounts = new LinkedHashMap<>();
    for (Node c : containers) {
      String cname = c.get("name").text(); // null: a container without a name (no container named)
      boolean cGpu = false;
      boolean cRdma = false;
      for (String sect : List.of("limits", "requests")) {
        for (Map.Entry<String, Node> r : c.at("resources", sect).map().entrySet()) {
          String res = r.getKey();
          if (GPU.matcher(res).matches() && r.getValue().number(1) > 0) {
            if (!cGpu) {
              gpu.add(ev(r.getValue().keyLine(), cname));
            }
            cGpu = true;
          } else if ((RDMA.matcher(res).matches() || siteRdma.contains(res)) && r.getValue().number(1) > 0) {
            if (!rdma.contains(res)) {
              rdma.add(res);
              rdmaEv.add(ev(r.getValue().keyLine(), cname));
            }
            cRdma = true;
          }
        }
      }
      if (cGpu) {
        gpuContainers.add(c);
      }
      if (cRdma) {
        rdmaContainers.add(c);
      }
      for (Node e : c.get("env").list()) {
        String n = e.get("name").text();
        if (n == null || !NCCL_ENV.matcher(n).matches() || env.containsKey(n)) {
          continue;
        }
        Node v = e.get("value");
        String value = v.present() ? v.text() : e.get("valueFrom").present() ? null : "";
        if (value == null) {
          continue;
        }
        env.put(n, ev(v.present() ? v.keyLine() : e.get("name").keyLine(), cname));
        envValue.put(n, value);
      }
      for (Node m : c.get("volumeMounts").list()) {
        if ("/dev/shm".equals(m.get("mountPath").text()) && m.get("name").text() != null) {
          shmMounts.putIfAbsent(m.get("name").text(), m.get("mountPath"));
          containerAt.putIfAbsent((long) m.get("mountPath").keyLine(), cname);
        }
      }
    }
    Node first = gpuContainers.isEmpty() ? containers.isEmpty() ? Node.MISSING : containers.get(0)
        : gpuContainers.get(0);
    Evidence firstEv = ev(first.present() ? where(first) : tplLine, first.get("name").text());

    facts.put("k8s.gpuRequested", !gpu.isEmpty(), gpu);
    facts.put("k8s.rdmaResources", rdma, rdmaEv);
    facts.put("k8s.rdmaRequested", !rdma.isEmpty(), rdmaEv);

    // IPC_LOCK: every container that requests RDMA (else every GPU container, else every one)
    List<Node> need = !rdmaContainers.isEmpty() ? rdmaContainers : !gpuContainers.isEmpty() ? gpuContainers : containers;
    Boolean ipc = null;
    Evidence ipcEv = null;
    for (Node c : need) {
      String cname = c.get("name").text();
      Node sc = c.get("securityContext");
      Node add = sc.at("capabilities", "add");
      Node hit = null;
      for (Node a : add.list()) {
        String cap = a.text();
        if (cap != null && (cap.equals("IPC_LOCK") || cap.equals("CAP_IPC_LOCK"))) {
          hit = a;
        }
      }
      if (hit == null && Boolean.TRUE.equals(sc.get("privileged").value())) {
        hit = sc.get("privileged");
      }
      if (hit == null) {
        ipc = false;
        int line = add.present() ? add.keyLine() : sc.present() ? sc.keyLine() : where(c);
        ipcEv = ev(line, cname);
        break;
      }
      ipc = true;
      if (ipcEv == null) {
        ipcEv = ev(hit.keyLine(), cname);
      }
    }
    facts.put("k8s.ipcLock", ipc, ipcEv == null ? List.of() : List.of(ipcEv));

    Node ann = metadata.at("annotations", ManifestSource.MULTUS);
    if (ann.present()) {
      facts.put("k8s.multusAnnotation", ann.text(), List.of(ev(ann.keyLine(), null)));
      facts.put("k8s.multusAnnotated", true, List.of(ev(ann.keyLine(), null)));
      facts.put("k8s.multusMalformed", ManifestSource.malformed(ann.text()), List.of(ev(ann.keyLine(), null)));
    } else {
      int line = metadata.present() ? metadata.keyLine() : tplLine;
      facts.put("k8s.multusAnnotated", false, List.of(ev(line, null)));
    }

    Node hn = spec.get("hostNetwork");
    facts.put("k8s.hostNetwork", Boolean.TRUE.equals(hn.value()),
        hn.present() ? List.of(ev(hn.keyLine(), null)) : List.of());

    env.forEach((n, e) -> facts.put("env." + n, envValue.get(n), List.of(e)));
    if (envValue.containsKey("NCCL_SOCKET_IFNAME")) {
      facts.put("k8s.socketIfname", envValue.get("NCCL_SOCKET_IFNAME"), List.of(env.get("NCCL_SOCKET_IFNAME")));
    }
    facts.put("k8s.ncclDebug", envValue.getOrDefault("NCCL_DEBUG", "unset"),
        List.of(env.containsKey("NCCL_DEBUG") ? env.get("NCCL_DEBUG") : firstEv));

    // /dev/shm: a Memory emptyDir mounted there, with a sizeLimit
    Node shmVolume = null;
    for (Node v : spec.get("volumes").list()) {
      if (shmMounts.containsKey(v.get("name").text()) && "Memory".equals(v.at("emptyDir", "medium").text())) {
        shmVolume = v;
      }
    }
    if (shmVolume == null) {
      Node vols = spec.get("volumes");
      facts.put("k8s.devShm", false, List.of(vols.present() ? ev(vols.keyLine(), null) : firstEv));
    } else {
      Node mount = shmMounts.get(shmVolume.get("name").text());
      facts.put("k8s.devShm", true, List.of(ev(mount.keyLine(), null)));
      Node size = shmVolume.at("emptyDir", "sizeLimit");
      facts.put("k8s.devShmSized", size.present(),
          List.of(ev(size.present() ? size.keyLine() : shmVolume.get("emptyDir").keyLine(), null)));
    }
    // the object's annotation covers all its templates; a template's own covers that one
    Set<String> ignore = new java.util.LinkedHashSet<>(objectIgnores);
    ignore.addAll(Suppressions.of(metadata.at("annotations", Suppressions.ANNOTATION)));
    return new PodTemplate(file, kind, name, f.path(), tplLine, facts, containerAt, Set.copyOf(ignore));
  }
}
