package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PrefixCacheTest {
  private final PrefixCache cache = new PrefixCache();
  private final ProcessState proc = new ProcessTable().get(null, -1, -1, -1, false);

  private static byte[] line(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Puts the prefix of {@code text} up to and including the level token and its space. */
  private int put(String text) {
    byte[] b = line(text);
    int at = text.indexOf("NCCL ");
    return cache.put(b, 0, at, at + "NCCL INFO ".length(), tidEnd(text), proc, text.startsWith("WARN", at + "NCCL ".length()));
  }

  /** Where the line's host:pid:tid ends, as Prefix reads it. */
  private static int tidEnd(String text) {
    Prefix prefix = new Prefix();
    prefix.parse(line(text), 0, text.indexOf("NCCL "));
    return prefix.tidEnd;
  }

  private int find(String text) {
    byte[] b = line(text);
    return cache.find(b, 0, b.length);
  }

  @Test
  void aThreadsInfoAndWarnPrefixesAreBothKept() {
    // same key (it ends before the level): a failing job's threads alternate WARN and unwind lines
    String warn = "node-021:57856:57856 [6] NCCL WARN Bootstrap : no socket interface found";
    String info = "node-021:57856:57856 [6] NCCL INFO bootstrap.cc:270 -> 3";
    put(warn);
    put(info);

    assertThat(find(warn)).isNotNegative();
    assertThat(find(info)).isNotNegative();
    assertThat(find(warn)).isNotEqualTo(find(info));
  }

  @Test
  void aFifthPrefixOfTheKeyTakesTheWayOfOneOfTheFour() {
    String[] texts = new String[5];
    for (int i = 0; i < texts.length; i++) {
      texts[i] = "node-021:57856:57856 [6] NCCL TES" + i + " x"; // same key, five prefixes
      put(texts[i]);
    }

    assertThat(find(texts[4])).as("the last kept").isNotNegative();
    assertThat(java.util.Arrays.stream(texts, 0, 4).filter(t -> find(t) < 0).count()).as("evicted").isEqualTo(1);
  }

  /** Since 2.7 a WARN's prefix holds its source line: a thread that warns from three places has four prefixes. */
  @Test
  void aThreadsInfoPrefixAndWarnPrefixesOfThreeSourceLinesAreAllKept() {
    String[] texts = {
      "node-038:28695:29085 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer",
      "node-038:28695:29085 [0] NCCL INFO transport/net_ib.cc:1426 -> 6",
      "node-038:28695:29085 [0] misc/ibvwrap.cc:108 NCCL WARN Call to ibv_open_device failed",
      "node-038:28695:29085 [0] proxy.cc:1521 NCCL WARN [Proxy Service 3] Failed to execute operation",
    };
    for (int round = 0; round < 3; round++) {
      for (String text : texts) {
        if (find(text) < 0) {
          assertThat(round).as("kept after the first round: " + text).isZero();
          byte[] b = line(text);
          int at = text.indexOf("NCCL ");
          assertThat(cache.put(b, 0, at, at + "NCCL WARN ".length(), tidEnd(text), proc, true)).isNotNegative();
        }
      }
    }
  }

  /**
   * In a log of several jobs, the first job's key ends where its short prefixes have "NCCL"; a job
   * of long host names gets a key of its own, which spans its threads' ids, so that its threads do
   * not share one set of slots.
   */
  @Test
  void threadsOfLongHostNamesAfterAJobOfShortOnesAreAllKept() {
    put("node-1:57:57 [0] NCCL INFO x"); // a key of 17 bytes
    String[] texts = new String[12];
    for (int i = 0; i < texts.length; i++) {
      texts[i] = "pytorchjob-summarization-long-data-4vry-worker-" + i + ":113:" + (548 + i) + " [0] NCCL INFO x";
      put(texts[i]);
    }
    for (String text : texts) {
      assertThat(find(text)).as(text).isNotNegative();
    }
    assertThat(find("node-1:57:57 [0] NCCL INFO Channel 00/0")).isNotNegative();
  }

  /** Every byte of a kept prefix counts, whatever its length's remainder by eight (it is compared by words). */
  /**
   * A PID namespace per Pod: every Pod's ranks have the same pids and tids, so its threads differ
   * only in the Pod's name, just before 17 bytes of ":12345:13405 [3] ". They must not share a key.
   */
  @Test
  void threadsOfPodsWithTheSamePidsAndTidsAreAllKept() {
    String[] texts = new String[64];
    for (int i = 0; i < texts.length; i++) {
      texts[i] = "pytorchjob-train-worker-" + i + ":12345:13405 [3] NCCL INFO x";
      put(texts[i]);
    }
    for (String text : texts) {
      assertThat(find(text)).as(text).isNotNegative();
    }
  }

  @Test
  void aLineDifferingInAnyOneByteOfThePrefixIsNotFound() {
    for (String host : new String[] {"n1", "node-02", "node-021", "node-0213", "gpu-node-b12-xyz", "x".repeat(93)}) {
      String text = host + ":57856:57856 [6] NCCL INFO Channel 00/0";
      int slot = put(text);
      int n = text.indexOf("NCCL ") + "NCCL INFO ".length();
      assertThat(slot).as(host).isNotNegative();
      assertThat(find(text)).as(host).isEqualTo(slot);
      for (int j = 0; j < n; j++) {
        byte[] b = line(text);
        b[j] ^= 0x20;
        assertThat(cache.matches(slot, b, 0, b.length)).as(host + ", byte " + j).isFalse();
      }
      assertThat(cache.matches(slot, line(text), 0, n)).as(host + ": no message after it").isFalse();
    }
  }

  @Test
  void aLineIsFoundOnlyByItsWholePrefixAndWithAMessageAfterIt() {
    put("node-021:57856:57856 [6] NCCL INFO x");

    assertThat(find("node-021:57856:57857 [6] NCCL INFO x")).as("another tid").isNegative();
    assertThat(find("node-021:57856:57856 [6] NCCL INFO ")).as("nothing after the prefix").isNegative();
    assertThat(find("node-021:57856:57856 [6] NCCL INFO Channel 00/0")).isNotNegative();
  }

  /** Lines are looked up only where a kept prefix starts with their first two bytes, and found so after a clear. */
  @Test
  void everyKeptPrefixIsFoundWhateverItsFirstBytes() {
    String[] hosts = {"node-021", "a", "Zq", "10.0.0.7", "\u007f\u0001x", "gpu-0", "node-1"};
    for (String h : hosts) {
      put(h + ":1:2 [0] NCCL INFO x");
    }
    for (String h : hosts) {
      assertThat(find(h + ":1:2 [0] NCCL INFO Channel 00/0")).as(h).isNotNegative();
      assertThat(find("x" + h + ":1:2 [0] NCCL INFO Channel 00/0")).as("x" + h).isNegative();
    }
    cache.clear();
    assertThat(find("node-021:1:2 [0] NCCL INFO Channel 00/0")).as("after clear").isNegative();
    put("nodf-021:1:2 [0] NCCL INFO x");
    assertThat(find("node-021:1:2 [0] NCCL INFO Channel 00/0")).as("same first pair, other prefix").isNegative();
    assertThat(find("nodf-021:1:2 [0] NCCL INFO Channel 00/0")).isNotNegative();
  }

  /**
   * The key of a line's prefix spans as many bytes as the first one put had before "NCCL", its
   * wrapper included; a shorter prefix gets a key of its own length. A prefix kept from its host on
   * (the wrapper changes from line to line) has keys of its own.
   */
  @Test
  void aPrefixKeptFromItsHostIsFoundThereAfterLongerOnes() {
    put("[pod/trainer-worker-0/pytorch] node-021:57856:57856 [6] NCCL INFO x");
    String line = "12345:node-021:57856:57856 [6] NCCL INFO Channel 00/0";
    byte[] b = line(line);
    int host = line.indexOf("node-021");
    int at = line.indexOf("NCCL ");
    int shorter = cache.put(b, host, at, at + "NCCL INFO ".length() - host, tidEnd(line), proc, false);
    assertThat(shorter).as("too short for that key: kept under a key of its own").isNotNegative();
    assertThat(cache.find(b, host, b.length)).isEqualTo(shorter);
    byte[] wrapped = line("[pod/trainer-worker-0/pytorch] node-021:57856:57856 [6] NCCL INFO Channel 00/0");
    assertThat(cache.find(wrapped, 0, wrapped.length)).as("the first key still finds the first").isNotNegative()
        .isNotEqualTo(shorter);

    int slot = cache.putFromHost(b, host, at, at + "NCCL INFO ".length() - host, tidEnd(line), proc, false);
    assertThat(slot).isNotNegative();
    byte[] next = line("12346:node-021:57856:57856 [6] NCCL INFO Channel 01/0");
    // (the same bytes kept by put() above are as good a match)
    assertThat(cache.findFromHost(next, host, next.length)).isIn(slot, shorter);
    assertThat(cache.findFromHost(next, host + 1, next.length)).as("a byte further").isNegative();
  }

  /** A paste that lost its hosts: "NCCL INFO " or " [0] NCCL INFO " alone before each message. */
  @Test
  void prefixesWithoutAHostAreKeptUnderAShortKeyAndTriedLast() {
    put("NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>");
    put(" [3] NCCL INFO Channel 00/0 : 0[3] -> 1[3] via P2P/IPC");
    put("node-021:57856:57856 [6] NCCL INFO x"); // a key of its own, tried before the short one

    assertThat(find("NCCL INFO Channel 00/0 : 0[0] -> 1[0] via P2P/IPC")).isNotNegative();
    assertThat(find(" [3] NCCL INFO Connected all rings")).isNotNegative();
    assertThat(find(" [4] NCCL INFO Connected all rings")).as("another device").isNegative();
    assertThat(find("NCCL WARN x")).as("another level").isNegative();
    assertThat(find("node-021:57856:57856 [6] NCCL INFO Channel 00/0")).isNotNegative();
    assertThat(find("NCCL INFO ")).as("nothing after the prefix").isNegative();
  }

  /**
   * A log of several jobs (an aggregator's export): eight shapes of prefix, no key spanning the
   * threads' ids of two, each get a key; else six threads of a job shared a set of four slots.
   */
  @Test
  void eightJobsOfPrefixesOfDifferentLengthsAreAllKept() {
    java.util.List<String> texts = new java.util.ArrayList<>();
    for (int j = 0; j < 8; j++) {
      for (int w = 0; w < 6; w++) {
        texts.add("n" + "x".repeat(12 * j) + "-worker-" + w + ":1" + j + ":2" + j + " [0] NCCL INFO x");
        put(texts.get(texts.size() - 1));
      }
    }
    for (String text : texts) {
      assertThat(find(text)).as(text).isNotNegative();
    }
  }
}
