package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.DEFAULT_MAX_LINE;

import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shape of `bench-log.sh --real`, small: every real log, concatenated and repeated, so that
 * the parser's memos of repeated texts carry from one copy to the next and parts start anywhere.
 * Two threads over small parts must give exactly one thread's facts.
 */
class RealLogsDifferentialTest {
  @TempDir Path dir;

  @Test
  void twoThreadsOverPartsEqualOneThread() throws Exception {
    byte[] one = Logs.allLogsConcatenated();
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int i = 0; i < 4; i++) {
      b.write(one);
    }
    Path file = Files.write(dir.resolve("real.log"), b.toByteArray());
    LogFacts serial = Logs.parseFile(file, 1, DEFAULT_MAX_LINE, Long.MAX_VALUE);
    LogFacts parallel = Logs.parseFile(file, 2, DEFAULT_MAX_LINE, 200_000);
    ParallelChunksTest.assertSameFacts(parallel, serial, "real logs x4, 2 threads vs 1");
  }
}
