package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {
  @TempDir
  Path tmp;

  static final String POD = "trainer-job-worker-0";
  static final String NODE = "gpu-node-17";

  /** Everything that identifies the site, in every spelling the capture uses. */
  static final List<String> ORIGINALS = List.of(POD, NODE, "10.244.1.5", "10.244.1.255", "192.168.100.5",
      "192.168.100.255", "172.31.7.9", "0a:58:0a:f4:01:05", "b8:3f:d2:12:34:56", "B8:3F:D2:12:34:57",
      "fe80::858:aff:fef4:105", "858:aff:fef4:105", "fd00:abcd:1::5", "fd00:abcd", "b83f:d203:0012:3456",
      "b83fd20300123456", "b83fd20300123457", "b83f:d203:0012:3457", "c0a8:6405", "c0a8:64ff", "d2:03:00:12:34:56",
      "184:63:210", "0858:0aff:fef4:0105");

  static final String LIMITS = ""
      + "Limit                     Soft Limit           Hard Limit           Units     \n"
      + "Max cpu time              unlimited            unlimited            seconds   \n"
      + "Max processes             2061353              2061353              processes \n"
      + "Max open files            1048576              1048576              files     \n"
      + "Max locked memory         8388608              8388608              bytes     \n"
      + "Max address space         unlimited            unlimited            bytes     \n"
      + "Max pending signals       2061353              2061353              signals   \n"
      + "Max msgqueue size         819200               819200               bytes     \n";

  static final String NVIDIA = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build"
      + "  (dvs-builder@U16-I2-C03-12-4)  Thu Feb 22 01:25:25 UTC 2024\nGCC version:  gcc version 12.3.0 "
      + "(Ubuntu 12.3.0-1ubuntu1~22.04) \n";

  private Path capture() throws IOException {
    Path c = tmp.resolve("capture");
    put(c, "proc/sys/kernel/hostname", POD + "\n");
    put(c, "etc/hostname", POD + "\n");
    put(c, "proc/sys/kernel/osrelease", "5.15.0-105-generic\n");
    put(c, "proc/self/limits", LIMITS);
    put(c, "proc/self/status", "Name:\tjava\nCapInh:\t0000000000000000\nCapEff:\t00000000a80425fb\n");
    put(c, "proc/driver/nvidia/version", NVIDIA);
    put(c, "sys/module/nvidia_peermem/version", "550.54.15\n");
    put(c, "proc/modules", "nvidia_peermem 16384 0 - Live 0x0000000000000000 (OE)\n"
        + "mlx5_ib 483328 0 - Live 0xffffffffc0a3b000\n");
    String dev = "sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/";
    put(c, dev + "node_guid", "b83f:d203:0012:3456\n");
    put(c, dev + "ports/1/gids/0", "fe80:0000:0000:0000:b83f:d203:0012:3456\n");
    put(c, dev + "ports/1/gids/1", "fe80:0000:0000:0000:0858:0aff:fef4:0105\n");
    put(c, dev + "ports/1/gids/3", "0000:0000:0000:0000:0000:ffff:c0a8:6405\n");
    put(c, dev + "ports/1/gids/4", "0000:0000:0000:0000:0000:0000:0000:0000\n");
    put(c, dev + "ports/1/rate", "400 Gb/sec (4X NDR)\n");
    put(c, dev + "ports/1/state", "4: ACTIVE\n");
    Files.createDirectories(c.resolve("sys/class/infiniband"));
    Files.createSymbolicLink(c.resolve("sys/class/infiniband/mlx5_0"),
        Path.of("../../devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0"));
    put(c, "sys/class/net/net1/address", "b8:3f:d2:12:34:56\n");
    put(c, "sys/class/net/by-mac/b8:3f:d2:12:34:56", "net1\n"); // a file named after a MAC
    put(c, "dev/infiniband/uverbs0", "");
    put(c, "var/log/nccl-" + POD + ".log", ""
        + POD + ":1234:1290 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
        + POD + ":1234:1290 [0] NCCL INFO Bootstrap : Using eth0:10.244.1.5<0>\n"
        + POD + ":1234:1290 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB net1:192.168.100.5<0>\n"
        + POD + ":1234:1290 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [send] via NET/IB/0/GDRDMA\n"
        + "[pod/" + POD + "/trainer] " + NODE.toUpperCase(Locale.ROOT) + " peer 172.31.7.9:29500\n");
    Files.createSymbolicLink(c.resolve("latest.log"), Path.of("var/log/nccl-" + POD + ".log"));
    cmd(c, "ip_-j_addr_show", "[{\"ifindex\":1,\"ifname\":\"lo\",\"address\":\"00:00:00:00:00:00\","
        + "\"addr_info\":[{\"family\":\"inet\",\"local\":\"127.0.0.1\",\"prefixlen\":8},{\"family\":\"inet6\","
        + "\"local\":\"::1\",\"prefixlen\":128}]},{\"ifindex\":3,\"link_index\":356,\"ifname\":\"eth0\","
        + "\"address\":\"0a:58:0a:f4:01:05\",\"broadcast\":\"ff:ff:ff:ff:ff:ff\",\"addr_info\":[{\"family\":\"inet\","
        + "\"local\":\"10.244.1.5\",\"prefixlen\":24,\"broadcast\":\"10.244.1.255\"},{\"family\":\"inet6\","
        + "\"local\":\"fe80::858:aff:fef4:105\",\"prefixlen\":64}]},{\"ifindex\":269,\"ifname\":\"net1\","
        + "\"address\":\"b8:3f:d2:12:34:56\",\"addr_info\":[{\"family\":\"inet\",\"local\":\"192.168.100.5\","
        + "\"prefixlen\":24},{\"family\":\"inet6\",\"local\":\"fd00:abcd:1::5\",\"prefixlen\":64}]}]\n");
    cmd(c, "ip_addr_show", ""
        + "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n"
        + "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n"
        + "    inet 127.0.0.1/8 scope host lo\n"
        + "    inet6 ::1/128 scope host\n"
        + "3: eth0@if356: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default\n"
        + "    link/ether 0a:58:0a:f4:01:05 brd ff:ff:ff:ff:ff:ff link-netnsid 0\n"
        + "    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0\n"
        + "       valid_lft forever preferred_lft forever\n"
        + "    inet6 fe80::858:aff:fef4:105/64 scope link\n"
        + "269: net1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP group default qlen 1000\n"
        + "    link/ether b8:3f:d2:12:34:56 brd ff:ff:ff:ff:ff:ff\n"
        + "    inet 192.168.100.5/24 brd 192.168.100.255 scope global net1\n"
        + "    inet6 fd00:abcd:1::5/64 scope global\n"
        + "5: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 2044 qdisc mq state UP group default qlen 256\n"
        + "    link/infiniband 00:00:10:29:fe:80:00:00:00:00:00:00:b8:3f:d2:03:00:12:34:56 brd "
        + "00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff\n"
        + "6: eth9: <BROADCAST> mtu 1500 state DOWN\n"
        + "    link/ether B8:3F:D2:12:34:57 brd ff:ff:ff:ff:ff:ff\n"
        + "    inet 0.0.0.0/0 scope global eth9\n");
    cmd(c, "ibv_devinfo_-v", ""
        + "hca_id:\tmlx5_0\n\ttransport:\t\t\tInfiniBand (0)\n\tfw_ver:\t\t\t\t28.39.1002\n"
        + "\tnode_guid:\t\t\tb83f:d203:0012:3456\n\tsys_image_guid:\t\t\tb83f:d203:0012:3456\n"
        + "\tvendor_id:\t\t\t0x02c9\n\tvendor_part_id:\t\t\t4129\n\thw_ver:\t\t\t\t0x0\n"
        + "\tmax_mr_size:\t\t\t0xffffffffffffffff\n\tpage_size_cap:\t\t\t0xfffffffffffff000\n"
        + "\tcompletion_timestamp_mask:\t\t\t0x7fffffffffffffff\n"
        + "\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tactive_speed:\t\t100.0 Gbps (128)\n"
        + "\t\t\tlink_layer:\t\tEthernet\n"
        + "\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:b83f:d203:0012:3456, RoCE v1\n"
        + "\t\t\tGID[  3]:\t\t0000:0000:0000:0000:0000:ffff:c0a8:6405, 192.168.100.5\n");
    cmd(c, "show_gids", "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
        + "mlx5_0\t1\t3\t0000:0000:0000:0000:0000:ffff:c0a8:6405\t192.168.100.5  \tv2\tnet1\n"
        + "mlx5_0\t1\t5\t0000:0000:0000:0000:0000:ffff:c0a8:64ff\t192.168.100.255\tv2\tnet1\n");
    cmd(c, "ibstat", "CA 'mlx5_0'\n\tNode GUID: 0xb83fd20300123456\n\tSystem image GUID: 0xb83fd20300123456\n"
        + "\tPort 1:\n\t\tPort GUID: 0xb83fd20300123457\n\t\tLink layer: Ethernet\n");
    cmd(c, "rdma_link_show", "link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 12 sm_lid 1 lmc 0 state ACTIVE "
        + "physical_state LINK_UP netdev net1 \nlink mlx5_1/1 subnet_prefix fe80:0000:0000:0000 lid 13 "
        + "port_guid b83f:d203:0012:3457\n");
    cmd(c, "ib_write_bw", " local address: LID 0000 QPN 0x0108 PSN 0x6a1b2c\n"
        + " GID: 254:128:00:00:00:00:00:00:184:63:210:03:00:18:52:86\n");
    cmd(c, "lspci", "0000:18:00.0 Infiniband controller: Mellanox Technologies MT2910 Family [ConnectX-7]\n"
        + "Kernel driver in use: mlx5_core\nMLNX_OFED_LINUX-5.8-1.0.1.1 (OFED-5.8-1.0.1) at 12:34:56.789\n");
    put(c, CaptureLayout.ENV, "NCCL_SOCKET_IFNAME=net1\nNCCL_IB_HCA==mlx5_0:1\nNCCL_COMM_ID=192.168.100.5:29500\n");
    put(c, CaptureLayout.OPENS, "/dev/infiniband/uverbs0\tok\n");
    CaptureMeta.merge(c, Map.of("tool", "nccl-triage 0.1.0", "hostname", POD, "time", "2024-05-01T12:34:56Z"));
    return c;
  }

  private static void put(Path c, String rel, String content) throws IOException {
    Path p = c.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
  }

  private static void cmd(Path c, String key, String stdout) throws IOException {
    put(c, CaptureLayout.COMMANDS + "/" + key + "/stdout", stdout);
    put(c, CaptureLayout.COMMANDS + "/" + key + "/stderr", "");
    put(c, CaptureLayout.COMMANDS + "/" + key + "/exit", "0\n");
  }

  /** Every relative path, link target and file content of the capture, as one searchable text. */
  private static String everything(Path c) throws IOException {
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> s = Files.walk(c)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        sb.append("\n@@ ").append(c.relativize(p)).append('\n');
        if (Files.isSymbolicLink(p)) {
          sb.append("-> ").append(Files.readSymbolicLink(p)).append('\n');
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          sb.append(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
        }
      }
    }
    return sb.toString();
  }

  private static String read(Path c, String rel) throws IOException {
    return Files.readString(c.resolve(rel), StandardCharsets.UTF_8);
  }

  private static String stdout(Path c, String key) throws IOException {
    return read(c, CaptureLayout.COMMANDS + "/" + key + "/stdout");
  }

  private static String group(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as("%s in %s", regex, text).isTrue();
    return m.group(1);
  }

  /** Issue 11, item 1 (numbers out of range): a dotted quad whose parts fit no octet is not an address. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {
      "99999999999.1.1.1", "4294967296.0.0.1", "1.2.3.2147483648", "1.2.3.-1", "1..2.3", "256.1.1.1"})
  void dottedQuadsThatFitNoOctetAreNotAddresses(String text) {
    assertThat(Ipv6.parseV4(text)).isEqualTo(-1);
    assertThat(Ipv6.parseV6("::ffff:" + text)).isNull();
    assertThat(new Redactor().redact("inet6 ::ffff:" + text + "/96 scope global")).contains(text);
  }

  @Test
  void redactedCaptureKeepsNoOriginalAnywhere() throws IOException {
    Path c = capture();
    String before = everything(c).toLowerCase(Locale.ROOT);
    for (String o : ORIGINALS) {
      assertThat(before).as("seed contains %s", o).contains(o.toLowerCase(Locale.ROOT));
    }
    Redactor r = new Redactor();
    r.addHostname(NODE);
    r.redactTree(c);

    String after = everything(c).toLowerCase(Locale.ROOT);
    for (String o : ORIGINALS) {
      assertThat(after).as("original %s left", o).doesNotContain(o.toLowerCase(Locale.ROOT));
    }
    assertThat(CaptureMeta.read(c)).containsEntry("redacted", "true").containsEntry("tool", "nccl-triage 0.1.0");
  }

  @Test
  void sameValueSameTokenEverywhere() throws IOException {
    Path c = capture();
    Redactor r = new Redactor();
    r.addHostname(NODE);
    r.redactTree(c);

    // host names: content, file name, link target, properties (the node name was added first)
    assertThat(read(c, "proc/sys/kernel/hostname")).isEqualTo("host-2\n");
    assertThat(read(c, "etc/hostname")).isEqualTo("host-2\n");
    assertThat(c.resolve("var/log/nccl-host-2.log")).exists();
    assertThat(Files.readSymbolicLink(c.resolve("latest.log")).toString()).isEqualTo("var/log/nccl-host-2.log");
    assertThat(c.resolve("latest.log")).exists();
    assertThat(CaptureMeta.read(c)).containsEntry("hostname", "host-2");
    String log = read(c, "var/log/nccl-host-2.log");
    assertThat(log).contains("host-2:1234:1290 [0] NCCL INFO NCCL version 2.21.5+cuda12.4", "[pod/host-2/trainer] host-1 ");

    // IPv4: net1's address is one token in ip -j, ip text, ibv_devinfo, show_gids, the NCCL log, env
    String json = stdout(c, "ip_-j_addr_show");
    String text = stdout(c, "ip_addr_show");
    String net1 = group(json, "\"local\":\"(198\\.1[89]\\.\\d+\\.\\d+)\",\"prefixlen\":24},\\{\"family\":\"inet6\",\"local\":\"2001");
    String eth0 = group(json, "\"local\":\"(198\\.1[89]\\.\\d+\\.\\d+)\",\"prefixlen\":24,\"broadcast\"");
    assertThat(net1).isNotEqualTo(eth0);
    assertThat(text).contains("inet " + net1 + "/24 brd ", "inet " + eth0 + "/24 brd ", "inet 127.0.0.1/8",
        "inet6 ::1/128", "inet 0.0.0.0/0");
    assertThat(log).contains("OOB net1:" + net1 + "<0>", "Using eth0:" + eth0 + "<0>");
    assertThat(read(c, CaptureLayout.ENV)).contains("NCCL_COMM_ID=" + net1 + ":29500", "NCCL_IB_HCA==mlx5_0:1");
    assertThat(stdout(c, "ibv_devinfo_-v")).contains(", " + net1 + "\n");
    String[] o = net1.split("\\.");
    String mappedGid = String.format("0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", Integer.parseInt(o[0]),
        Integer.parseInt(o[1]), Integer.parseInt(o[2]), Integer.parseInt(o[3]));
    assertThat(stdout(c, "show_gids")).contains("\t" + mappedGid + "\t" + net1 + "  \tv2\tnet1\n");
    assertThat(stdout(c, "ibv_devinfo_-v")).contains("GID[  3]:\t\t" + mappedGid + ", ");
    String dev = "sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/";
    assertThat(read(c, dev + "ports/1/gids/3")).isEqualTo(mappedGid + "\n");

    // MAC: same token in ip -j, ip text, sysfs, and the file name; shape 02:00:00:00:NN:NN
    String mac = group(json, "\"ifname\":\"net1\",\"address\":\"([0-9a-f:]+)\"");
    assertThat(mac).matches("02:00:00:00:[0-9a-f]{2}:[0-9a-f]{2}");
    assertThat(text).contains("link/ether " + mac + " brd ff:ff:ff:ff:ff:ff\n    inet " + net1);
    assertThat(read(c, "sys/class/net/net1/address")).isEqualTo(mac + "\n");
    assertThat(c.resolve("sys/class/net/by-mac/" + mac)).hasContent("net1");
    assertThat(text).containsPattern("link/ether 02:00:00:00:[0-9A-F]{2}:[0-9A-F]{2} brd"); // upper case stays upper

    // GUID: the colon form, the 0x form, the GID interface id and the IPoIB address agree
    String guid = group(stdout(c, "ibv_devinfo_-v"), "node_guid:\\t+([0-9a-f:]+)\\n");
    assertThat(guid).matches("0000:0000:0000:[0-9a-f]{4}");
    assertThat(stdout(c, "ibv_devinfo_-v")).contains("sys_image_guid:\t\t\t" + guid + "\n",
        "GID[  0]:\t\tfe80:0000:0000:0000:" + guid + ", RoCE v1");
    assertThat(read(c, dev + "node_guid")).isEqualTo(guid + "\n");
    assertThat(read(c, dev + "ports/1/gids/0")).isEqualTo("fe80:0000:0000:0000:" + guid + "\n");
    String hex = guid.replace(":", "");
    assertThat(stdout(c, "ibstat")).contains("Node GUID: 0x" + hex, "System image GUID: 0x" + hex)
        .doesNotContain("Port GUID: 0x" + hex);
    String ipoib = hex.replaceAll("(..)(?!$)", "$1:");
    assertThat(text).contains("link/infiniband 00:00:10:29:fe:80:00:00:00:00:00:00:" + ipoib + " brd "
        + "00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff");
    String portGuid = group(stdout(c, "rdma_link_show"), "port_guid ([0-9a-f:]+)");
    assertThat(stdout(c, "ibstat")).contains("Port GUID: 0x" + portGuid.replace(":", ""));

    // link-local IPv6: ip -j, ip text and the GID of the same address agree; the global one is 2001:db8::N
    String ll = group(json, "\"local\":\"(fe80::[0-9a-f:]+)\"");
    assertThat(text).contains("inet6 " + ll + "/64 scope link");
    byte[] llBytes = Redactor.parseV6(ll);
    assertThat(read(c, dev + "ports/1/gids/1").strip()).isEqualTo(hexGroups(llBytes));
    assertThat(json).containsPattern("\"local\":\"2001:db8::[0-9a-f]+\"");
    String global = group(json, "\"local\":\"(2001:db8::[0-9a-f]+)\"");
    assertThat(text).contains("inet6 " + global + "/64 scope global");

    // perftest's decimal GID is the same GID as sysfs gids/0
    byte[] gid0 = Redactor.parseV6(read(c, dev + "ports/1/gids/0").strip());
    StringBuilder dec = new StringBuilder();
    for (byte b : gid0) {
      dec.append(dec.length() == 0 ? "" : ":").append(String.format("%02d", b & 0xff));
    }
    assertThat(stdout(c, "ib_write_bw")).contains(" GID: " + dec + "\n");
  }

  private static String hexGroups(byte[] a) {
    List<String> g = new ArrayList<>();
    for (int i = 0; i < 16; i += 2) {
      g.add(String.format("%02x%02x", a[i] & 0xff, a[i + 1] & 0xff));
    }
    return String.join(":", g);
  }

  @Test
  void versionsBusIdsLimitsAndMasksAreUntouched() throws IOException {
    Path c = capture();
    Map<String, String> keep = new LinkedHashMap<>();
    for (String f : List.of("proc/self/limits", "proc/self/status", "proc/driver/nvidia/version",
        "sys/module/nvidia_peermem/version", "proc/sys/kernel/osrelease",
        "sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/ports/1/rate",
        "sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/ports/1/gids/4",
        CaptureLayout.COMMANDS + "/lspci/stdout", CaptureLayout.OPENS)) {
      keep.put(f, read(c, f));
    }
    new Redactor().redactTree(c);
    for (Map.Entry<String, String> e : keep.entrySet()) {
      assertThat(read(c, e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
    }
    assertThat(Files.readSymbolicLink(c.resolve("sys/class/infiniband/mlx5_0")).toString())
        .isEqualTo("../../devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0");
    assertThat(stdout(c, "ibv_devinfo_-v")).contains("fw_ver:\t\t\t\t28.39.1002", "vendor_id:\t\t\t0x02c9",
        "max_mr_size:\t\t\t0xffffffffffffffff", "page_size_cap:\t\t\t0xfffffffffffff000",
        "0x7fffffffffffffff", "100.0 Gbps (128)");
    assertThat(stdout(c, "rdma_link_show")).contains("subnet_prefix fe80:0000:0000:0000 lid 12");
    assertThat(read(c, "proc/modules")).contains("Live 0x0000000000000000 (OE)").doesNotContain("c0a3b000");
    String log = Files.readString(c.resolve("var/log/nccl-host-1.log"));
    assertThat(log).contains("2.21.5+cuda12.4", "Channel 00/0 : 0[18000] -> 1[18000]", ":29500");
    assertThat(CaptureMeta.read(c)).containsEntry("time", "2024-05-01T12:34:56Z");
  }

  @ParameterizedTest
  @ValueSource(strings = {"550.54.15", "NCCL version 2.21.5+cuda12.4", "5.15.0-105-generic", "0000:18:00.0",
      "pci0000:17/0000:18:00.0/0000:19:00.1", "400 Gb/sec (4X NDR)", "25 Gb/sec (1X EDR)", "2.5 Gb/sec (1X SDR)",
      "Max locked memory         65536                65536                bytes",
      "CapEff:\t000001ffffffffff", "MLNX_OFED_LINUX-5.8-1.0.1.1", "Thu Feb 22 01:25:25 UTC 2024",
      "2024-05-01T12:34:56.789012Z", "hca_id:\tmlx5_0", "NCCL_IB_HCA=^=mlx5_0:1,mlx5_1:1",
      "1.2.3", "version 1.2.3.4.5", "12:34:56.789", "::", "std::vector", "0x1234", "4/1: mlx5_3/1: state ACTIVE",
      "eth0@if356", "link/ether 00:00:00:00:00:00 brd ff:ff:ff:ff:ff:ff", "inet 127.0.0.53/8", "::1/128",
      "0.0.0.0/0", "1a:2b:3c:4d", "bad::face", "GID[  4]:\t\t0000:0000:0000:0000:0000:0000:0000:0000"})
  void leavesAlone(String s) {
    assertThat(new Redactor().redact(s)).isEqualTo(s);
  }

  @Test
  void keepsShapesAndSuffixes() {
    Redactor r = new Redactor();
    assertThat(r.redact("inet 10.0.0.1/16 brd 10.0.255.255")).matches("inet 198\\.18\\.0\\.1/16 brd 198\\.18\\.0\\.2");
    assertThat(r.redact("10.0.0.1")).isEqualTo("198.18.0.1");
    assertThat(r.redact("inet6 2a00:1450:4001:82b::200e/64 scope global")).isEqualTo("inet6 2001:db8::1/64 scope global");
    assertThat(r.redact("[2a00:1450:4001:82b::200e]:443")).isEqualTo("[2001:db8::1]:443");
    assertThat(r.redact("fe80::abcd%eth0")).isEqualTo("fe80::1%eth0");
    assertThat(r.redact("fe80::2%eth0")).isEqualTo("fe80::3%eth0"); // never mapped to itself
    assertThat(r.redact("::ffff:10.0.0.1")).isEqualTo("::ffff:198.18.0.1");
    assertThat(r.redact("aa:bb:cc:dd:ee:01 AA:BB:CC:DD:EE:02")).isEqualTo("02:00:00:00:00:01 02:00:00:00:00:02");
    assertThat(r.redact("guid 0x98039b0300a1b2c3 and 9803:9b03:00a1:b2c3"))
        .isEqualTo("guid 0x0000000000000004 and 0000:0000:0000:0004");
    assertThat(r.redact("node1:10.0.0.1")).isEqualTo("node1:198.18.0.1");
    assertThat(r.redact("ip 10.0.0.1. Done")).isEqualTo("ip 198.18.0.1. Done");
  }

  @Test
  void hostnamesAreWholeWordsAnyCase() {
    Redactor r = new Redactor();
    r.addHostname("worker-1.cluster.example.com");
    r.addHostname("localhost");
    r.addHostname("(none)");
    assertThat(r.redact("worker-1.cluster.example.com worker-1 WORKER-1 worker-1-abc worker-10 myworker-1 localhost"))
        .isEqualTo("host-1 host-2 host-2 host-2-abc worker-10 myworker-1 localhost");
  }

  @Test
  void aReplacementNeverEqualsAnOriginalOfTheSameCapture() throws IOException {
    Path c = tmp.resolve("c");
    put(c, "a", "first 10.1.1.1\n");
    put(c, "b", "then 198.18.0.1 and 02:00:00:00:00:01 and 0a:0b:0c:0d:0e:0f\n");
    new Redactor().redactTree(c);
    String a = read(c, "a");
    String b = read(c, "b");
    assertThat(a + b).doesNotContain("10.1.1.1", "198.18.0.1", "02:00:00:00:00:01", "0a:0b:0c:0d:0e:0f");
    assertThat(a).matches("first 198\\.18\\.0\\.\\d+\\n");
  }

  @Test
  void oneInstanceIsConsistentAndStable() {
    Redactor r = new Redactor();
    String once = r.redact("a 10.9.8.7 b 0c:42:a1:00:00:01 c fe80::e42:a1ff:fe00:1");
    assertThat(r.redact("a 10.9.8.7 b 0c:42:a1:00:00:01 c fe80::e42:a1ff:fe00:1")).isEqualTo(once);
    assertThat(r.redact(once)).isEqualTo(once); // already-redacted text is left as it is
  }

  @Test
  void longBinaryLikeFilesAreRedactedByteForByteElsewhere() throws IOException {
    Path c = tmp.resolve("bin");
    byte[] b = new byte[3 << 20];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (0x80 + i % 100); // no newline, no ASCII: one 3 MiB "line"
    }
    byte[] ip = " 10.20.30.40 ".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(ip, 0, b, (1 << 20) - 6, ip.length); // across the 1 MiB chunk boundary
    Files.createDirectories(c);
    Files.write(c.resolve("blob"), b);
    new Redactor().redactTree(c);
    byte[] after = Files.readAllBytes(c.resolve("blob"));
    assertThat(after).hasSize(b.length - 1); // 10.20.30.40 (11) -> 198.18.0.1 (10)
    String s = new String(after, StandardCharsets.ISO_8859_1);
    assertThat(s).contains(" 198.18.0.1 ").doesNotContain("10.20.30.40");
    assertThat(after[0]).isEqualTo(b[0]);
    assertThat(after[after.length - 1]).isEqualTo(b[b.length - 1]);
  }
}
