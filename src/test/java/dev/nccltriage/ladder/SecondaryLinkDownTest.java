package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 5: the healthy capture with its Multus net1 down (the VF's PF lost its link, or the
 * CNI never set it UP). The address stays on the interface, so it used to pass step 4; it fails,
 * naming net1 and its state, and the verdict is a problem with a fix for the link.
 */
class SecondaryLinkDownTest {
  private static final String NET1_UP = "\"ifname\":\"net1\",\"flags\":[\"BROADCAST\",\"MULTICAST\",\"UP\",\"LOWER_UP\"],"
      + "\"mtu\":9000,\"qdisc\":\"noqueue\",\"operstate\":\"UP\"";
  private static final String NET1_TEXT_UP = "net1@if5: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc noqueue state UP";

  @TempDir Path dir;

  private Path capture(String jsonFlags, String jsonState, String textFlags, String textState, boolean json)
      throws IOException {
    Path root = dir.resolve("cap");
    Captures.copyTree(Captures.DIR.resolve("healthy-8hca-gdr-net1"), root);
    Path cmds = root.resolve(".nccl-triage/commands");
    Path js = cmds.resolve("ip_-j_addr_show/stdout");
    String j = Files.readString(js);
    assertThat(j).contains(NET1_UP);
    Files.writeString(js, j.replace(NET1_UP, "\"ifname\":\"net1\",\"flags\":[" + jsonFlags + "],"
        + "\"mtu\":9000,\"qdisc\":\"noqueue\",\"operstate\":\"" + jsonState + "\""));
    if (!json) {
      Files.writeString(cmds.resolve("ip_-j_addr_show/exit"), "1\n");
      Files.writeString(cmds.resolve("ip_-j_addr_show/stdout"), "");
      Files.writeString(cmds.resolve("ip_-j_addr_show/stderr"), "Option \"-j\" is unknown, try \"ip -help\".\n");
    }
    Path ts = cmds.resolve("ip_addr_show/stdout");
    String t = Files.readString(ts);
    assertThat(t).contains(NET1_TEXT_UP);
    Files.writeString(ts, t.replace(NET1_TEXT_UP, "net1@if5: <" + textFlags + "> mtu 9000 qdisc noqueue state " + textState));
    Files.writeString(root.resolve("sys/class/net/net1/operstate"), jsonState.toLowerCase() + "\n");
    return root;
  }

  static JsonNode candidate(JsonNode doc, String rule) {
    for (JsonNode c : doc.at("/verdict/candidates")) {
      if (c.get("rule").asText().equals(rule)) {
        return c;
      }
    }
    throw new AssertionError("no candidate " + rule + " in " + doc.at("/verdict/candidates"));
  }

  private static void assertLinkDown(Path root, String state) {
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    JsonNode doc = run.json();
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
    assertThat(Captures.ladderStatuses(doc)).contains("4:fail");
    String all = doc.toString();
    assertThat(all).contains("net1 (" + state + ")");
    assertThat(doc.get("verdict").toString()).contains("net1 (" + state + ")");
    // the finding cites the interface itself, with the flags and state that say it is down
    JsonNode lint = candidate(doc, "L-pod-secondary-link-down");
    assertThat(lint.get("evidence")).isNotEmpty()
        .allSatisfy(e -> assertThat(e.get("text").asText()).startsWith("net1 <").contains("state "));

    CliRun text = CliRun.run("check", "--root", root.toString());
    assertThat(text.stdout()).contains("4. fail  interfaces").contains("net1 (" + state + ")").contains("PF");
  }

  @Test
  void aMultusInterfaceWithNoCarrierFailsStepFour() throws IOException {
    Path root = capture("\"NO-CARRIER\",\"BROADCAST\",\"MULTICAST\",\"UP\"", "DOWN",
        "NO-CARRIER,BROADCAST,MULTICAST,UP", "DOWN", true);
    assertLinkDown(root, "DOWN, NO-CARRIER");
  }

  @Test
  void theTextFormOfIpAddrSaysTheSame() throws IOException {
    Path root = capture("\"NO-CARRIER\",\"BROADCAST\",\"MULTICAST\",\"UP\"", "DOWN",
        "NO-CARRIER,BROADCAST,MULTICAST,UP", "DOWN", false);
    assertLinkDown(root, "DOWN, NO-CARRIER");
  }

  @Test
  void anInterfaceNobodySetUpFailsToo() throws IOException {
    Path root = capture("\"BROADCAST\",\"MULTICAST\"", "DOWN", "BROADCAST,MULTICAST", "DOWN", true);
    assertLinkDown(root, "DOWN, not set UP");
  }

  @Test
  void theHealthyCaptureStillPassesStepFour() {
    CliRun run = CliRun.run("check", "--root", Captures.DIR.resolve("healthy-8hca-gdr-net1").toString(), "-o", "json");
    assertThat(run.exitCode()).isZero();
    assertThat(Captures.ladderStatuses(run.json())).contains("4:pass");
  }
}
