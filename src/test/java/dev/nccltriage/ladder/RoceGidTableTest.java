package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 7: {@code check} reads the RoCE ports' GID tables and says whether the index NCCL
 * will use holds the RoCE v2 IPv4-mapped GID. The capture is the H20 sample (8 ConnectX-7 VFs,
 * net1..net8 in the Pod, index 3 the RoCE v2 IPv4-mapped GID), with its env and tables varied.
 */
class RoceGidTableTest {
  private static final String SAMPLE = "h20-roce-vf-gid-index-0";
  private static final String ENV = "NCCL_DEBUG=INFO\nNCCL_SOCKET_IFNAME=net1\n";

  @TempDir Path tmp;

  private Path capture(String env) throws IOException {
    Path root = tmp.resolve("cap");
    Captures.copyTree(Captures.DIR.resolve(SAMPLE), root);
    Files.writeString(root.resolve(".nccl-triage/env"), env);
    return root;
  }

  private static Path port(Path root, String hca) {
    return root.resolve("sys/class/infiniband/" + hca + "/ports/1");
  }

  private static JsonNode check(Path root, int exit, String... more) {
    List<String> args = new ArrayList<>(List.of("check", "--root", root.toString(), "-o", "json"));
    args.addAll(List.of(more));
    CliRun run = CliRun.run(args.toArray(String[]::new));
    assertThat(run.stderr()).isEmpty();
    assertThat(run.exitCode()).as(run.stdout()).isEqualTo(exit);
    assertThat(Captures.schemaErrors(run.json())).isEmpty();
    return run.json();
  }

  private static String observed(JsonNode doc) {
    return Captures.step(doc, 3).get("observed").asText();
  }

  private static List<String> rules(JsonNode doc) {
    List<String> out = new ArrayList<>();
    doc.at("/verdict/findings").forEach(f -> out.add(f.get("rule").asText()));
    return out;
  }

  @Test
  void theSampleNamesTheIndexItSelectsAndTheOneThatHoldsTheRoutableGid() throws IOException {
    JsonNode doc = check(Captures.DIR.resolve(SAMPLE), 1);
    JsonNode v = doc.get("verdict");
    assertThat(v.get("layer").asText()).isEqualTo("nccl-env");
    assertThat(v.get("summary").asText()).startsWith("NCCL_IB_GID_INDEX=0 selects a link-local RoCE v1 GID on RoCE port(s)"
        + " mlx5_8/1, mlx5_9/1, mlx5_10/1").contains("not the RoCE v2 IPv4-mapped GID at index 3");
    assertThat(v.get("fix").asText()).startsWith("Set NCCL_IB_GID_INDEX=3,");
    assertThat(v.get("candidates").get(0).get("rule").asText()).isEqualTo("L-pod-gid-index-not-routable");
    assertThat(v.toString()).contains("/sys/class/infiniband/mlx5_8/ports/1/gids/0")
        .contains("RoCE v1, net1, fe80:0000:0000:0000:581e:7cff:fe42:9d01")
        .contains("/sys/class/infiniband/mlx5_8/ports/1/gids/3").contains("environment");
    assertThat(Captures.ladderStatuses(doc)).containsExactly("1:pass", "2:pass", "3:fail", "4:pass", "5:pass", "6:pass", "7:skip");
    assertThat(observed(doc)).endsWith("RoCE GIDs: RoCE v2 IPv4-mapped GID at index 3 on all 8 RoCE ports;"
        + " NCCL_IB_GID_INDEX=0 selects a link-local RoCE v1 GID on all 8");
    JsonNode gids = doc.at("/pod/gids");
    assertThat(gids.get("status").asText()).isEqualTo("ok");
    assertThat(gids.get("ports")).hasSize(8);
    JsonNode three = gids.at("/ports/0/gids/3");
    assertThat(three.get("index").asInt()).isEqualTo(3);
    assertThat(three.get("gid").asText()).isEqualTo("0000:0000:0000:0000:0000:ffff:ac10:0b0e");
    assertThat(three.get("ipv4").asText()).isEqualTo("172.16.11.14");
    assertThat(three.get("version").asInt()).isEqualTo(2);
    assertThat(three.get("netdev").asText()).isEqualTo("net1");
    assertThat(gids.at("/ports/0/gids")).hasSize(4);

    CliRun text = CliRun.run("check", "--root", Captures.DIR.resolve(SAMPLE).toString());
    assertThat(text.stdout()).contains("3. fail  rdma link / rdma system").contains("Set NCCL_IB_GID_INDEX=3");
  }

  @Test
  void indexThreeIsHealthy() throws IOException {
    JsonNode doc = check(capture(ENV + "NCCL_IB_GID_INDEX=3\n"), 0);
    assertThat(Captures.ladderStatuses(doc)).contains("3:pass");
    assertThat(observed(doc)).endsWith("NCCL_IB_GID_INDEX=3 selects it on all 8");
    assertThat(rules(doc)).noneMatch(r -> r.startsWith("L-pod-gid") || r.startsWith("L-pod-roce"));
  }

  @Test
  void theIpv4MappedRoceV1GidIsWrongToo() throws IOException {
    JsonNode doc = check(capture(ENV + "NCCL_IB_GID_INDEX=2\n"), 1);
    assertThat(doc.at("/verdict/summary").asText()).startsWith("NCCL_IB_GID_INDEX=2 selects an IPv4-mapped RoCE v1 GID");
  }

  @Test
  void anEmptySlotIsWrong() throws IOException {
    JsonNode doc = check(capture(ENV + "NCCL_IB_GID_INDEX=5\n"), 1);
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("nccl-env");
    assertThat(doc.at("/verdict/summary").asText()).startsWith("NCCL_IB_GID_INDEX=5 selects an empty slot");
    assertThat(doc.at("/verdict").toString()).contains("mlx5_8 port 1: empty slot 5");
  }

  @Test
  void unsetSaysWhatEachNcclWouldPickAndAnOldNcclInTheLogIsAProblem() throws IOException {
    Path root = capture(ENV);
    JsonNode doc = check(root, 0);
    assertThat(observed(doc)).endsWith("NCCL_IB_GID_INDEX unset: NCCL 2.21+ picks index 3 on all 8,"
        + " NCCL before 2.21 index 0 (a link-local RoCE v1 GID)");
    assertThat(Captures.ladderStatuses(doc)).contains("3:pass");

    Path old = tmp.resolve("old.log");
    Files.writeString(old, "trainer-worker-0:412:412 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n");
    JsonNode withLog = check(root, 1, "--log", old.toString());
    assertThat(withLog.at("/verdict/layer").asText()).isEqualTo("nccl-env");
    assertThat(rules(withLog)).contains("L-pod-gid-default-old-nccl");
    assertThat(withLog.at("/verdict").toString()).contains("NCCL 2.18.3 uses GID index 0 when NCCL_IB_GID_INDEX is unset")
        .contains("index 0 holds a link-local RoCE v1 GID");
    assertThat(Captures.ladderStatuses(withLog)).contains("3:fail");

    Path recent = tmp.resolve("recent.log");
    Files.writeString(recent, "trainer-worker-0:412:412 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n");
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json", "--log", recent.toString());
    assertThat(rules(run.json())).doesNotContain("L-pod-gid-default-old-nccl");
    assertThat(Captures.ladderStatuses(run.json())).contains("3:pass");
  }

  /** The index NCCL echoed in its log is the one judged (and named), as the env rules read it. */
  @Test
  void theIndexTheLogEchoesIsTheOneJudged() throws IOException {
    Path root = capture(ENV + "NCCL_IB_GID_INDEX=0\n");
    Path log = tmp.resolve("rank0.log");
    Files.writeString(log, "trainer-worker-0:412:412 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
        + "trainer-worker-0:412:412 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 3.\n");
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json", "--log", log.toString());
    assertThat(rules(run.json())).doesNotContain("L-pod-gid-index-not-routable");
    assertThat(observed(run.json())).endsWith("NCCL_IB_GID_INDEX=3 selects it on all 8");

    Files.writeString(log, "trainer-worker-0:412:412 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
        + "trainer-worker-0:412:412 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 1.\n");
    run = CliRun.run("check", "--root", capture2(ENV).toString(), "-o", "json", "--log", log.toString());
    assertThat(rules(run.json())).contains("L-pod-gid-index-not-routable");
    assertThat(run.json().at("/verdict").toString()).contains("NCCL_IB_GID_INDEX=1 selects a link-local RoCE v2 GID");
  }

  private Path capture2(String env) throws IOException {
    Path root = tmp.resolve("cap2");
    Captures.copyTree(Captures.DIR.resolve(SAMPLE), root);
    Files.writeString(root.resolve(".nccl-triage/env"), env);
    return root;
  }

  /** One VF whose netdev has its IPv4 GIDs at 4 and 5 (a second link-local address came first). */
  @Test
  void indexesThatDifferBetweenPortsLeaveNoOneIndexToSet() throws IOException {
    Path root = capture(ENV + "NCCL_IB_GID_INDEX=0\n");
    Path p = port(root, "mlx5_15");
    Files.writeString(p.resolve("gids/4"), Files.readString(p.resolve("gids/2")));
    Files.writeString(p.resolve("gids/5"), Files.readString(p.resolve("gids/3")));
    Files.writeString(p.resolve("gid_attrs/types/4"), "IB/RoCE v1\n");
    Files.writeString(p.resolve("gid_attrs/types/5"), "RoCE v2\n");
    Files.writeString(p.resolve("gid_attrs/ndevs/4"), "net8\n");
    Files.writeString(p.resolve("gid_attrs/ndevs/5"), "net8\n");
    Files.writeString(p.resolve("gids/2"), "fe80:0000:0000:0000:1186:a6b1:3f0b:c441\n");
    Files.writeString(p.resolve("gids/3"), "fe80:0000:0000:0000:1186:a6b1:3f0b:c441\n");
    JsonNode doc = check(root, 1);
    assertThat(rules(doc)).contains("L-pod-gid-index-differs").doesNotContain("L-pod-gid-index-not-routable");
    assertThat(doc.at("/verdict/fix").asText()).startsWith("Unset NCCL_IB_GID_INDEX");
    assertThat(observed(doc)).contains("RoCE v2 IPv4-mapped GID at index 3 or 5 on all 8 RoCE ports");
  }

  /**
   * net4 lost its IPv4 address (its GIDs 2 and 3 are gone) while the others kept theirs: only the
   * GID table shows that RoCE on mlx5_11 has nothing routable, and the cause is IPAM.
   */
  @Test
  void aRoceNetdevWithoutIpv4BesideOthersIsIpam() throws IOException {
    Path root = capture(ENV + "NCCL_IB_GID_INDEX=3\n");
    Path p = port(root, "mlx5_11");
    for (int i : new int[] {2, 3}) {
      Files.writeString(p.resolve("gids/" + i), "0000:0000:0000:0000:0000:0000:0000:0000\n");
      Files.delete(p.resolve("gid_attrs/types/" + i));
      Files.delete(p.resolve("gid_attrs/ndevs/" + i));
    }
    Path ip = root.resolve(".nccl-triage/commands/ip_-j_addr_show/stdout");
    ArrayNode ifs = (ArrayNode) Captures.JSON.readTree(Files.readString(ip));
    for (JsonNode i : ifs) {
      if (i.get("ifname").asText().equals("net4")) {
        ArrayNode addrs = (ArrayNode) i.get("addr_info");
        addrs.remove(0);
        assertThat(addrs.get(0).get("family").asText()).isEqualTo("inet6");
      }
    }
    Files.writeString(ip, ifs.toString(), StandardCharsets.UTF_8);
    JsonNode doc = check(root, 1);
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("pod-network");
    assertThat(rules(doc)).contains("L-pod-roce-no-routable-gid")
        .doesNotContain("L-pod-rdma-netdev-no-address", "L-pod-no-secondary-interface", "L-pod-gid-index-not-routable");
    assertThat(doc.at("/verdict/summary").asText()).startsWith("RoCE port(s) mlx5_11/1 have no RoCE v2 IPv4-mapped GID")
        .contains("IPAM");
    assertThat(Captures.ladderStatuses(doc)).contains("3:warn", "4:warn");
    assertThat(observed(doc)).contains("at index 3 on 7 of 8 RoCE ports, none on mlx5_11/1");
  }

  /**
   * Attribute files a real kernel refuses (EINVAL) or a hostile capture garbles: an unreadable type,
   * a binary GID, a GID file of 2 MiB. The entries are unknown, never wrong or missing, and the other
   * ports are still judged.
   */
  @Test
  void unreadableGarbledAndHugeEntriesAreUnknownNotWrong() throws IOException {
    Path root = capture(ENV + "NCCL_IB_GID_INDEX=0\n");
    Path types3 = port(root, "mlx5_8").resolve("gid_attrs/types/3");
    Files.delete(types3);
    Files.createDirectory(types3); // a read error, as EINVAL is on a live host
    Files.write(port(root, "mlx5_9").resolve("gids/3"), new byte[] {0, 1, (byte) 0xff, '\n'});
    Files.writeString(port(root, "mlx5_10").resolve("gids/3"), "0000:0000:0000:0000:0000:ffff:ac10:0d0e".repeat(55_000));
    JsonNode doc = check(root, 1);
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("nccl-env");
    assertThat(observed(doc)).contains("at index 3 on 5 of 8 RoCE ports").contains("GID type unreadable on mlx5_8/1")
        .contains("none on mlx5_9/1, mlx5_10/1");
    assertThat(doc.at("/pod/gids/ports/0/gids/3/version").isNull()).isTrue();
    assertThat(doc.at("/pod/gids/ports/1/gids")).hasSize(3);
    assertThat(doc.at("/verdict/summary").asText()).doesNotContain("mlx5_8/1");
  }

  /** A capture that holds show_gids output but no sysfs table (a support bundle): the same finding. */
  @Test
  void recordedShowGidsOutputStandsInForMissingSysfsTables() throws IOException {
    Path root = capture(ENV + "NCCL_IB_GID_INDEX=0\n");
    StringBuilder out = new StringBuilder("DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
        + "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\n");
    for (int n = 8; n <= 15; n++) {
      Path p = port(root, "mlx5_" + n);
      for (int i = 0; i < 4; i++) {
        String gid = Files.readString(p.resolve("gids/" + i)).strip();
        String ver = Files.readString(p.resolve("gid_attrs/types/" + i)).contains("v2") ? "v2" : "v1";
        String v4 = i < 2 ? "" : "172.16." + (n + 3) + ".14";
        out.append("mlx5_").append(n).append("\t1\t").append(i).append('\t').append(gid).append('\t').append(v4)
            .append(i < 2 ? "\t\t" : "  \t").append(ver).append("\tnet").append(n - 7).append('\n');
      }
      Captures.deleteTree(p.resolve("gids"));
      Captures.deleteTree(p.resolve("gid_attrs"));
    }
    Path cmd = Files.createDirectories(root.resolve(".nccl-triage/commands/show_gids"));
    Files.writeString(cmd.resolve("argv"), "show_gids\n");
    Files.writeString(cmd.resolve("stdout"), out.toString());
    Files.writeString(cmd.resolve("stderr"), "");
    Files.writeString(cmd.resolve("exit"), "0\n");
    JsonNode doc = check(root, 1);
    assertThat(doc.at("/verdict/summary").asText()).startsWith("NCCL_IB_GID_INDEX=0 selects a link-local RoCE v1 GID");
    assertThat(doc.at("/verdict/fix").asText()).startsWith("Set NCCL_IB_GID_INDEX=3,");
    assertThat(doc.at("/pod/gids/ports/0/source").asText()).isEqualTo("show_gids");
    assertThat(doc.at("/pod/gids/ports/0/gids/3/ipv4").asText()).isEqualTo("172.16.11.14");
    assertThat(doc.at("/verdict").toString()).contains("\"source\":\"show_gids\"");

    Captures.deleteTree(cmd);
    JsonNode none = check(root, 0);
    assertThat(observed(none)).endsWith("RoCE GIDs: no GID table readable (no ports/<n>/gids/ in sysfs)");
  }

  @Test
  void anInfinibandNodeHasNoRoceGids() {
    JsonNode doc = check(Captures.DIR.resolve("healthy-8hca-gdr-net1"), 0);
    assertThat(observed(doc)).endsWith("RoCE GIDs: no RoCE port");
    assertThat(doc.at("/pod/gids/status").asText()).isEqualTo("n/a");
  }

  @Test
  void portsNcclIsToldToSkipAreNotJudged() throws IOException {
    JsonNode doc = check(capture(ENV + "NCCL_IB_GID_INDEX=0\nNCCL_IB_HCA=^=mlx5_8,mlx5_9\n"), 1);
    assertThat(doc.at("/verdict/summary").asText()).contains("RoCE port(s) mlx5_10/1, mlx5_11/1")
        .doesNotContain("mlx5_8/1").doesNotContain("mlx5_9/1");
    assertThat(observed(doc)).contains("on all 6 RoCE ports");
  }
}
