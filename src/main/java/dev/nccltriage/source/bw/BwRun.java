package dev.nccltriage.source.bw;

import java.util.List;

/**
 * One nccl-tests run as printed on stdout (spec §12): header, size rows, footer. Unknown values
 * are null.
 *
 * @param ranks the {@code # Rank N ... on HOST} lines
 * @param hosts their distinct hosts in order, at most {@link NcclTestsParser#MAX_HOSTS}
 * @param allHosts false when more distinct hosts than that were seen (the count is then unknown)
 * @param collective e.g. {@code all_reduce}; null when neither the preamble, the file name nor the
 *     columns tell
 * @param collectiveFrom where the name came from: preamble, file, columns
 * @param generation column layout: {@code <=2.11} (no root), {@code 2.13+}
 */
public record BwRun(String collective, String collectiveFrom, String testsVersion, Integer nThread,
    Integer nGpus, long ranks, List<String> hosts, boolean allHosts, List<Row> rows, Rows all, Double avgBusbw,
    Long outOfBounds, String generation, long ncclLines) {
  /** Sizes at or above this count as large messages. */
  public static final long LARGE = 256L << 20;

  /**
   * What every size row of the output adds up to, kept as the rows are read: {@code rows} holds only the
   * first {@link NcclTestsParser#MAX_ROWS}, so a huge output (runs pasted one after another) stays
   * bounded while these stay exact.
   *
   * @param large rows of at least {@link #LARGE} bytes, {@code largeSum} their busbw summed in order
   */
  public record Rows(long count, long large, double largeSum, double peak, long maxBytes, boolean wrong) {}

  /** A size row: the out-of-place and in-place groups. */
  public record Row(long bytes, long count, String type, String redop, Integer root, Group outOfPlace,
      Group inPlace) {
    /** The better busbw of the two groups. */
    public double busbw() {
      return Math.max(outOfPlace.busbw(), inPlace == null ? 0 : inPlace.busbw());
    }

    /** #wrong over both groups; null when validation was off (N/A) or the column is error (≤2.11). */
    public Long wrong() {
      if (outOfPlace.wrong() == null && (inPlace == null || inPlace.wrong() == null)) {
        return null;
      }
      long w = outOfPlace.wrong() == null ? 0 : outOfPlace.wrong();
      return w + (inPlace == null || inPlace.wrong() == null ? 0 : inPlace.wrong());
    }
  }

  /** time (µs), algbw and busbw (GB/s), #wrong (null: N/A or an error column). */
  public record Group(double timeUs, double algbw, double busbw, Long wrong) {}

  public long maxBytes() {
    return all.maxBytes();
  }
}
