package dev.nccltriage.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Evidence lines shown to people as "host: message": the host is the one of NCCL's envelope. */
class ShortTextTest {
  @ParameterizedTest
  @CsvSource(delimiterString = " => ", value = {
      "node01:23051:23051 [0] NCCL INFO Using network IB => node01: Using network IB",
      "node01:23051:23102 [3] misc/ibvwrap.cc:135 NCCL WARN Call to ibv_reg_mr failed => node01: Call to ibv_reg_mr failed",
      "[2026-06-20 08:00:01] node01:1:2 [3] misc/ibvwrap.cc:120 (wrap_ibv_reg_mr) NCCL WARN Bad address => node01: Bad address",
      "hvd-node-1:4417:4496 [0] INFO NET : Using interface eno1 => hvd-node-1: NET : Using interface eno1",
      // journald's and syslog's time of day has the host:pid:tid shape; the envelope is further on
      "Dec 03 05:00:00 gpu-1 python3[1000]: trainer-0:57:57 [0] NCCL INFO Using network IB => trainer-0: Using network IB",
      "Dec  3 05:00:00 gpu-1 python3[1000]: trainer-0:57:57 [0] NCCL INFO Using network IB => trainer-0: Using network IB",
      "2026-05-01 10:00:00,123 worker 10:11:12 x trainer-0:57:57 [1] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC "
          + "=> trainer-0: Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
      // the first envelope, not one quoted in the message
      "a:1:2 [0] NCCL WARN peer said b:3:4 [0] NCCL WARN x => a: peer said b:3:4 [0] NCCL WARN x",
      // no envelope: the line as it is
      "Dec 03 05:00:00 gpu-1 kernel: NVRM: Xid 79 => Dec 03 05:00:00 gpu-1 kernel: NVRM: Xid 79",
      "[0] NCCL INFO Using network IB => [0] NCCL INFO Using network IB",
      // a time of day right before a line that lost NCCL's prefix is no host
      "Dec  3 05:00:00 [1] NCCL INFO Using network IB => Dec  3 05:00:00 [1] NCCL INFO Using network IB",
      "n1:10:15 [0] NCCL INFO Using network IB => n1: Using network IB",
      // a control byte before the envelope, escaped for the terminal: a progress bar's CR, a C1 control
      "Epoch 0: 5%|#  | 5/9\\x0dtrainer-0:57:415 [0] misc/socket.cc:50 NCCL WARN Net : x => trainer-0: Net : x",
      "a\\u009bb-0:1:2 [0] NCCL INFO y => b-0: y",
  })
  void showsTheEnvelopesHostAndTheMessage(String line, String shown) {
    assertThat(TextReport.shortText(line)).isEqualTo(shown);
  }
}
