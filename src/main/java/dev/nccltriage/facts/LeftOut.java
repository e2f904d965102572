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
 * cap; {@code linesCut}: lines longer than the reader's line limit, read only up to it (a file
 * without line feeds is one such line, whatever it holds).
 */
public record LeftOut(long hosts, boolean hostsSampled, int hostsKept, int nodesListed, int differsFound,
    int differsListed, boolean processesFolded, int processesKept, Map<String, Long> linesNotKept,
    long linesCut) {

  public LeftOut {
    // in name order, so that the JSON is stable
    linesNotKept = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(linesNotKept));
  }

  /** One sentence for a person: "16384 hosts: the first 64 are listed by node." */
  public String summary() {
    java.util.List<String> parts = new java.util.ArrayList<>();
    if (hostsSampled) {
      parts.add("about " + hosts + " hosts: a sample of " + hostsKept + " is told apart (the others' lines count as"
          + " lines without a host, and a node among them that differs is not named); the first " + nodesListed
          + " are listed by node");
    } else if (hosts > nodesListed) {
      parts.add(hosts + " hosts; the first " + nodesListed + " are listed by node");
    }
    if (linesCut > 0) {
      parts.add(linesCut + (linesCut == 1 ? " line was" : " lines were") + " longer than the line limit and read"
          + " only up to it (a file whose lines end in a carriage return alone has no line feed: `tr '\\r' '\\n'`"
          + " makes lines of it)");
    }
    if (differsFound > differsListed) {
      parts.add(differsListed + " of " + differsFound + " node differences listed");
    }
    if (processesFolded) {
      parts.add("past " + processesKept
          + " processes a host's further processes count as one (process counts per node are approximate)");
    }
    if (!linesNotKept.isEmpty()) {
      StringBuilder lines = new StringBuilder();
      linesNotKept.forEach((k, v) -> lines.append(lines.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
      parts.add("values past a cap (a real job prints a few) were not kept, lines: " + lines);
    }
    return String.join("; ", parts) + ".";
  }
}
