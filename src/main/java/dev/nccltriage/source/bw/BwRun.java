package dev.nccltriage.source.bw;

import java.util.List;

/**
 * One nccl-tests run as printed on stdout (spec §12): header, size rows, footer. Unknown values
 * are null.
 *
 * @param collective e.g. {@code all_reduce}; null when neither the preamble, the file name nor the
 *     columns tell
 * @param collectiveFrom where the name came from: preamble, file, columns
 * @param generation column layout: {@code <=2.11} (no root), {@code 2.13+}
 */
public record BwRun(String collective, String collectiveFrom, String testsVersion, Integer nThread,
    Integer nGpus, List<Rank> ranks, List<Row> rows, Double avgBusbw, Long outOfBounds, String generation,
    long ncclLines) {

  /** A {@code # Rank N [Group G] Pid P on HOST device D} line. */
  public record Rank(int rank, long pid, String host, int device) {}

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

  public List<String> hosts() {
    return ranks.stream().map(Rank::host).distinct().toList();
  }

  public long maxBytes() {
    return rows.stream().mapToLong(Row::bytes).max().orElse(0);
  }
}
