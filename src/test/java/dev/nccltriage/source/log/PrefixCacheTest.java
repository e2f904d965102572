package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table of line starts: found only by an exact match, at whatever length a log's prefixes have. */
class PrefixCacheTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static ProcessState state() {
    return new LogAccumulator().processes.get(null, -1, -1, -1, false);
  }

  /** Puts the prefix of {@code line} (up to and with "NCCL INFO "), as the parser does. */
  private static int put(PrefixCache c, String line, ProcessState p) {
    byte[] b = bytes(line);
    int at = line.indexOf("NCCL INFO ");
    return c.put(b, 0, at, at + "NCCL INFO ".length(), p);
  }

  private static int find(PrefixCache c, String line) {
    byte[] b = bytes(line);
    return c.find(b, 0, b.length);
  }

  @Test
  void threadsWhosePrefixesDifferInLengthAreAllFound() {
    // a timestamped line first, then host numbers, pids and tids of fewer digits: the key of a
    // short prefix must not reach into its message
    PrefixCache c = new PrefixCache();
    String[] prefixes = {"[2024-05-01 10:00:00.123] node-100:42420:42431 [3] ", "node-9:4242:4242 [0] ",
        "node-10:4242:4242 [1] ", "node-10:42420:4243 [2] "};
    List<ProcessState> states = new ArrayList<>();
    for (String prefix : prefixes) {
      ProcessState p = state();
      states.add(p);
      assertThat(put(c, prefix + "NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>", p)).isNotNegative();
    }
    for (int i = 0; i < prefixes.length; i++) {
      // another message of the same thread: the key covers the prefix only
      int slot = find(c, prefixes[i] + "NCCL INFO NET/IB : No device found.");
      assertThat(slot).as(prefixes[i]).isNotNegative();
      assertThat(c.process(slot)).isSameAs(states.get(i));
      assertThat(c.length(slot)).isEqualTo((prefixes[i] + "NCCL INFO ").length());
    }
  }

  @Test
  void aPrefixThatDiffersInOneByteOrLevelIsNeverFound() {
    PrefixCache c = new PrefixCache();
    String prefix = "node-1:4242:4242 [0] ";
    put(c, prefix + "NCCL INFO x", state());
    for (int i = 0; i < prefix.length(); i++) {
      char[] ch = prefix.toCharArray();
      ch[i] = ch[i] == '7' ? '8' : '7';
      assertThat(find(c, new String(ch) + "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC")).isNegative();
    }
    assertThat(find(c, prefix + "NCCL WARN x")).isNegative();
    assertThat(find(c, prefix + "NCCL INFO ")).as("no message after the prefix").isNegative();
  }

  @Test
  void theLastFourLengthsAreKeptAndShortPrefixesAreNot() {
    PrefixCache c = new PrefixCache();
    ProcessState p = state();
    String[] hosts = {"a1", "bb22", "ccc333", "dddd4444", "eeeee55555", "ffffff666666"};
    for (String h : hosts) {
      put(c, h + ":1234:1234 [0] NCCL INFO a", p);
    }
    // six lengths came; the four put last are all still found (an older one may be, never wrongly)
    for (int i = 2; i < hosts.length; i++) {
      assertThat(find(c, hosts[i] + ":1234:1234 [0] NCCL INFO b")).as(hosts[i]).isNotNegative();
    }
    // fewer than eight bytes before "NCCL" are too few to key a thread by
    assertThat(put(c, "h:1:1 NCCL INFO a", p)).isNegative();
    c.clear();
    assertThat(find(c, hosts[5] + ":1234:1234 [0] NCCL INFO b")).isNegative();
  }
}
