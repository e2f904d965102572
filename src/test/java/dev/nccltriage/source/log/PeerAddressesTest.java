package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PeerAddressesTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "Connect to 10.4.7.21<43117> failed : Connection refused | Connect to 0.0.0.0<0> failed : Connection refused",
    "Net : Connection closed by remote peer 10.124.150.173<37857> | Net : Connection closed by remote peer 0.0.0.0<0>",
    "from 10.0.0.1 to 10.0.0.2<7> | from 0.0.0.0 to 0.0.0.0<0>",
    "peer 1.2.3.4<> | peer 0.0.0.0<>",
    "10.1.2.3<99>| 0.0.0.0<0>",
    "ib0:10.9.8.7<0>x | ib0:0.0.0.0<0>x",
    "async fatal event on QP (0x55d0c1a2b3c4): IBV_EVENT_QP_FATAL | async fatal event on QP (0x0): IBV_EVENT_QP_FATAL",
    "comm 0x7f3a2c001230 from 10.0.0.1<5> | comm 0x0 from 0.0.0.0<0>",
    "0xdeadbeef | 0x0",
    // numbers of four digits or more (sizes, ids, a completion's garbage opcode): four zeros each
    "status=5 opcode=32656 len=32659 vendor err 249 | status=5 opcode=0000 len=0000 vendor err 249",
    "Invalid rank requested : 4096/4096 | Invalid rank requested : 0000/0000",
    "received 1048576 bytes instead of 4096 | received 0000 bytes instead of 0000",
    "transport/net_ib.cc:1302 -> 6 | transport/net_ib.cc:0000 -> 6",
    "1234.1.2.3 neither | 0000.1.2.3 neither",
    "1.2.3.4567 neither | 1.2.3.0000 neither",
    "fe80::1%eth0<4444> | fe80::1%eth0<0000>",
    "id0x12345678 and 0x1234abcdz | id0x0000 and 0x0000abcdz",
    "localGid fd00:1148:9000:5000:4:200:3:ff22 | localGid fd00:0000:0000:0000:4:200:3:ff22",
    "12345 then 10.0.0.1<77> then 0x55d0c1a2b3c4 then 99999 | 0000 then 0.0.0.0<0> then 0x0 then 0000",
  })
  void anAddressAndItsPortAreMasked(String msg, String masked) {
    assertThat(PeerAddresses.masked(msg)).isEqualTo(masked.strip());
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "NCCL version 2.18.1+cuda12.1", // three parts
    "1.2.3.4.5 is no address",
    "no dot at all",
    "transport/net_ib.cc:368 -> 2", // fewer than four digits: a status, an errno, a result, a small rank
    "fe80::1%eth0<444>", // IPv6 is left as it is
    "opcode 0x12, flags 0x1ff", // fewer than four hex digits: a number, not a pointer
    "id0x123 and 0x1abz", // not words of their own
    "status=12 opcode=0 len=0 vendor err 129 (Send), errno 113",
  })
  void aTextWithoutADottedQuadIsReturnedItself(String msg) {
    assertThat(PeerAddresses.masked(msg)).isSameAs(msg);
  }

  @Test
  void anAnswerThatQuotesDigitsIsTheTextsOwn() {
    // a detail with digits may hold the address itself: the masked text's answer is not used
    StringBuilder asked = new StringBuilder();
    ErrorSignatures.Outcome own = lookUp("Call to ibv_modify_qp failed with error peer 10.1.2.3<4>", asked);
    assertThat(own.detail()).isEqualTo("peer 10.1.2.3<4>");
    assertThat(asked.toString()).contains("[Call to ibv_modify_qp failed with error peer 0.0.0.0<0>]");
  }

  @Test
  void anAnswerThatQuotesDigitsOfItsOwnServesEveryPeer() {
    // the detail's digits are the text's, not a mask's: it reads the same masked otherwise
    StringBuilder asked = new StringBuilder();
    ErrorSignatures.Outcome o = lookUp("socketStartConnect: Connect to 10.1.2.3<4> failed : error 113 (No route to host)", asked);
    assertThat(o.detail()).isEqualTo("error 113 (No route to host)");
    assertThat(asked.toString()).isEqualTo("[socketStartConnect: Connect to 0.0.0.0<0> failed : error 113 (No route to host)]");
  }

  @Test
  void anAnswerThatReadsAMaskedNumberIsTheTextsOwn() {
    // the rank is read from digits a mask hides: the form's answer (rank 0000) does not serve
    StringBuilder asked = new StringBuilder();
    ErrorSignatures.Outcome o = lookUp("Invalid rank requested : 4100/4096", asked);
    assertThat(o.invalidRankOf()).isEqualTo(4096);
    assertThat(asked.toString()).isEqualTo("[Invalid rank requested : 0000/0000][Invalid rank requested : 4100/4096]");
  }

  @Test
  void aCompletionsGarbageNumbersShareOneAnswer() {
    // the status (two digits) is the text's; the opcode and length (garbage after an error) are masked
    StringBuilder asked = new StringBuilder();
    ErrorSignatures.Outcome o = lookUp("NET/IB : Got completion from peer 10.1.2.3<4> with status=5 opcode=32656 len=32659"
        + " vendor err 249 (Recv)", asked);
    assertThat(o.status()).isEqualTo(5);
    assertThat(asked.toString()).isEqualTo("[NET/IB : Got completion from peer 0.0.0.0<0> with status=5 opcode=0000 len=0000"
        + " vendor err 249 (Recv)]");
  }

  @Test
  void anAnswerWithoutDigitsServesEveryPeer() {
    StringBuilder asked = new StringBuilder();
    ErrorSignatures.Outcome o = lookUp("socketStartConnect: Connect to 10.1.2.3<4> failed : Connection refused", asked);
    assertThat(o.detail()).isEqualTo("Connection refused");
    assertThat(asked.toString()).isEqualTo("[socketStartConnect: Connect to 0.0.0.0<0> failed : Connection refused]");
  }

  /** The bytes' mask is the text's: every case above, with and without characters beyond ASCII around it. */
  @ParameterizedTest
  @ValueSource(strings = {
    "Connect to 10.4.7.21<43117> failed : Connection refused",
    "Net : Connection closed by remote peer 10.124.150.173<37857>",
    "from 10.0.0.1 to 10.0.0.2<7>", "peer 1.2.3.4<>", "10.1.2.3<99>", "ib0:10.9.8.7<0>x",
    "é10.1.2.3<4>ü 1.2.3.4", "Gerät 10.0.0.1<1> → 10.0.0.2<2> ✓", "10.0.0.1\u00a0<5>",
    "NCCL version 2.18.1+cuda12.1", "1.2.3.4.5 is no address", "1234.1.2.3 neither", "1.2.3.4567 neither",
    "no dot at all", "transport/net_ib.cc:1302 -> 6", "fe80::1%eth0<4444>", ".", "1.2.3.", "9.9.9.9",
    "1.2.3.4.x", "1.2.3.4<5>6.7.8.9", "1234.5.6.7.8", "..1.2.3.4..", "x1.2.3.4", "1.2.3.4<56",
    "QP (0x55d0c1a2b3c4): x", "0xabc1.2.3.4 and 0xabcd1.2.3.4", "é0x1234ü", "0x1234", "x0x1234 0x", "1.2.3.4 0x12345",
    "len=32659é", "ü1234", "12345 then 10.0.0.1<77> then 0x55d0c1a2b3c4 then 99999", "123", "1234", "0x12345678901234567890"
  })
  void masksOfBytesAreMasksOfTheText(String msg) {
    byte[] b = ("xx" + msg + "yy").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] out = new byte[b.length];
    int n = PeerAddresses.maskInto(b, 2, b.length - 2, out);
    String masked = PeerAddresses.masked(msg);
    if (masked == msg) {
      assertThat(n).isEqualTo(-1);
    } else {
      assertThat(new String(out, 0, n, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(masked);
    }
  }

  /** PeerAddresses.lookUp with the plain classification, noting each text it was asked, "[..]". */
  private static ErrorSignatures.Outcome lookUp(String msg, StringBuilder asked) {
    return PeerAddresses.lookUp(msg, m -> {
      asked.append('[').append(m).append(']');
      return ErrorSignatures.classify(m);
    }, PeerAddresses::formServes);
  }
}
