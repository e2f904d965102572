package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nccltriage.cli.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 6: a RoCE netdev that is in the Pod but has no IP address (so no RoCE v2 GID) was
 * attached; IPAM did not configure it. The fix is the NetworkAttachmentDefinition's IPAM, not
 * "add the Multus annotation". The capture is the RoCE sample with every port's netdev moved into
 * the Pod (net1..net8, link-local IPv6 only).
 */
class RoceNetdevWithoutAddressTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void anAttachedNetdevWithoutAnAddressIsIpamNotTheAnnotation() throws Exception {
    Path root = tmp.resolve("capture");
    Captures.copyTree(Path.of("samples/captures/roce-exclusive-netdev-outside"), root);
    Path commands = root.resolve(".nccl-triage/commands");
    ArrayNode links = (ArrayNode) JSON.readTree(read(commands.resolve("rdma_-j_link_show/stdout")));
    ArrayNode ifs = (ArrayNode) JSON.readTree(read(commands.resolve("ip_-j_addr_show/stdout")));
    int n = 0;
    for (JsonNode l : links) {
      String netdev = "net" + ++n;
      ((ObjectNode) l).put("netdev", netdev).put("netdev_index", 100 + n);
      ObjectNode i = ifs.addObject().put("ifindex", 100 + n).put("ifname", netdev).put("mtu", 9000)
          .put("operstate", "UP").put("link_type", "ether").put("address", "0e:00:00:00:00:0" + n);
      i.putArray("flags").add("BROADCAST").add("MULTICAST").add("UP").add("LOWER_UP");
      i.putArray("addr_info").addObject().put("family", "inet6").put("local", "fe80::c00:ff:fe00:" + n)
          .put("prefixlen", 64).put("scope", "link");
    }
    Files.writeString(commands.resolve("rdma_-j_link_show/stdout"), links.toString(), StandardCharsets.UTF_8);
    Files.writeString(commands.resolve("ip_-j_addr_show/stdout"), ifs.toString(), StandardCharsets.UTF_8);

    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    JsonNode v = run.json().get("verdict");
    assertThat(v.get("layer").asText()).isEqualTo("pod-network");
    assertThat(v.toString()).contains("IPAM").contains("net1").doesNotContain("Add the Multus annotation");
    assertThat(Captures.step(run.json(), 4).get("status").asText()).isEqualTo("warn");
    // the finding cites the netdevs without an address, not the Pod's first interfaces (lo, eth0)
    JsonNode lint = SecondaryLinkDownTest.candidate(run.json(), "L-pod-rdma-netdev-no-address");
    assertThat(lint.get("evidence").get(0).get("text").asText()).startsWith("net1 <").contains("scope link");
    assertThat(lint.get("why").asText()).startsWith("The Pod's RDMA netdev(s) net1, net2,").contains(" have no ");
  }

  private static String read(Path p) throws java.io.IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
