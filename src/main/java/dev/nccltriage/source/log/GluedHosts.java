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
 *
 * <p>A host name may also have lost its first digits: glued after a channel line ("...via
 * NET/Socket/09b7e03d5c1a8:29:29"), the channel parser takes every digit for the device's index,
 * and the name read after them is a container id without its leading digits. A real host name whose
 * leading digits cut off leave the glued one is then that host, as one that ends it is.
 *
 * <p>A process all of whose lines came glued has no real process of its pid: its host is then the
 * real host name that gives it so (the longest that ends it; a host's other processes name it),
 * and it stays a process of its own, of that host. A glued name no real host gives stays as it is.
 */
final class GluedHosts {
  private static final int SCAN = 64;

  private final Map<Long, List<ProcessState>> byPid = new HashMap<>();
  private final Map<ProcessState, Integer> order = new java.util.IdentityHashMap<>();
  private final Map<Long, Map<String, ProcessState>> byName = new HashMap<>();
  private final Map<Long, Map<String, ProcessState>> byNameLostDigits = new HashMap<>();
  private final Map<String, HostEvidence> realHosts = new HashMap<>();
  private final Map<String, HostEvidence> realHostsLostDigits = new HashMap<>();
  private final Map<String, ProcessState> renamed = new HashMap<>(); // by real host and pid

  GluedHosts(List<ProcessState> all) {
    for (int i = 0; i < all.size(); i++) {
      ProcessState q = all.get(i);
      if (!q.hostOnlyAfterOtherBytes && q.host != null) {
        byPid.computeIfAbsent(q.pid, k -> new ArrayList<>()).add(q);
        order.put(q, i);
        realHosts.putIfAbsent(q.host, q.evidence);
        realHostsLostDigits.putIfAbsent(lostDigits(q.host), q.evidence);
      }
    }
    // a process first met glued but under its host's exact name ("...<0>node-b:7:7") is that
    // host's: other glued names of its pid that resolve to the host join it, not a copy of it
    for (ProcessState q : all) {
      if (q.hostOnlyAfterOtherBytes && q.host != null && realHosts.containsKey(q.host)) {
        renamed.putIfAbsent(q.host + "\0" + q.pid, q);
      }
    }
  }

  /** The processes with each glued host merged into its real host's process. */
  static List<ProcessState> resolve(List<ProcessState> all) {
    GluedHosts reals = null; // indexed at the first glued host: most logs have none
    List<ProcessState> out = new ArrayList<>();
    for (ProcessState p : all) {
      if (p.hostOnlyAfterOtherBytes && p.host != null) {
        if (reals == null) {
          reals = new GluedHosts(all);
        }
        ProcessState real = reals.of(p);
        if (real == null && reals.renamed.get(p.host + "\0" + p.pid) == p) {
          out.add(p); // its name is a real host's already
          continue;
        }
        if (real == null) {
          real = reals.ofHost(p, out);
        }
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

  /**
   * For {@code p} (from a glued line) that no real process of its pid ends: its process under the
   * longest real host name that ends its own, made the first time and added to {@code out}; null if
   * no real host name ends it.
   */
  private ProcessState ofHost(ProcessState p, List<ProcessState> out) {
    HostEvidence host = realHostsLostDigits.get(p.host);
    for (int i = 1; host == null && i < p.host.length(); i++) {
      host = realHosts.get(p.host.substring(i));
    }
    if (host == null) {
      return null;
    }
    HostEvidence real = host;
    return renamed.computeIfAbsent(real.name + "\0" + p.pid, k -> {
      ProcessState q = new ProcessState(p.pid, false, real);
      out.add(q);
      return q;
    });
  }

  /** {@code host} without its leading digits (itself when it has none). */
  static String lostDigits(String host) {
    int i = 0;
    while (i < host.length() && host.charAt(i) >= '0' && host.charAt(i) <= '9') {
      i++;
    }
    return host.substring(i);
  }

  /** The real host's process of {@code p} (a process from a glued line), or null. */
  ProcessState of(ProcessState p) {
    List<ProcessState> same = byPid.get(p.pid);
    if (same == null) {
      return null;
    }
    if (same.size() <= SCAN) {
      for (ProcessState q : same) {
        if (p.host.endsWith(q.host) || p.host.equals(lostDigits(q.host))) {
          return q;
        }
      }
      return null;
    }
    Map<String, ProcessState> names = byName.computeIfAbsent(p.pid, k -> byKey(same, false));
    ProcessState first = byNameLostDigits.computeIfAbsent(p.pid, k -> byKey(same, true)).get(p.host);
    for (int i = 0; i <= p.host.length(); i++) {
      ProcessState q = names.get(p.host.substring(i));
      if (q != null && (first == null || order.get(q) < order.get(first))) {
        first = q;
      }
    }
    return first;
  }

  /** The first process (in table order) of each host name, or of each name without its leading digits. */
  private static Map<String, ProcessState> byKey(List<ProcessState> same, boolean lostDigits) {
    Map<String, ProcessState> m = new HashMap<>();
    for (ProcessState q : same) {
      m.putIfAbsent(lostDigits ? lostDigits(q.host) : q.host, q);
    }
    return m;
  }
}
