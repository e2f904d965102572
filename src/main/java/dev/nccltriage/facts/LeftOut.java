package dev.nccltriage.facts;

import java.util.Map;

/**
 * What the facts of a large log leave out, so that a report can say so: memory is bounded by
 * design, and a larger log keeps less detail, never fails. {@code hosts}: the hosts the log
 * shows (estimated from the sample when {@code hostsSampled}); {@code hostsKept}: those told
 * apart; {@code nodesListed}: the per-node entries a report lists; {@code differsFound} and
 * {@code differsListed}: nodes that differ from the majority (by aspect), found and listed;
 * {@code processesFolded}: past {@code processesKept} processes, a host's further processes were
 * counted as one, so per-node process counts are approximate; {@code linesNotKept}: by collection,
 * the lines whose value (a version, an env setting, an error detail...) was past the collection's
 * cap.
 */
public record LeftOut(long hosts, boolean hostsSampled, int hostsKept, int nodesListed, int differsFound,
    int differsListed, boolean processesFolded, int processesKept, Map<String, Long> linesNotKept) {

  public LeftOut {
    // in name order, so that the JSON is stable
    linesNotKept = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(linesNotKept));
  }

  /** One sentence for a person: "16384 hosts: the first 64 are listed by node." */
  public String summary() {
    StringBuilder s = new StringBuilder();
    if (hostsSampled) {
      s.append("about ").append(hosts).append(" hosts: a sample of ").append(hostsKept)
          .append(" is told apart (the others' lines count as lines without a host, and a node among them that"
              + " differs is not named)");
    } else {
      s.append(hosts).append(" hosts");
    }
    s.append("; the first ").append(nodesListed).append(" are listed by node");
    if (differsFound > differsListed) {
      s.append("; ").append(differsListed).append(" of ").append(differsFound).append(" node differences listed");
    }
    if (processesFolded) {
      s.append("; past ").append(processesKept)
          .append(" processes a host's further processes count as one (process counts per node are approximate)");
    }
    if (!linesNotKept.isEmpty()) {
      s.append("; values past a cap (a real job prints a few) were not kept, lines: ");
      StringBuilder parts = new StringBuilder();
      linesNotKept.forEach((k, v) -> parts.append(parts.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
      s.append(parts);
    }
    return s.append('.').toString();
  }
}
