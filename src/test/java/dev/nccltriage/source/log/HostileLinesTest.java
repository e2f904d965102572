package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Lines made of what the parser looks for, over and over, read in time linear in their length
 * (what a check asks after each occurrence is kept for the line), and read as lines of one such
 * occurrence are. The time limits are hang guards, far above what the reading takes (milliseconds):
 * before, such lines took 0.1-0.6 s each (`src/bench/bench-cliffs.sh` measures the rates).
 */
class HostileLinesTest {
  private static final int LINE = 60_000;

  private static LogAccumulator parse(String log) throws Exception {
    return LogLines.accumulate(log);
  }

  private static String line(String unit, String tail) {
    return unit.repeat((LINE - tail.length()) / unit.length()) + tail + "\n";
  }

  @Test
  void aLineOfExceptionNamesAsksForTheirTextsOnceAndStillFindsTheLast() {
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      // no NCCL text after any name: no failure; one at the very end: the line is one
      for (String unit : new String[] {"Error: ", "Error:", "RuntimeError: ", "XlaRuntimeError: ", "x.Error: "}) {
        LogAccumulator none = parse(line(unit, "done").repeat(30));
        assertThat(none.failures.count()).as(unit).isZero();
        LogAccumulator last = parse(line(unit, "unhandled system error").repeat(30));
        assertThat(last.failures.count()).as(unit).isEqualTo(30);
      }
      LogAccumulator runtime = parse(line("RuntimeError: ", "NCCL communicator was aborted").repeat(30));
      assertThat(runtime.failures.count()).isEqualTo(30);
      // between "NCCL " tokens that are no envelope: the line's crash search goes on after each
      LogAccumulator chained = parse(line("NCCL Error: ", "(run with NCCL_DEBUG=INFO for details)").repeat(30));
      assertThat(chained.failures.count()).isEqualTo(30);
    });
  }

  @Test
  void aReportAfterThousandsOfWrappersReadsEachWrapperOnce() {
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      // a report at the line's end ("Killed") after what may be wrappers: the known ones right
      // before it are cut off the wrapper that is kept; from each boundary, the chain of known
      // wrappers ran to the word before the report (0.6 s a line)
      for (String unit : new String[] {"[default0]: ", "[  123.456789] ", "[pod/a/b] "}) {
        LogAccumulator acc = parse(line(unit, "x Killed").repeat(40));
        assertThat(acc.lines).as(unit).isEqualTo(40);
      }
    });
  }

  @Test
  void aNameWithoutTheTextsAfterItIsNoFailureEvenWhenAnotherLineHadThem() throws Exception {
    // the buffer is refilled: lines of one length end at the same index; what one found is not the next's
    String with = "x".repeat(40) + "ValueError: unhandled system error\n";
    String without = "x".repeat(40) + "ValueError: unhandled systems fine\n";
    assertThat(with.length()).isEqualTo(without.length());
    LogAccumulator acc = parse(with + without + without + with + without);
    assertThat(acc.failures.count()).isEqualTo(2);
  }

  @Test
  void gluedRecordsInOneLongLineAreReadAsTheSameRecordsOnLinesOfTheirOwn() throws Exception {
    String record = "node-1:10:11 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4444> with status=12 ";
    int n = 4000 / record.length() + 1; // past a text's hash limit (4 KB)
    LogAccumulator glued = parse((record.repeat(n) + "\n").repeat(3));
    LogAccumulator apart = parse((record.strip() + "\n").repeat(3 * n));
    assertThat(glued.warnings.count()).isEqualTo(3L * n);
    assertThat(glued.warnings.count()).isEqualTo(apart.warnings.count());
    assertThat(glued.failures.count()).isEqualTo(apart.failures.count());
    assertThat(glued.ncclLines).isEqualTo(apart.ncclLines);
  }

  /**
   * Records before 2.3 glued into one 64 KiB line: each record's search for the next one stops at
   * it (it looked for "NCCL " to the line's end first: ~1 MB/s on such lines, minutes for a file).
   */
  @Test
  void gluedRecordsBefore23InOneLongLineAreReadOnce() {
    String record = "cx50:18926:19004 [1] INFO NET : Using interface eno1:192.168.12.50<0>";
    int n = 65000 / record.length();
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      LogAccumulator glued = parse((record.repeat(n) + "\n").repeat(400));
      assertThat(glued.ncclLines).isEqualTo(400L * n);
    });
  }
}
