package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A text's family is decided once and WARN prefixes are cached like INFO ones; what a line means
 * must not depend on whether its text or its prefix was seen before, nor on which process saw it.
 */
class RepeatedTextsTest {
  private static LogAccumulator parse(String log) throws Exception {
    return LogLines.accumulate(log);
  }

  private static ProcessState process(LogAccumulator acc, String host) {
    return acc.processes.all().stream().filter(p -> host.equals(p.host)).findFirst().orElseThrow();
  }

  @Test
  void everyRepeatOfAWarnLineOfOneThreadCountsAsAWarnLine() throws Exception {
    String warn = "node-1:10:11 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4444> with status=12\n";
    LogAccumulator acc = parse(warn.repeat(5));
    assertThat(acc.warnings.count()).isEqualTo(5);
    assertThat(acc.failures.count()).isEqualTo(5);
    assertThat(acc.errorLines).isEqualTo(5);
  }

  @Test
  void aWarnPrefixSeenBeforeIsReadAsAWarnEvenWhereItsTextIsAChannelLine() throws Exception {
    String info = "node-1:10:11 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n";
    String warn = "node-1:10:11 [0] NCCL WARN Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n";
    LogAccumulator acc = parse(warn + info + warn + warn + info);
    // each WARN line is read as a WARN (and, as ever, its message by its family): once each
    assertThat(acc.warnings.count()).isEqualTo(3);
    assertThat(acc.failures.count()).isEqualTo(3);
    assertThat(process(acc, "node-1").localChannels).isEqualTo(5);
  }

  @Test
  void anInfoPrefixSeenBeforeDoesNotMakeAWarnOfTheSameThreadAnInfo() throws Exception {
    String info = "node-1:10:11 [0] NCCL INFO NET/IB : No device found.\n";
    String warn = "node-1:10:11 [0] NCCL WARN NET/IB : No device found.\n";
    LogAccumulator acc = parse(info + info + warn + info + warn);
    assertThat(acc.warnings.count()).isEqualTo(2);
  }

  @Test
  void aTextSeenBeforeHasItsEffectOnEveryProcessThatPrintsIt() throws Exception {
    StringBuilder log = new StringBuilder();
    for (int h = 0; h < 3; h++) {
      log.append("node-").append(h).append(":1").append(h).append(":1 [0] NCCL INFO NET/IB : No device found.\n");
      log.append("node-").append(h).append(":1").append(h).append(":1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.")
          .append(h).append("<0>\n");
      log.append("node-").append(h).append(":1").append(h).append(":1 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5\n");
      log.append("node-").append(h).append(":1").append(h).append(":1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.9<0>\n");
      log.append("node-").append(h).append(":1").append(h).append(":1 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n");
    }
    LogAccumulator acc = parse(log.toString());
    for (int h = 0; h < 3; h++) {
      ProcessState p = process(acc, "node-" + h);
      assertThat(p.ibNoDeviceSeen).as("node-%d", h).isTrue();
      assertThat(p.ibFailed).isTrue();
      assertThat(p.bootstrap).isNotNull();
      assertThat(p.socketIfaces).isNotNull().hasSize(1);
      assertThat(p.version).isEqualTo("2.21.5+cuda12.4");
      assertThat(p.initSeen).isTrue();
    }
    assertThat(acc.env("NCCL_IB_HCA", "mlx5").count()).isEqualTo(3);
  }

  @Test
  void aTextOfOneFamilyIsNotTakenForAnotherWhenItsBytesDifferOnlyAtTheEnd() throws Exception {
    // same length, same start: the table must compare every byte, not only the hash
    String a = "node-1:10:11 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0\n";
    String b = "node-1:10:11 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_1\n";
    LogAccumulator acc = parse(a + b + a + b);
    assertThat(acc.env("NCCL_IB_HCA", "mlx5_0").count()).isEqualTo(2);
    assertThat(acc.env("NCCL_IB_HCA", "mlx5_1").count()).isEqualTo(2);
  }

  @Test
  void aGluedRecordInsideARepeatedTextIsSplitOffEveryTime() throws Exception {
    // two ranks' lines written into one (no newline between): what is known of the whole text
    // must not let its repeats skip the search for the second envelope
    String glued = "node-1:10:11 [0] NCCL INFO NET/IB : No device found.node-2:20:21 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>\n";
    LogAccumulator acc = parse(glued.repeat(3));
    assertThat(acc.ncclLines).isEqualTo(6);
    assertThat(process(acc, "node-1").ibNoDeviceSeen).isTrue();
    assertThat(process(acc, "node-2").socketListed).isTrue();
    assertThat(process(acc, "node-2").ibNoDeviceSeen).isFalse();
  }

  @Test
  void aRepeatedCommTextSetsTheCommOfEveryProcessThatPrintsIt() throws Exception {
    // found by " comm 0x" in the text, not by its first word
    String text = " [0] NCCL INFO ncclCommInitRank comm 0x7f00 rank 3 nranks 16 cudaDev 3 busId 1b000 - Init START\n";
    LogAccumulator acc = parse("node-1:10:11" + text + "node-2:20:21" + text + "node-1:10:11" + text);
    assertThat(process(acc, "node-1").nRanks).isEqualTo(16);
    assertThat(process(acc, "node-2").nRanks).isEqualTo(16);
  }

  @Test
  void aRepeatedUnwindOrUnknownTextIsReadTheSameEveryTime() throws Exception {
    String unwind = "node-1:10:11 [0] NCCL INFO transport/net.cc:1302 -> 6\n";
    String other = "node-1:10:11 [0] NCCL INFO Setting affinity for GPU 0 to ffff,ffffffff\n";
    LogAccumulator once = parse(unwind + other);
    LogAccumulator four = parse((unwind + other).repeat(4));
    assertThat(once.errorLines).isEqualTo(1);
    assertThat(four.errorLines).isEqualTo(4);
    assertThat(four.failures.count()).isEqualTo(4 * once.failures.count());
    assertThat(four.unplaced).isEqualTo(4 * once.unplaced);
  }
}
