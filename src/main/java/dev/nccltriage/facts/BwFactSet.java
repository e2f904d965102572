package dev.nccltriage.facts;

import dev.nccltriage.source.bw.BwRun;
import java.util.List;

/**
 * Flattens a {@link BwRun} (plus the HCA count and rate, when known) into {@code bw.*} facts, added
 * to {@code into} (empty, or the facts of a companion NCCL log).
 */
public final class BwFactSet {
  /** Sizes at or above this count as large messages. */
  public static final long LARGE = BwRun.LARGE;

  private BwFactSet() {}

  public static FactSet from(BwRun run, Integer hcas, Double rateGbps, FactSet into) {
    FactSet s = into == null ? new FactSet() : into;
    s.put("bw.collective", run.collective(), List.of());
    s.put("bw.rows", run.all().count(), List.of());
    if (run.ranks() > 0) {
      s.put("bw.ranks", run.ranks(), List.of());
      s.put("bw.nodes", run.allHosts() ? (Long) (long) run.hosts().size() : null, List.of());
      s.put("bw.singleNode", run.allHosts() && run.hosts().size() == 1, List.of());
    } else if (into != null && into.get("job.singleNode").isPresent()) {
      s.put("bw.singleNode", into.get("job.singleNode").get().value(), into.get("job.singleNode").get().evidence());
    }
    s.put("bw.avgBusbw", run.avgBusbw(), List.of());
    boolean wrong = run.all().wrong() || run.outOfBounds() != null && run.outOfBounds() > 0;
    s.put("bw.wrong", wrong, List.of());
    if (run.all().count() == 0) {
      return s;
    }
    s.put("bw.maxBytes", run.maxBytes(), List.of());
    Double busbw = largeMessageBusbw(run);
    s.put("bw.busbw", busbw, List.of());
    s.put("bw.peakBusbw", run.all().peak(), List.of());
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
    BwRun.Rows all = run.all();
    return all.large() == 0 ? all.peak() : Math.round(all.largeSum() / all.large() * 100) / 100.0;
  }

  public static String busbwBasis(BwRun run) {
    long n = run.all().large();
    return n == 0 ? "maximum over all sizes (none reaches 256 MB)" : "mean of the " + n + " size(s) >= 256 MB";
  }
}
