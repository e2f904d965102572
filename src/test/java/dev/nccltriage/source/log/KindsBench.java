package dev.nccltriage.source.log;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The parser alone on each file given, in memory, one thread, warm: the best of {@code runs}
 * passes, timed in the thread's CPU time (robust on a shared machine). Run by
 * src/bench/bench-kinds.sh (BENCH_MODE=inproc); not a test.
 */
public final class KindsBench {
  private KindsBench() {}

  /** One pass of the parser over {@code data} on this thread: its CPU nanoseconds and lines. */
  public static long[] pass(byte[] data) throws java.io.IOException {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    LogAccumulator acc = new LogAccumulator();
    LogParser parser = new LogParser(acc, "bench");
    long t0 = mx.getCurrentThreadCpuTime();
    new LineReader(LineReader.DEFAULT_MAX_LINE).read(new ByteArrayInputStream(data), data.length, parser);
    return new long[] {mx.getCurrentThreadCpuTime() - t0, acc.lines};
  }

  public static void main(String[] args) throws Exception {
    int runs = Integer.getInteger("runs", 5);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    System.out.printf("%-16s %8s %10s %9s%n", "kind", "MB", "MB/s cpu", "ns/line");
    for (String f : args) {
      byte[] data = Files.readAllBytes(Path.of(f));
      long best = Long.MAX_VALUE;
      long lines = 0;
      LineReader reader = new LineReader(LineReader.DEFAULT_MAX_LINE);
      for (int i = 0; i < runs; i++) {
        LogAccumulator acc = new LogAccumulator();
        LogParser parser = new LogParser(acc, f);
        long t0 = mx.getCurrentThreadCpuTime();
        reader.read(new ByteArrayInputStream(data), data.length, parser);
        best = Math.min(best, mx.getCurrentThreadCpuTime() - t0);
        lines = acc.lines;
      }
      String kind = Path.of(f).getFileName().toString().replaceAll("(-\\d+m)?\\.log$", "");
      System.out.printf("%-16s %8.1f %10.1f %9.0f%n", kind, data.length / 1e6, data.length / 1e3 / (best / 1e6),
          (double) best / Math.max(1, lines));
    }
  }
}
