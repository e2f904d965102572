package dev.nccltriage.source.log;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Two glued lines put the tail of one line in front of the next host name ("...nvmlDev 1
 * nvmhost-a:12:12"). A host seen only in such positions that ends with a real host name of the
 * same pid is that host: the first such process in table order that is not itself from a glued
 * line. Found by pid, so that a log of thousands of glued lines does not compare every pair of
 * processes (32000 took 17 s); past {@link #SCAN} processes of one pid, by the glued name's suffixes.
 */
final class GluedHosts {
  private static final int SCAN = 64;

  private final Map<Long, List<ProcessState>> byPid = new HashMap<>();
  private final Map<ProcessState, Integer> order = new java.util.IdentityHashMap<>();
  private final Map<Long, Map<String, ProcessState>> byName = new HashMap<>();

  GluedHosts(List<ProcessState> all) {
    for (int i = 0; i < all.size(); i++) {
      ProcessState q = all.get(i);
      if (!q.hostFromGluedLine && q.host != null) {
        byPid.computeIfAbsent(q.pid, k -> new ArrayList<>()).add(q);
        order.put(q, i);
      }
    }
  }

  /** The processes with each glued host merged into its real host's process. */
  static List<ProcessState> resolve(List<ProcessState> all) {
    GluedHosts reals = null; // indexed at the first glued host: most logs have none
    List<ProcessState> out = new ArrayList<>();
    for (ProcessState p : all) {
      if (p.hostFromGluedLine && p.host != null) {
        if (reals == null) {
          reals = new GluedHosts(all);
        }
        ProcessState real = reals.of(p);
        if (real != null) {
          real.merge(p);
          if (p.evidence != real.evidence) {
            real.evidence.addAll(p.evidence, 0);
          }
          continue;
        }
      }
      out.add(p);
    }
    return out;
  }

  /** The real host's process of {@code p} (a process from a glued line), or null. */
  ProcessState of(ProcessState p) {
    List<ProcessState> same = byPid.get(p.pid);
    if (same == null) {
      return null;
    }
    if (same.size() <= SCAN) {
      for (ProcessState q : same) {
        if (p.host.endsWith(q.host)) {
          return q;
        }
      }
      return null;
    }
    Map<String, ProcessState> names = byName.computeIfAbsent(p.pid, k -> {
      Map<String, ProcessState> m = new HashMap<>();
      for (ProcessState q : same) {
        m.putIfAbsent(q.host, q);
      }
      return m;
    });
    ProcessState first = null;
    for (int i = 0; i <= p.host.length(); i++) {
      ProcessState q = names.get(p.host.substring(i));
      if (q != null && (first == null || order.get(q) < order.get(first))) {
        first = q;
      }
    }
    return first;
  }
}
