package dev.nccltriage.source.log;

import dev.nccltriage.cli.Context;
import dev.nccltriage.cli.NcclTriage;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

/**
 * {@code log -o json} run again and again in one JVM, each argument one run: {@code THREADS:FILE},
 * printing each run's wall time and the process's CPU time it took. Runs after the first are warm,
 * so alternating {@code 1:F 2:F 1:F 2:F ...} shows what a second parser thread costs in CPU beyond
 * the JIT's warm-up (session 25: 5-14% on real content). Not a test; see src/bench/README.md.
 *
 * <pre>mvn -q -o test-compile
 * java -XX:+UseSerialGC -Xmx256m -Xmn150m -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 \
 *   -cp target/test-classes:target/nccl-triage.jar dev.nccltriage.source.log.ThreadsCpu \
 *   1:bench-out/real-1024m.log 2:bench-out/real-1024m.log 1:bench-out/real-1024m.log 2:bench-out/real-1024m.log</pre>
 */
public final class ThreadsCpu {
  private ThreadsCpu() {}

  public static void main(String[] args) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
    for (String run : args) {
      int colon = run.indexOf(':');
      if (colon <= 0) {
        System.err.println("ThreadsCpu: each argument is THREADS:FILE (got '" + run + "')");
        System.exit(2);
      }
      String threads = run.substring(0, colon);
      String file = run.substring(colon + 1);
      Context ctx = new Context(InputStream.nullInputStream(), discard, discard, System.getenv(),
          Path.of("").toAbsolutePath(), false);
      long cpu = os.getProcessCpuTime();
      long wall = System.nanoTime();
      int rc = NcclTriage.mainWithoutExit(ctx, "log", "-o", "json", "--threads", threads, file);
      System.out.printf("threads=%s exit=%d wall %.3f s cpu %.3f s%n", threads, rc,
          (System.nanoTime() - wall) / 1e9, (os.getProcessCpuTime() - cpu) / 1e9);
    }
  }
}
