package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EnvelopeWrappersTest {
  private static int after(String line) {
    byte[] b = line.getBytes(StandardCharsets.US_ASCII);
    return Envelope.afterWrappers(b, 0, b.length);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      // kubectl logs --timestamps
      "2026-05-01T10:00:00.000000001Z host:1:2 [0] NCCL INFO x|31",
      "2025-05-16T16:39:55.214-07:00 host:1:2 [0] NCCL INFO x|30",
      "2026-05-01T10:00:00Z host:1:2 [0] NCCL INFO x|21",
      // a container runtime's log file (CRI): stream and tag after the time
      "2026-05-01T10:00:00.123456789Z stdout F host:1:2 [0] NCCL INFO x|40",
      "2026-05-01T10:00:00.123456789Z stderr P host:1:2 [0] NCCL INFO x|40",
      // a logger's date and time with a space and a comma
      "2026-05-01 10:00:00,123 host:1:2 [0] NCCL INFO x|24",
      // an export's columns: a time, a tab
      "'2026-05-01T10:00:00.123Z\thost:1:2 [0] NCCL INFO x'|25",
      // not a timestamp: the line is keyed from its start
      "host:1:2 [0] NCCL INFO 2026-05-01T10:00:00Z|0",
      "2026-05-01 is the day host:1:2 [0] NCCL INFO x|0",
      "2026-05-01T10:00:00.000000001Z|0",
      "2026-05-01T10:0a:00Z host:1:2 [0] NCCL INFO x|0",
      "2026-0X-01T10:00:00Z host:1:2 [0] NCCL INFO x|0",
      "2026-05-01X10:00:00Z host:1:2 [0] NCCL INFO x|0",
      "2026/05/01T10:00:00Z host:1:2 [0] NCCL INFO x|0",
      "2026-05-01T10:00:0Z host:1:2 [0] NCCL INFO x|0",
      "9999-99-99T99:99:99 host:1:2 [0] NCCL INFO x|20",
      // a time in brackets: the kernel's and journald's seconds since boot (padded), a time of day
      "[    12.000500] host:1:2 [0] NCCL INFO x|16",
      "[123456.1] host:1:2 [0] NCCL INFO x|11",
      "[  123.456789] gpu-1 python3[42]: host:1:2 [0] NCCL INFO x|34",
      "[10:00:00] host:1:2 [0] NCCL INFO x|11",
      "'[10:00:00.123]	host:1:2 [0] NCCL INFO x'|15",
      "[    12.000500] 2026-05-01T10:00:00Z host:1:2 [0] NCCL INFO x|16",
      // not a time: a count, a minute, a fraction without digits, no blank after, letters
      "[12] host:1:2 [0] NCCL INFO x|0",
      "[10:00] host:1:2 [0] NCCL INFO x|0",
      "[10:0:00] host:1:2 [0] NCCL INFO x|0",
      "[12.] host:1:2 [0] NCCL INFO x|0",
      "[12.5]host:1:2 [0] NCCL INFO x|0",
      "[12.5a] host:1:2 [0] NCCL INFO x|0",
      "[ 12.5 ] host:1:2 [0] NCCL INFO x|0",
      "[    12.000500|0",
      // kubectl --prefix, with and without --timestamps
      "[pod/trainer-0/pytorch] host:1:2 [0] NCCL INFO x|24",
      "[pod/trainer-0/pytorch] 2026-05-01T10:00:00.123456789Z host:1:2 [0] NCCL INFO x|55",
      "[pod/trainer-0/pytorch]host:1:2 [0] NCCL INFO x|0",
      "[pod/trainer-0/pytorch|0",
      // mpirun --tag-output, alone and inside a Pod's timestamped log
      "[1,0]<stdout>:host:1:2 [0] NCCL INFO x|14",
      "[12,345]<stderr>:host:1:2 [0] NCCL INFO x|17",
      "2026-05-01T10:00:00Z [1,0]<stdout>:host:1:2 [0] NCCL INFO x|35",
      "[1,0]<stdin>:host:1:2 [0] NCCL INFO x|0",
      "[1]<stdout>:host:1:2 [0] NCCL INFO x|0",
      // torchrun's role and local rank; PyTorch's rank tag
      "[default0]:host:1:2 [0] NCCL INFO x|11",
      "[rank12]: host:1:2 [0] NCCL INFO x|10",
      "[default]:host:1:2 [0] NCCL INFO x|0",
      "[0] NCCL INFO x|0",
      // Ray's worker prefix, alone and after kubectl's timestamp
      "(RayWorkerWrapper pid=3051, ip=10.0.0.1) host:1:2 [0] NCCL INFO x|41",
      "(pid=3051) host:1:2 [0] NCCL INFO x|11",
      "2026-05-01T10:00:00Z (pid=3051) host:1:2 [0] NCCL INFO x|32",
      "(see pid=3051)host:1:2 [0] NCCL INFO x|0",
      "(ppid=3051) host:1:2 [0] NCCL INFO x|0",
      "(pid=) host:1:2 [0] NCCL INFO x|0",
      // NCCL's own timestamp (2.26+: NCCL_DEBUG_TIMESTAMP_FORMAT, "[%F %T] " by default)
      "[2026-05-01 10:00:00] host:1:2 [3] misc/ibvwrap.cc:135 NCCL WARN x|22",
      "[2026-05-01 10:00:00.123456] host:1:2 [0] NCCL INFO x|29",
      "[default0]:[2026-05-01 10:00:00] host:1:2 [0] NCCL INFO x|33",
      "2026-05-01T10:00:00Z [2026-05-01 10:00:00] host:1:2 [0] NCCL INFO x|43",
      "[pod/trainer-0/pytorch] [2026-05-01 10:00:00] host:1:2 [0] NCCL INFO x|46",
      "[2026-05-01 10:00:00]host:1:2 [0] NCCL INFO x|0",
      "[2026-05-01 10:00:00 host:1:2 [0] NCCL INFO x|0",
      "[2026-05-01] host:1:2 [0] NCCL INFO x|0",
      // Slurm's srun --label; padded to the widest task id it is left on (a task's lines share it,
      // and a bare message is looked for past it): quoted, as CsvSource trims blanks
      "3: host:1:2 [0] NCCL INFO x|3",
      "'  3: host:1:2 [0] NCCL INFO x'|0",
      "127: Call to ibv_reg_mr failed with error Bad address|5",
      "3: [2026-05-01 10:00:00] host:1:2 [3] NCCL WARN x|25",
      "1:2:3 [0] NCCL INFO x|0",
      "3:host:1:2 [0] NCCL INFO x|0",
      "' [0] NCCL INFO x'|0",
      "'   indented application output'|0",
      "12345678901234567: x|0",
      // syslog's and journald's time and sender (a job run as a service), the sender after an ISO time too
      "Dec  3 05:00:00 gpu-1 python3[1000]: host:1:2 [0] NCCL INFO x|37",
      "Dec 03 05:00:00 gpu-1 python3[1000]: Call to ibv_reg_mr failed|37",
      "Jun 30 23:59:59.123456 gpu-1 torchrun[7]: host:1:2 [0] NCCL INFO x|42",
      "2026-12-03T05:00:00+0000 gpu-1 python3[1000]: host:1:2 [0] NCCL INFO x|46",
      "2026-12-03T05:00:00.123456+00:00 gpu-1.example.com python3[1000]: x|66",
      "Sep  9 09:09:09 host:1:2 [0] NCCL INFO x|16",
      "Dec 03 05:00:00 gpu-1 kernel: NVRM: Xid 79|16",
      "2026-12-03T05:00:00Z gpu-1 python3: x|21",
      "Dec 03 05:00:00gpu-1 python3[1000]: x|0",
      "Dex 03 05:00:00 gpu-1 python3[1000]: x|0",
      "Dec 3 05:00:00 gpu-1 python3[1000]: x|0",
      "Dec 03 05:0:00 gpu-1 python3[1000]: x|0",
      "Nov 12 epochs done, loss 0.3|0",
      "NCCL version 2.21.5+cuda12.4|0",
      "Dec 03 05:00:00 gpu-1 [1000]: x|16",
      "Dec 03 05:00:00 gpu-1 python3[]: x|16",
      "Dec 03 05:00:00 gpu-1 python3[1000]:x|16"})
  void kubectlsRuntimesAndMpirunsWrappersAreCutOff(String line, int expected) {
    assertThat(after(line)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"12345", "2026-05-01T1", "2026-05-01T10:00:00.12345678901234567890123456789Z x"})
  void aShortOrEndlessTimeIsNotATimestamp(String line) {
    assertThat(after(line)).isZero();
  }

  @org.junit.jupiter.api.Test
  void aByteAboveAsciiWhereADigitBelongsIsNoTimestamp() {
    for (int at : new int[] {1, 5, 9, 12, 15, 18}) {
      byte[] b = "2026-05-01T10:00:00Z host:1:2 [0] NCCL INFO x".getBytes(StandardCharsets.US_ASCII);
      b[at] = (byte) 0xB9; // '9' with the high bit set
      assertThat(Envelope.afterWrappers(b, 0, b.length)).as("byte %d", at).isZero();
    }
  }

  @org.junit.jupiter.api.Test
  void aSyslogHeaderIsNotReadPastItsNewline() {
    for (String line : new String[] {"Dec 03 05:00\n:00 gpu-1 python3[1000]: x\n", "Dec 03 05:00:00 gpu\n-1 python3[1000]: x\n",
        "Dec 03 05:00:00 gpu-1 pyth\non3[1000]: x\n", "Dec 03 05:00:00 gpu-1 python3[10\n00]: x\n"}) {
      byte[] b = line.getBytes(StandardCharsets.US_ASCII);
      assertThat(Envelope.afterWrappers(b, 0, b.length)).as(line).isLessThanOrEqualTo(line.indexOf('\n'));
    }
  }

  @org.junit.jupiter.api.Test
  void aShortLineIsNotReadPastItsNewline() {
    // the reader may hand over bytes past the line's end: a date cut by a newline is no timestamp
    byte[] b = "2026-05\n-01T10:00:00Z host:1:2 [0] NCCL INFO x\n".getBytes(StandardCharsets.US_ASCII);
    assertThat(Envelope.afterWrappers(b, 0, b.length)).isZero();
    byte[] pod = "[pod/a\n] 2026-05-01T10:00:00Z host:1:2 [0] NCCL INFO x\n".getBytes(StandardCharsets.US_ASCII);
    assertThat(Envelope.afterWrappers(pod, 0, pod.length)).isZero();
  }

  /**
   * A short line (under eight bytes) is cut where {@link Envelope#afterWrappers} cuts it, by the
   * shortcut that reads a wrapper only where a byte that ends one stands: every string of up to
   * seven bytes over bytes that start and end wrappers, digits, letters and punctuation.
   */
  @org.junit.jupiter.api.Test
  void aShortLineIsCutAsAnyLineIs() {
    byte[] alphabet = "0129[]():T-Z. \t,/|<>aDJMNOSFpodF=+_#x".getBytes(StandardCharsets.US_ASCII);
    java.util.Random rnd = new java.util.Random(11);
    byte[] b = new byte[32];
    for (int n = 0; n < 400_000; n++) {
      int len = rnd.nextInt(8);
      int s = rnd.nextInt(4);
      java.util.Arrays.fill(b, (byte) '\n');
      for (int i = 0; i < len; i++) {
        b[s + i] = alphabet[rnd.nextInt(alphabet.length)];
      }
      String line = new String(b, s, len, StandardCharsets.US_ASCII);
      assertThat(Envelope.afterShortWrappers(b, s, s + len)).as(line).isEqualTo(Envelope.afterWrappers(b, s, s + len));
    }
    for (String line : new String[] {"0: E", "[0] x", "(x) y", "1:E", "[E]", "Dec 1 x", "12 x", "1\tE"}) {
      byte[] l = (line + "\n\n\n\n\n\n\n\n").getBytes(StandardCharsets.US_ASCII);
      assertThat(Envelope.afterShortWrappers(l, 0, line.length())).as(line).isEqualTo(Envelope.afterWrappers(l, 0, line.length()));
    }
  }
}
