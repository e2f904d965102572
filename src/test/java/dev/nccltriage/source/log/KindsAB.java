package dev.nccltriage.source.log;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Two builds of the parser on each file given, in one JVM, one thread: {@code -Dbase=DIR} and
 * {@code -Dbuild=DIR} (each a {@code target/classes}), each round one pass of each back to back,
 * the order alternating. Prints the median of the per-round ratios and its quartiles: this VM's
 * host changes speed by up to 2x for seconds at a time, so the best pass of each build, timed
 * apart, differs by ±25% between identical runs, while the ratio within a round holds to a few
 * percent. Not a test; see src/bench/README.md.
 *
 * <pre>mvn -q -o test-compile
 * java -XX:TieredStopAtLevel=1 -Dbase=/tmp/base/target/classes -Dbuild=target/classes \
 *   -cp target/test-classes dev.nccltriage.source.log.KindsAB bench-out/kinds/*-30m.log</pre>
 */
public final class KindsAB {
  private KindsAB() {}

  public static void main(String[] args) throws Exception {
    int rounds = Integer.getInteger("rounds", 15);
    Path tests = Path.of(KindsAB.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Method[] pass = {pass(tests, System.getProperty("base")), pass(tests, System.getProperty("build"))};
    System.out.printf("%-24s %10s %10s %9s  %s%n", "file", "base MB/s", "build MB/s", "median", "quartiles (build vs base)");
    for (String f : args) {
      byte[] data = Files.readAllBytes(Path.of(f));
      double[] ratio = new double[rounds];
      long[] best = {Long.MAX_VALUE, Long.MAX_VALUE};
      for (int r = 0; r < rounds; r++) {
        long[] t = new long[2];
        for (int k = 0; k < 2; k++) {
          int side = (k + r) % 2;
          t[side] = ((long[]) pass[side].invoke(null, (Object) data))[0];
          best[side] = Math.min(best[side], t[side]);
        }
        ratio[r] = (double) t[0] / t[1]; // above 1: the build is faster
      }
      Arrays.sort(ratio);
      System.out.printf("%-24s %10.1f %10.1f %+8.0f%%  %+.0f%%..%+.0f%%%n", Path.of(f).getFileName(),
          data.length / 1e3 / (best[0] / 1e6), data.length / 1e3 / (best[1] / 1e6), (ratio[rounds / 2] - 1) * 100,
          (ratio[rounds / 4] - 1) * 100, (ratio[3 * rounds / 4] - 1) * 100);
    }
  }

  /** KindsBench.pass of the parser in {@code classes}, loaded apart from the other build's. */
  private static Method pass(Path tests, String classes) throws Exception {
    if (classes == null) {
      throw new IllegalArgumentException("set -Dbase=DIR and -Dbuild=DIR (each a target/classes)");
    }
    URL[] urls = {Path.of(classes).toUri().toURL(), tests.toUri().toURL()};
    ClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
    return loader.loadClass(KindsBench.class.getName()).getMethod("pass", byte[].class);
  }
}
