package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The parser alone on hostile lines made in memory (src/bench/bench-cliffs.sh; not a test): for each
 * row of a words file ({@code key TAB unit TAB end}, written by gen-cliffs.py), lines of the unit
 * repeated (whole units) and then {@code end}, at each of {@link #LENGTHS} bytes, {@code kib} KiB of
 * them, read by one thread, the best of {@code runs} passes in the thread's CPU time. Prints one
 * row per key and length, as {@link KindsBench} does: {@code key-LLLLL MB MB/s ns/line}.
 */
public final class CliffsBench {
  static final int[] LENGTHS = {1000, 4000, 15000, 60000};

  private CliffsBench() {}

  /** kib KiB of lines of unit, whole units to about length bytes, then end. */
  static byte[] lines(String unit, String end, int length, int kib) {
    String line = unit.repeat(Math.max(1, (length - end.length()) / unit.length())) + end + "\n";
    byte[] one = line.getBytes(StandardCharsets.UTF_8);
    int n = Math.max(1, (kib << 10) / one.length);
    byte[] all = new byte[n * one.length];
    for (int i = 0; i < n; i++) {
      System.arraycopy(one, 0, all, i * one.length, one.length);
    }
    return all;
  }

  public static void main(String[] args) throws Exception {
    int runs = Integer.getInteger("runs", 3);
    int kib = Integer.getInteger("kib", 1024);
    List<String> rows = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    // the first rows read while C1 compiles the parser: read them once untimed
    for (String row : rows.subList(0, Math.min(32, rows.size()))) {
      String[] f = row.split("\t", -1);
      for (int length : LENGTHS) {
        KindsBench.pass(lines(f[1], f[2], length, kib));
      }
    }
    System.out.printf("%-16s %8s %10s %9s%n", "kind", "MB", "MB/s cpu", "ns/line");
    for (String row : rows) {
      String[] f = row.split("\t", -1);
      for (int length : LENGTHS) {
        byte[] data = lines(f[1], f[2], length, kib);
        long best = Long.MAX_VALUE;
        long lines = 0;
        for (int i = 0; i < runs; i++) {
          long[] r = KindsBench.pass(data);
          best = Math.min(best, r[0]);
          lines = r[1];
        }
        System.out.printf("%-16s %8.1f %10.1f %9.0f%n", String.format("%s-%05d", f[0], length), data.length / 1e6,
            data.length / 1e3 / (best / 1e6), (double) best / Math.max(1, lines));
      }
    }
  }
}
