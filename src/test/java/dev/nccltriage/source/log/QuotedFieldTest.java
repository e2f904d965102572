package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The quoted field of a CSV export or a logfmt line that holds an NCCL record. */
class QuotedFieldTest {
  @ParameterizedTest
  @CsvSource(delimiterString = " => ", nullValues = "NOT", quoteCharacter = '`', value = {
      // CSV exports: every field quoted, or only where needed; a quote inside doubled
      "\"2026-05-01T10:00:00Z\",\"trainer-0\",\"h:1:2 [0] NCCL INFO Using network IB\" => h:1:2 [0] NCCL INFO Using network IB",
      "2026-05-01T10:00:00Z,\"h:1:2 [0] NCCL WARN bad \"\"x\"\", again\" => h:1:2 [0] NCCL WARN bad \"x\", again",
      "\"h:1:2 [0] NCCL INFO first column\" => h:1:2 [0] NCCL INFO first column",
      "\"t\";\"h:1:2 [0] NCCL INFO semicolons\" => h:1:2 [0] NCCL INFO semicolons",
      "\"job NCCL test\",\"h:1:2 [0] NCCL INFO the record, not a column that names NCCL\" => h:1:2 [0] NCCL INFO the record, not a column that names NCCL",
      "\"h:1:2 [0] NCCL INFO not the last column\",\"trainer-0\" => h:1:2 [0] NCCL INFO not the last column",
      // logfmt: the msg value, last or not; backslash escapes
      "time=2026-05-01T10:00:00Z level=info msg=\"h:1:2 [0] NCCL INFO Using network IB\" => h:1:2 [0] NCCL INFO Using network IB",
      "level=info msg=\"h:1:2 [0] NCCL WARN \\\"quoted\\\" \\\\ \\x1b\\n\" pod=\"w-0\" => h:1:2 [0] NCCL WARN \"quoted\" \\ \\x1b",
      // fields after the record's: CloudWatch Logs Insights' @timestamp,@message,@logStream; before 2.3
      "2026-05-01 10:00:00.100,\"h:1:2 [0] NCCL INFO Using network IB\",trainer-0/main/4f2a => h:1:2 [0] NCCL INFO Using network IB",
      "2026-05-01 10:00:00.100,\"h:1:2 [0] INFO NET : Using interface eth0:10.0.0.1<0>\",trainer-0 => h:1:2 [0] INFO NET : Using interface eth0:10.0.0.1<0>",
      "ts=1 msg=\"h:1:2 [0] INFO Ring 00 : 0 -> 1 via P2P/IPC\" pod=w-0 => h:1:2 [0] INFO Ring 00 : 0 -> 1 via P2P/IPC",
      // not such a line: read as it is
      "h:1:2 [0] NCCL WARN NCCL_SOCKET_IFNAME \"eth9\" => NOT",
      "h:1:2 [0] NCCL INFO Using network IB => NOT",
      // no record's token: the field that ends the line (a bare message, another program's line)
      "\"2026-05-01T10:00:00Z\",\"Last error: a \"\"bare\"\" message\" => Last error: a \"bare\" message",
      "ts=1 msg=\"Last error: bare\" => Last error: bare",
      // ... in the middle of a CSV row, its one quoted field; in a logfmt record, a text key's value
      "2026-05-01 10:00:00.100,\"Last error: bare, with a comma\",trainer-0/main => Last error: bare, with a comma",
      "\"t\",\"a b\",trainer-0 => a b",
      // every field quoted, in the order an export's user picked: the last that reads as words
      "\"2026-05-01T10:00:00.000Z\",\"NCCL version 2.19.3+cuda12.3\",\"train-0\" => NCCL version 2.19.3+cuda12.3",
      "\"2026-05-01 10:00:00.000\",\"train-0\",\"Killed\" => Killed",
      "\"2026-05-01 10:00:00.000\",\"Traceback (most recent call last):\",\"train-0\",\"12 ms\" => Traceback (most recent call last):",
      "ts=1 level=info msg=\"Last error: bare\" pod=\"w-0\" => Last error: bare",
      "ts=1 msg=\"Last error: bare\" pod=w-0 node=n1 => Last error: bare",
      "ts=1 detail=\"a b\" pod=w-0 => NOT",
      // another program's line that ends in key="value" keeps its own text (it may say the job failed)
      "RuntimeError: NCCL error in: x.cpp:1, unhandled system error hint=\"check\" => NOT",
      "Segmentation fault (core dumped) reason=\"x\" => NOT",
      "ts=1 msg=\"a\"b=1 => NOT",
      "print(\"a quoted string, not a field\") and \"x\" => NOT",
      "x = \"not logfmt\" => NOT",
      "say \"h:1:2 [0] NCCL INFO x\" => NOT",
      "\"t\",\"h:1:2 [0] NCCL INFO unclosed \"\" => NOT",
      "\"t\",\"h:1:2 [0] NCCL INFO x\"junk\" => NOT",
      "msg=\"h:1:2 [0] NCCL INFO escaped end\\\" => NOT",
  })
  void decodesTheFieldThatHoldsTheRecord(String line, String expected) {
    assertThat(Decoded.text(new QuotedField(), line)).isEqualTo(expected);
  }
}
