package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** NCCL's prefix read backwards from the level token: the host, or none where there is none. */
class PrefixTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      "node01:23051:23102 [3] NCCL INFO x|node01|23051",
      "node01:23051:23102 [3] misc/ibvwrap.cc:135 NCCL WARN x|node01|23051",
      "trainer-worker-1:57:57 [0] NCCL INFO x|trainer-worker-1|57",
      "12345:67:89 [0] NCCL INFO x|12345|67",
      "n1:10:15 [0] NCCL INFO x|n1|10",
      // a logger's time of day before a line that lost NCCL's prefix is no host:pid:tid
      "2026-05-01 10:15:30\t[0] NCCL INFO x|-|-1",
      "Dec  3 05:00:00 [1] NCCL INFO x|-|-1",
      "10:15:30 [0] NCCL INFO x|-|-1",
      "10:15:30.123 [0] NCCL INFO x|-|-1",
      "[0] NCCL INFO x|-|-1"})
  void theHostIsNcclsOwn(String line, String host, long pid) {
    byte[] b = line.getBytes(StandardCharsets.US_ASCII);
    Prefix p = new Prefix();
    p.parse(b, 0, line.indexOf(line.contains("NCCL WARN") ? "NCCL WARN" : "NCCL INFO"));
    assertThat(p.hostStart < 0 ? null : line.substring(p.hostStart, p.hostEnd)).isEqualTo(host);
    assertThat(p.pid).isEqualTo(pid);
  }
}
