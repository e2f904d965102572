package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The pod.gid* facts: for the RoCE ports NCCL would use (ACTIVE, selected by NCCL_IB_HCA), where the
 * GID NCCL wants sits and what the index NCCL will use holds ({@link GidIndexChoice}).
 */
final class GidFactSet {
  private GidFactSet() {}

  private static final List<String> NAMES = List.of("NCCL_IB_GID_INDEX", "NCCL_IB_ADDR_FAMILY",
      "NCCL_IB_ROCE_VERSION_NUM", "NCCL_IB_ADDR_RANGE", "NCCL_IB_HCA");

  static void add(FactSet s, PodFacts p, List<Evidence> envEvidence) {
    PodFacts.Gids gids = p.gids();
    Map<String, String> env = env(s, p);
    GidIndexChoice.Wanted w = GidIndexChoice.wanted(env);
    Set<String> sources = new LinkedHashSet<>();
    gids.ports().stream().map(PodFacts.PortGids::source).filter(x -> !x.equals("unreadable")).forEach(sources::add);
    s.put("probe.gids", sources.isEmpty() ? gids.status() : String.join(", ", sources), List.of());
    s.put("pod.gidWanted", w.label(), List.of());
    List<PodFacts.PortGids> judged = judged(p, env.get("NCCL_IB_HCA"));
    if (judged.isEmpty()) {
      s.put("pod.gidSummary", gids.status().equals("n/a") ? "no RoCE port"
          : gids.status().equals("unreadable") ? "no GID table readable (no ports/<n>/gids/ in sysfs)"
          : "no RoCE port NCCL would use (none ACTIVE, or none selected by NCCL_IB_HCA)", List.of());
      return;
    }
    // two lists, not a map keyed by port: a record key is hashed by its ObjectMethods bootstrap,
    // linked on first use (10-30 ms of a cold JVM); judged ports are distinct ports anyway
    List<PodFacts.PortGids> wantedPorts = new ArrayList<>();
    List<Integer> wantedAt = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    List<String> untold = new ArrayList<>();
    List<Evidence> wantedEv = new ArrayList<>();
    for (PodFacts.PortGids g : judged) {
      Integer at = GidIndexChoice.firstFitting(g, w);
      if (at != null) {
        wantedPorts.add(g);
        wantedAt.add(at);
        note(wantedEv, g, GidIndexChoice.at(g, at), null);
      } else if (g.gids().stream().anyMatch(w::mayFit)) {
        untold.add(name(g)); // a GID of the family whose type file could not be read: not missing
      } else {
        missing.add(name(g));
        note(wantedEv, g, null, "no " + w.label() + " GID among " + g.gids().size() + " in use");
      }
    }
    TreeSet<Integer> indexes = new TreeSet<>(wantedAt);
    s.put("pod.gidWantedIndexes", indexes.stream().map(String::valueOf).toList(), wantedEv);
    s.put("pod.gidWantedMissing", missing, wantedEv);
    if (indexes.size() == 1) {
      s.put("pod.gidIndexSuggested", String.valueOf(indexes.first()), wantedEv);
    }
    String value = env.get("NCCL_IB_GID_INDEX");
    Integer envIndex = GidIndexChoice.envIndex(value);
    String summary = wantedSummary(w, judged.size(), wantedAt, missing, untold);
    if (envIndex != null) {
      Holding h = holding(wantedPorts, envIndex, w);
      s.put("pod.gidEnvIndexWrong", h.ports(), concat(h.evidence(), envEvidence, wantedEv));
      if (!h.ports().isEmpty()) {
        s.put("pod.gidEnvIndexHolds", h.what(), concat(h.evidence(), envEvidence, wantedEv));
      }
      Holding shown = holding(judged, envIndex, w);
      summary += "; NCCL_IB_GID_INDEX=" + value.strip() + " selects " + (shown.ports().isEmpty()
          ? "it on " + of(judged.size(), judged.size()) : shown.what() + " on " + of(shown.ports().size(), judged.size()));
    } else if (value == null) {
      Holding h = holding(wantedPorts, 0, w);
      s.put("pod.gidDefaultWrong", h.ports(), concat(h.evidence(), wantedEv, List.of()));
      if (!h.ports().isEmpty()) {
        s.put("pod.gidDefaultHolds", h.what(), concat(h.evidence(), wantedEv, List.of()));
      }
      Holding shown = holding(judged, 0, w);
      summary += "; NCCL_IB_GID_INDEX unset: NCCL 2.21+ picks " + autoText(judged, w, env)
          + ", NCCL before 2.21 index 0 (" + (shown.ports().isEmpty() ? "the " + w.label() + " GID" : shown.what()) + ")";
    } else {
      summary += "; NCCL_IB_GID_INDEX=" + value.strip() + ": NCCL 2.21+ picks " + autoText(judged, w, env);
    }
    s.put("pod.gidSummary", summary, wantedEv);
  }

  /** The ports where {@code index} holds no wanted GID, and what it holds there instead. */
  private record Holding(List<String> ports, String what, List<Evidence> evidence) {}

  private static Holding holding(Collection<PodFacts.PortGids> of, int index, GidIndexChoice.Wanted w) {
    Map<String, List<String>> byWhat = new LinkedHashMap<>();
    List<String> ports = new ArrayList<>();
    List<Evidence> ev = new ArrayList<>();
    for (PodFacts.PortGids g : of) {
      PodFacts.Gid e = GidIndexChoice.at(g, index);
      if (w.fits(e) || w.mayFit(e)) {
        continue; // an entry whose type could not be read is not called wrong
      }
      ports.add(name(g));
      byWhat.computeIfAbsent(GidIndexChoice.describe(e), k -> new ArrayList<>()).add(name(g));
      note(ev, g, e, e == null ? "empty slot " + index : null);
    }
    String what = byWhat.size() == 1 ? byWhat.keySet().iterator().next() : String.join(", ",
        byWhat.entrySet().stream().map(x -> x.getKey() + " (" + String.join(", ", x.getValue()) + ")").toList());
    return new Holding(ports, what, ev);
  }

  private static String wantedSummary(GidIndexChoice.Wanted w, int judged, List<Integer> at,
      List<String> missing, List<String> untold) {
    List<String> parts = new ArrayList<>();
    if (!at.isEmpty()) {
      parts.add(w.label() + " GID at index " + String.join(" or ", new TreeSet<>(at).stream()
          .map(String::valueOf).toList()) + " on " + of(at.size(), judged) + roce(judged));
    }
    if (missing.size() == judged) {
      parts.add("no " + w.label() + " GID on " + (judged == 1 ? "the one RoCE port" : "any of the " + judged + " RoCE ports"));
    } else if (!missing.isEmpty()) {
      parts.add((at.isEmpty() ? "no " + w.label() + " GID" : "none") + " on " + String.join(", ", missing));
    }
    if (!untold.isEmpty()) {
      parts.add("GID type unreadable on " + String.join(", ", untold));
    }
    return String.join(", ", parts);
  }

  private static String autoText(List<PodFacts.PortGids> judged, GidIndexChoice.Wanted w, Map<String, String> env) {
    boolean range = env.get("NCCL_IB_ADDR_RANGE") != null && !env.get("NCCL_IB_ADDR_RANGE").isEmpty();
    Map<Integer, Integer> counts = new java.util.TreeMap<>();
    int unknown = 0;
    for (PodFacts.PortGids g : judged) {
      Optional<Integer> a = GidIndexChoice.auto(g, w, range);
      if (a.isPresent()) {
        counts.merge(a.get(), 1, Integer::sum);
      } else {
        unknown++;
      }
    }
    if (counts.isEmpty()) {
      return range ? "within NCCL_IB_ADDR_RANGE (not predicted)" : "an index that cannot be told (a GID type unreadable)";
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((i, n) -> parts.add("index " + i + " on " + of(n, judged.size())));
    return String.join(", ", parts) + (unknown > 0 ? ", unknown on " + unknown : "");
  }

  /**
   * The variables NCCL's choice depends on, as the other rules see them: what the log says NCCL
   * was set to where there is a log, else the environment of the Pod's process.
   */
  private static Map<String, String> env(FactSet s, PodFacts p) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String name : NAMES) {
      String v = s.get("env." + name).map(x -> String.valueOf(x.value())).orElse(p.env().get(name));
      if (v != null) {
        out.put(name, v);
      }
    }
    return out;
  }

  /** The RoCE ports of the usable HCAs NCCL would use whose table could be read. */
  private static List<PodFacts.PortGids> judged(PodFacts p, String ibHca) {
    NcclNameFilter filter = ibHca == null || ibHca.isBlank() ? null : NcclNameFilter.parse(ibHca);
    List<PodFacts.PortGids> out = new ArrayList<>();
    for (PodFacts.PortGids g : p.gids().ports()) {
      boolean active = p.hcas().ports().stream().anyMatch(x -> x.hca().equals(g.hca()) && x.port() != null
          && x.port() == g.port() && (x.state() == null || x.state().equals("ACTIVE")));
      if (!g.source().equals("unreadable") && active && (filter == null || filter.selects(g.hca()))) {
        out.add(g);
      }
    }
    return out;
  }

  private static String name(PodFacts.PortGids g) {
    return g.hca() + "/" + g.port();
  }

  private static String of(int n, int total) {
    return n == total ? (total == 1 ? "the one" : "all " + total) : n + " of " + total;
  }

  private static String roce(int total) {
    return total == 1 ? " RoCE port" : " RoCE ports";
  }

  /** Evidence of one entry: its sysfs file (or show_gids) with the GID, its type and netdev. */
  private static void note(List<Evidence> out, PodFacts.PortGids g, PodFacts.Gid e, String text) {
    if (out.size() >= 2) {
      return;
    }
    String base = "/sys/class/infiniband/" + g.hca() + "/ports/" + g.port() + "/gids";
    boolean sysfs = g.source().equals("sysfs");
    if (e == null) {
      out.add(new Evidence(sysfs ? base : "show_gids", 0, g.hca() + " port " + g.port() + ": " + text));
      return;
    }
    // the type first: a narrow terminal cuts the line's end
    String line = (e.version() == null ? "type unreadable" : "RoCE v" + e.version())
        + (e.netdev() == null ? "" : ", " + e.netdev()) + ", " + e.gid();
    out.add(sysfs ? new Evidence(base + "/" + e.index(), 0, line)
        : new Evidence("show_gids", 0, g.hca() + " " + g.port() + " " + e.index() + ": " + line));
  }

  @SafeVarargs
  private static List<Evidence> concat(List<Evidence>... lists) {
    List<Evidence> out = new ArrayList<>();
    for (List<Evidence> l : lists) {
      l.stream().filter(e -> !out.contains(e) && out.size() < 4).forEach(out::add);
    }
    return out;
  }
}
