package dev.nccltriage.facts;

import dev.nccltriage.source.bw.BwRun;
import java.util.List;

/**
 * Flattens a {@link BwRun} (plus the HCA count and rate, when known) into {@code bw.*} facts, added
 * to {@code into} (empty, or the facts of a companion NCCL log).
 */
public final class BwFactSet {
  /** Sizes at or above this count as large messages. */
  public static final long LARGE = 256L << 20;

  private BwFactSet() {}

  public static FactSet from(BwRun run, Integer hcas, Double rateGbps, FactSet into) {
    FactSet s = into == null ? new FactSet() : into;
    s.put("bw.collective", run.collective(), List.of());
    s.put("bw.rows", (long) run.rows().size(), List.of());
    if (!run.ranks().isEmpty()) {
      s.put("bw.ranks", (long) run.ranks().size(), List.of());
      s.put("bw.nodes", (long) run.hosts().size(), List.of());
      s.put("bw.singleNode", run.hosts().size() == 1, List.of());
    } else if (into != null && into.get("job.singleNode").isPresent()) {
      s.put("bw.singleNode", into.get("job.singleNode").get().value(), into.get("job.singleNode").get().evidence());
    }
    s.put("bw.avgBusbw", run.avgBusbw(), List.of());
    boolean wrong = run.rows().stream().anyMatch(r -> r.wrong() != null && r.wrong() > 0)
        || run.outOfBounds() != null && run.outOfBounds() > 0;
    s.put("bw.wrong", wrong, List.of());
    if (run.rows().isEmpty()) {
      return s;
    }
    s.put("bw.maxBytes", run.maxBytes(), List.of());
    Double busbw = largeMessageBusbw(run);
    s.put("bw.busbw", busbw, List.of());
    s.put("bw.peakBusbw", run.rows().stream().mapToDouble(BwRun.Row::busbw).max().orElse(0), List.of());
    Integer ports = hcas;
    if (ports == null && into != null) {
      ports = into.get("ib.hcaPortsMin").map(v -> ((Number) v.value()).intValue()).orElse(null);
    }
    s.put("bw.hcas", ports == null ? null : (long) ports, List.of());
    s.put("bw.rateGbps", rateGbps, List.of());
    if (ports != null && ports > 0 && rateGbps != null && rateGbps > 0) {
      double expected = ports * rateGbps / 8;
      s.put("bw.expected", expected, List.of());
      s.put("bw.ratio", Math.round(busbw / expected * 1000) / 1000.0, List.of());
    }
    return s;
  }

  /** Mean over the sizes ≥ 256 MB of each row's better busbw; the maximum when none is that large. */
  public static double largeMessageBusbw(BwRun run) {
    var large = run.rows().stream().filter(r -> r.bytes() >= LARGE).mapToDouble(BwRun.Row::busbw).toArray();
    if (large.length == 0) {
      return run.rows().stream().mapToDouble(BwRun.Row::busbw).max().orElse(0);
    }
    double sum = 0;
    for (double d : large) {
      sum += d;
    }
    return Math.round(sum / large.length * 100) / 100.0;
  }

  public static String busbwBasis(BwRun run) {
    long n = run.rows().stream().filter(r -> r.bytes() >= LARGE).count();
    return n == 0 ? "maximum over all sizes (none reaches 256 MB)" : "mean of the " + n + " size(s) >= 256 MB";
  }
}
