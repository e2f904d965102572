package dev.nccltriage.report;

import java.util.List;

/**
 * What {@code nccl-triage bw} read and concluded. Bandwidths in GB/s (1e9 bytes/s); {@code
 * hypothesis} is one of healthy, socket-fallback, no-gdr-or-few-nics, single-node, too-small,
 * unknown; {@code confirmedBy} is the cause a companion log decided (socket, few-nics, no-gdr) or
 * null; {@code rule} is the bw.yaml rule that named the hypothesis.
 */
public record BwSection(String collective, String collectiveFrom, String generation, Integer ranks,
    Integer nodes, List<String> hosts, Double busbw, String busbwBasis, Double peakBusbw, Double avgBusbw,
    Double expected, Integer hcas, Double rateGbps, Double ratio, String hypothesis, String confirmedBy,
    String rule, boolean wrong, long maxBytes, List<Size> sizes) {

  /** One size row: busbw out-of-place and in-place, #wrong summed (null: N/A or not printed). */
  public record Size(long bytes, String type, double busbwOutOfPlace, Double busbwInPlace, Long wrong) {}
}
