package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The substring tests in front of the error expressions only skip work: on every message of the
 * real logs, every shape the per-kind benchmark prints, and every word-start suffix of them (a
 * WARN's signature may start anywhere), the guarded classification equals running every
 * expression. So does the remembered answer, given twice.
 */
class ErrorGuardsTest {
  static final List<String> SHAPES = List.of(
      "NET/IB : Got completion from peer 10.1.2.3<44206> with status=12 opcode=0 len=0 vendor err 129 (Send)",
      "NET/IB : Got completion from peer 10.1.2.3<44206> with error 12, opcode 0, len 0, vendor err 129 (Send)",
      "Call to ibv_modify_qp failed with error Connection timed out",
      "Call to ibv_reg_mr failed with error Cannot allocate memory",
      "socketStartConnect: Connect to 10.0.0.1<5555> failed : Software caused connection abort",
      "enqueue.cc:1093 Cuda failure 'out of memory'",
      "Cuda failure 'an illegal memory access was encountered'",
      "NET/IB : Got async event : port error",
      "NET/IB : Got async event : GID table change",
      "proxy.cc:1521 NCCL WARN [Proxy Service 3] Failed to execute operation Connect from rank 11, retcode 6",
      "[Service thread] Error encountered progressing operation=Connect, res=3, closing connection",
      "Invalid rank requested : 515/512",
      "Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 60",
      "Duplicate GPU detected : rank 12",
      "Error: failed to extend /dev/shm/nccl-IsmtU6 to 34210180 bytes, error: No space left on device (28)",
      "Error: failed to extend /dev/shm/nccl-x to 9637892 bytes",
      "Error while creating shared memory segment /dev/shm/nccl-x (size 34210176), error: No space left on device (28)",
      "Error while creating shared memory segment /dev/shm/nccl-x",
      "Call to posix_fallocate failed : No space left on device",
      "Error: failed to extend",
      "Error: network IB not found.",
      "transport/net.cc:1302 -> 6",
      "proxy.cc:698 -> 6 [Progress Thread]",
      "group.cc:64 -> 2 [Async thread]",
      "init.cc:1303 -> 0",
      "bootstrap.cc:270 -> 7",
      "Bootstrap : no socket interface found",
      "NET/Socket : no interface found",
      "No usable listening interface found",
      "Net : Connection closed by remote peer 10.0.0.2<4444>",
      "Connection reset by peer",
      "remote process exited or there was a network error",
      "Failed to open libibverbs.so[.1]",
      "Count not open libibverbs.so",
      "Failed to initialize NET plugin IB",
      "Failed to initialize any NET plugin",
      "External network plugin libnccl-net.so is unsupported",
      "NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory",
      "NET/Plugin : Plugin load returned 11 : undefined symbol: ncclNetPlugin_v9.",
      "NET/Plugin : Loaded net plugin NCCL RDMA Plugin v8 (v8)",
      "Successfully loaded external plugin libnccl-net.so",
      "P2P plugin v8 IBext_v8",
      "NET/IB : Unable to open device mlx5_1",
      "NET/IB : No IP interface found.",
      "NET/IB: ibv_query_gid failed: no valid GID",
      "Proxy Call to rank 3 failed (Connect)",
      // the connect and remote searches start from their literals: several, overlapping, out of order
      "Connect to 10.0.0.1<1> timed out, then connect to 10.0.0.2<2> failed : Connection refused",
      "reconnect to 10.0.0.4<4> failed",
      "Proxy Call to rank 5 failed (Timeout); Failed to execute operation Connect from rank 5",
      "Connection reset by peer after Connection closed by remote peer 10.0.0.3<3>",
      "connect to",
      "NET/IB : Got completion from peer 10.1.2.3<44206> with error 12, opcode 0, len 0, vendor err 129 (Send)",
      "Call to ibv_modify_qp failed with error peer 10.1.2.3<4> unreachable",
      "Cuda failure 'at 10.1.2.3'",
      "dlvsym failed on ncclNetPlugin_v8",
      "NET/IB : Got non-fatal async event : client reregistration",
      "NET/OFI Unable to register memory (type = 2) for device 0. RC: -22, Error: Invalid argument",
      "NET/OFI fi_mr_reg failed: Cannot allocate memory",
      // a detail that holds part of an address (a mask's digits) or digits of its own
      "NET/OFI fi_mr_reg failed: peer 10.1.2.3<40000> gone", "NET/OFI fi_mr_reg failed: mlx5_0 to 10.1.2.3 (rc 12)",
      "Call to ibv_modify_qp failed with error 110 to 10.1.2.3<4>",
      "NET/OFI Request completed with error. RC: 5. Error: Input/output error",
      "NET/OFI aws-ofi-nccl initialization failed",
      "NET/OFI Initializing plugin failed",
      "NET/OFI Selected Provider is efa (found 4 nics)",
      // 2.23+ async events (spec 4.7), and where their searches start: overlapping, repeated
      "NET/IB : mlx5_0:1 async fatal event on QP (0x55d0c1a2b3c4): IBV_EVENT_QP_FATAL",
      "NET/IB : mlx5_0:1 async fatal event on CQ (0x7f00aa): IBV_EVENT_CQ_ERR",
      "NET/IB : mlx5_0:1 Got async error event: local catastrophic error",
      "NET/IB : mlx5_0:1 Got non-fatal async event: GID table change(18)",
      "async async fatal event: x", "Got Got async event : y", "Got non-fatal async async event: z",
      "non-fatal async event, then Async event and a GID table change",
      "Got async error event on port 1 after async fatal event: QP fatal",
      "sync event async event: nothing routine",
      // numbers of four digits or more, masked: garbage after a failed completion, sizes, ranks, ids
      "NET/IB : Got completion from peer 10.216.210.236<54862> with status=5 opcode=32656 len=32659 vendor err 249 (Recv)"
          + " localGid fd00:1148:9000:5000:4:200:3:ff22 remoteGidsfd00:1148:9000:5000:4:200:3:ff1f",
      "NET/IB: Got completion from peer 10.0.0.1<1234> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0)"
          + " reqSize=1048576 vendor_err=129 req_type=Send localGid ::ffff:10.0.0.2 remoteGids::ffff:10.0.0.1 hca mlx5_0",
      "NET/IB : Got completion with error 4, opcode 1, len 21845, vendor err 81",
      "Invalid rank requested : 4100/4096",
      "Message truncated : received 1048576 bytes instead of 4096",
      "Call to ibv_modify_qp failed with error 11000",
      "transport/net_ib.cc:1302 -> 1234",
      "Cuda failure 1234 'unknown error'",
      "NET/Plugin: Plugin load returned 1234 : libnccl-net-9999.so: cannot open shared object file",
      "NET/OFI Unable to register memory (type = 2) for device 1234. RC: -2222, Error: Invalid argument",
      "Error: failed to extend /dev/shm/nccl-12345 to 34210180 bytes, error: No space left on device (28)");

  /** m with every run of four digits or more replaced by other digits (of another length, sometimes). */
  static String otherNumbers(String m, java.util.Random r) {
    java.util.regex.Matcher d = java.util.regex.Pattern.compile("\\d{4,}").matcher(m);
    StringBuilder b = new StringBuilder();
    while (d.find()) {
      int n = d.group().length() + (r.nextInt(4) == 0 ? r.nextInt(3) : 0);
      StringBuilder digits = new StringBuilder();
      for (int i = 0; i < n; i++) {
        digits.append((char) ('0' + r.nextInt(10)));
      }
      d.appendReplacement(b, digits.toString());
    }
    return d.appendTail(b).toString();
  }

  @Test
  void guardsChangeNoAnswer() throws IOException {
    Set<String> messages = new LinkedHashSet<>(SHAPES);
    for (Path log : realLogs()) {
      for (String line : new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\r?\n")) {
        messages.add(line.strip());
        for (String level : List.of("NCCL INFO ", "NCCL WARN ", "] INFO ", "] WARN ")) {
          int at = line.indexOf(level);
          if (at >= 0) {
            messages.add(line.substring(at + level.length()).strip());
          }
        }
      }
    }
    Set<String> all = new LinkedHashSet<>();
    for (String m : messages) {
      for (int i = 0; i < m.length(); i++) {
        if (i == 0 || m.charAt(i - 1) == ' ') {
          all.add(m.substring(i));
        }
      }
    }
    assertThat(all).hasSizeGreaterThan(10_000);
    SoftAssertions soft = new SoftAssertions();
    java.util.Random random = new java.util.Random(7);
    int errors = 0;
    int toldFromBytes = 0;
    for (String m : all) {
      ErrorSignatures.Outcome guarded = ErrorSignatures.classify(m);
      soft.assertThat(guarded).as(m).isEqualTo(ErrorSignatures.classify(m, false));
      // what the bytes alone tell (a new text not decoded) is what every expression says
      byte[] b = m.getBytes(StandardCharsets.UTF_8);
      if (b.length > 0 && ErrorSignatures.surelyUnknown(GuardWords.of(b, 0, b.length), b[0])) {
        toldFromBytes++;
        soft.assertThat(ErrorSignatures.classify(m, false)).as("unknown from its bytes: " + m)
            .isEqualTo(ErrorSignatures.Outcome.UNKNOWN);
      }
      // an answer looked up by the text with its peer addresses masked is the text's own, for any peer
      soft.assertThat(PeerAddresses.<ErrorSignatures.Outcome>lookUp(m, ErrorSignatures::classify, PeerAddresses::formServes)).as(m).isEqualTo(guarded);
      String otherPeer = m.replaceAll("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}", "192.168.201.7");
      soft.assertThat(PeerAddresses.<ErrorSignatures.Outcome>lookUp(otherPeer, ErrorSignatures::classify, PeerAddresses::formServes)).as(otherPeer)
          .isEqualTo(ErrorSignatures.classify(otherPeer));
      // and for any numbers of four digits or more (the form's answer serves only if it reads none)
      String otherNumbers = otherNumbers(otherPeer, random);
      soft.assertThat(PeerAddresses.<ErrorSignatures.Outcome>lookUp(otherNumbers, ErrorSignatures::classify, PeerAddresses::formServes))
          .as(otherNumbers).isEqualTo(ErrorSignatures.classify(otherNumbers));
      soft.assertThat(new OfiOutcomes(16).of(otherNumbers)).as(otherNumbers).isEqualTo(OfiOutcomes.classify(otherNumbers));
      soft.assertThat(ErrorMessages.recoverable(m, true)).as(m).isEqualTo(ErrorMessages.recoverable(m, false));
      soft.assertThat(OfiOutcomes.classify(m)).as(m).isEqualTo(OfiOutcomes.classify(m, false));
      soft.assertThat(new OfiOutcomes(16).of(m)).as(m).isEqualTo(OfiOutcomes.classify(m));
      soft.assertThat(new OfiOutcomes(16).of(otherPeer)).as(otherPeer).isEqualTo(OfiOutcomes.classify(otherPeer));
      errors += guarded.kind() != null ? 1 : 0;
    }
    soft.assertAll();
    assertThat(errors).as("messages with an error signature").isGreaterThan(100);
    assertThat(toldFromBytes).as("texts told unknown from their bytes").isGreaterThan(1000);
  }

  /**
   * A text MessageTexts keeps is looked up by its masked bytes: every shape, with new peers and
   * pointers each time and alone, counts the same errors as the text classified on its own.
   */
  @Test
  void aKeptTextCountsAsItsOwnClassification() {
    java.util.Random random = new java.util.Random(3);
    List<String> messages = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      for (String m : SHAPES) {
        messages.add(otherNumbers(m.replaceAll("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}", "10.7." + round + ".9")
            .replaceAll("0x[0-9a-f]{4,}", "0x55d0c1" + round + "b3c4"), random));
      }
    }
    messages.add("Call to ibv_modify_qp failed with error peer 10.1.2.3<4> unreachable");
    messages.add("Call to ibv_modify_qp failed with error peer 10.1.2.4<5> unreachable");
    LogAccumulator kept = new LogAccumulator();
    LogAccumulator own = new LogAccumulator();
    EvidenceSlot slot = new EvidenceSlot();
    slot.buf = new byte[0];
    MessageTexts texts = new MessageTexts();
    ErrorMessages viaSlot = new ErrorMessages(kept, slot, texts);
    ProcessState pk = kept.processes.get(null, -1, -1, -1, false);
    ProcessState po = own.processes.get(null, -1, -1, -1, false);
    for (String m : messages) {
      byte[] b = m.getBytes(StandardCharsets.UTF_8);
      int text = texts.find(b, 0, b.length);
      // a new ErrorMessages each time: nothing remembered, the text classified as it is
      boolean alone = new ErrorMessages(own, slot, new MessageTexts()).parse(po, m);
      assertThat(viaSlot.parse(pk, text)).as(m).isEqualTo(alone);
      assertThat(viaSlot.isRecoverable(text)).as(m).isEqualTo(ErrorMessages.recoverable(m, false));
    }
    assertThat(kept.errorLines).isEqualTo(own.errorLines).isGreaterThan(50);
    assertThat(kept.errors.values().stream().map(e -> e.kind + "/" + e.detail + "/" + e.status + "/" + e.evidence.count()))
        .containsExactlyElementsOf(own.errors.values().stream()
            .map(e -> e.kind + "/" + e.detail + "/" + e.status + "/" + e.evidence.count()).toList());
  }

  /**
   * A text new to MessageTexts takes the route its masked form took for the first text of that form
   * (RareMessages.parse): every message of the real logs and every shape goes where its masked forms
   * go, and where the same text with other peers, pointers and long numbers goes.
   */
  @Test
  void aTextsRouteIsItsMaskedFormsRoute() throws IOException {
    Set<String> messages = new LinkedHashSet<>(SHAPES);
    for (Path log : realLogs()) {
      for (String line : new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\r?\n")) {
        for (String level : List.of("NCCL INFO ", "NCCL WARN ", "] INFO ", "] WARN ")) {
          int at = line.indexOf(level);
          if (at >= 0 && at + level.length() < line.length()) {
            messages.add(line.substring(at + level.length()));
          }
        }
      }
    }
    RareMessages rare = new RareMessages(new LogAccumulator(), new EvidenceSlot(), new MessageTexts());
    java.util.Random random = new java.util.Random(5);
    SoftAssertions soft = new SoftAssertions();
    int masked = 0;
    for (String m : messages) {
      int route = rare.route(m);
      String form = PeerAddresses.masked(m);
      masked += form != m ? 1 : 0;
      soft.assertThat(rare.route(form)).as(form).isEqualTo(route);
      soft.assertThat(rare.route(PeerAddresses.maskedOtherwise(m))).as("otherwise: " + m).isEqualTo(route);
      String other = otherNumbers(m.replaceAll("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}", "172.16.254.3"), random);
      soft.assertThat(rare.route(other)).as(other).isEqualTo(route);
    }
    soft.assertAll();
    assertThat(masked).as("texts with something masked").isGreaterThan(100);
  }

  /** GuardWords' one pass finds what contains() finds, beyond ASCII too, in the text or its UTF-8 bytes. */
  @Test
  void guardWordsAreWhatContainsFinds() throws IOException {
    Set<String> messages = new LinkedHashSet<>(SHAPES);
    for (Path log : realLogs()) {
      messages.addAll(List.of(new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\r?\n")));
    }
    messages.addAll(List.of("GiD", "g\u0130d", "\u0120id", "Gi", "onnec", "Ünable to Unable to", "x \u2192 -> 1",
        "Call to ibv", "async", "\u00e1sync async ", "remote process exite"));
    String[] words = {"Call to ibv_", "Unable to", "No IP interface found", "Got completion ", "async ", null,
        "interface found", " -> ", "onnect", "remote process exited"};
    for (String m : messages) {
      int has = GuardWords.of(m);
      byte[] utf8 = ("x" + m + "y").getBytes(StandardCharsets.UTF_8);
      assertThat(GuardWords.of(utf8, 1, utf8.length - 1)).as("UTF-8 bytes of %s", m).isEqualTo(has);
      for (int w = 0; w < words.length; w++) {
        boolean expected = words[w] != null ? m.contains(words[w]) : hasGidInAnyCase(m);
        assertThat((has & 1 << w) != 0).as("%s in %s", words[w], m).isEqualTo(expected);
      }
    }
  }

  private static boolean hasGidInAnyCase(String m) {
    for (int i = 0; i + 3 <= m.length(); i++) {
      if ((m.charAt(i) | 0x20) == 'g' && (m.charAt(i + 1) | 0x20) == 'i' && (m.charAt(i + 2) | 0x20) == 'd') {
        return true;
      }
    }
    return false;
  }

  @Test
  void aRememberedTextCountsLikeTheFirstTime() {
    LogAccumulator acc = new LogAccumulator();
    EvidenceSlot slot = new EvidenceSlot();
    slot.buf = new byte[0];
    ErrorMessages errors = new ErrorMessages(acc, slot, new MessageTexts());
    ProcessState p = acc.processes.get(null, -1, -1, -1, false);
    for (String m : SHAPES) {
      boolean first = errors.parse(p, m);
      long counted = acc.errorLines;
      assertThat(errors.parse(p, m)).as(m).isEqualTo(first);
      assertThat(acc.errorLines - counted).as(m).isEqualTo(ErrorSignatures.classify(m).kind() == null ? 0 : 1);
    }
  }

  private static List<Path> realLogs() throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of("samples", "logs"))) {
      s.filter(p -> p.toString().endsWith(".log")).sorted().forEach(out::add);
    }
    try (Stream<Path> s = Files.walk(Path.of("samples", "corpus"), 2)) {
      s.filter(p -> p.getFileName().toString().startsWith("log") && Files.isRegularFile(p)).sorted().forEach(out::add);
    }
    assertThat(out).hasSizeGreaterThan(30);
    return out;
  }
}
