package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 12 item 1: the interface NCCL's handshake will use comes from NCCL_SOCKET_IFNAME applied
 * to the Pod's interfaces (prefix match, '^' exclusion, '=' exact), or NCCL's automatic order
 * when it is unset, and Q3 is judged on it. The healthy sample (lo, eth0 overlay, net1 on the
 * RDMA side) with only the variable changed.
 */
class SocketIfnameTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "NCCL_SOCKET_IFNAME={0} -> {1}, Q3 {2}")
  @CsvSource({
    "=net1, net1, yes",
    "net, net1, yes",
    "'^eth0,lo', net1, yes",
    "'^=eth0,lo', net1, yes",
    // NCCL does not skip an IPv4 loopback by itself: excluding only the overlay leaves lo first
    "^eth0, lo, no",
    "eth0, eth0, no",
    "=eth0, eth0, no",
    // unset: no ib* interface, so the first that is not docker* or lo: the overlay
    "'', eth0, no",
    // one character is ignored by NCCL: as unset
    "n, eth0, no",
  })
  void theHandshakeInterfaceIsTheOneNcclWillPick(String ifname, String picked, String q3Answer)
      throws Exception {
    Path root = tmp.resolve("capture");
    Captures.copyTree(Path.of("samples/captures/healthy-8hca-gdr-net1"), root);
    Path env = root.resolve(".nccl-triage/env");
    String text = Files.readString(env, StandardCharsets.UTF_8).replace("NCCL_SOCKET_IFNAME=net1\n", "")
        .replace("NCCL_SOCKET_IFNAME=net1", "");
    Files.writeString(env, text + (ifname.isEmpty() ? "" : "\nNCCL_SOCKET_IFNAME=" + ifname + "\n"),
        StandardCharsets.UTF_8);

    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");

    JsonNode doc = run.json();
    JsonNode q3 = null;
    for (JsonNode a : doc.at("/verdict/path")) {
      if (a.get("question").asText().equals("Q3-oob-interface")) {
        q3 = a;
      }
    }
    assertThat(q3).as("Q3 in %s", doc.at("/verdict/path")).isNotNull();
    assertThat(q3.get("answer").asText()).isEqualTo(q3Answer);
    assertThat(q3.get("evidence").get(0).get("text").asText()).startsWith("predicted " + picked + " ");
    // a handshake on the wrong interface is a warning (slow, flaky start), with the env var's fix
    // naming the Pod's RDMA-side interface; step 4 says which interface NCCL will pick, and warns
    String advice = doc.at("/verdict/advice").toString();
    JsonNode step4 = Captures.step(doc, 4);
    assertThat(step4.get("observed").asText()).contains("NCCL's handshake interface (predicted): " + picked + ";");
    // set by hand onto the overlay or lo beside net1: a configuration error (as lint's
    // K-socket-ifname-eth0 says of the manifest); NCCL's own choice when unset: Q3's warning
    boolean byHand = ifname.strip().length() > 1 && q3Answer.equals("no");
    assertThat(doc.at("/verdict/status").asText()).isEqualTo(byHand ? "problem" : "healthy");
    if (byHand) {
      assertThat(doc.at("/verdict/layer").asText()).isEqualTo("nccl-env");
      assertThat(doc.at("/verdict/candidates/0/rule").asText()).isEqualTo("L-pod-socket-ifname-overlay");
    }
    if (q3Answer.equals("no")) {
      assertThat(advice).containsPattern(" picks? " + picked + " ").contains("Set NCCL_SOCKET_IFNAME to the RDMA-side interface: net1");
      assertThat(step4.get("status").asText()).isEqualTo("warn");
    } else {
      assertThat(advice).doesNotContain("handshake");
      assertThat(step4.get("status").asText()).isEqualTo("pass");
    }
  }
}
