package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 11 item 1 for the probe parsers: every numeric field given a number that does not fit (2^32,
 * 10^20, 1e400 as digits) keeps its line and leaves that field unknown; nothing is thrown (with
 * assertions on, a parser's defensive catch fails the test too) and no wrapped or truncated value is read.
 */
class NumbersOutOfRangeTest {
  private static final String H = "4294967296";
  private static final String B = "99999999999999999999";

  static Stream<Arguments> fields() {
    return Stream.of(
        field("kernel release minor", () -> {
          KernelVersion.Result r = KernelVersion.parse("5.99999999999.0-generic\n");
          assertThat(r.found()).as("not 5.9999").isFalse();
        }),
        field("kernel release patch", () -> {
          KernelVersion.Result r = KernelVersion.parse("5.15.99999999999-generic\n");
          assertThat(r.major()).isEqualTo(5);
          assertThat(r.minor()).isEqualTo(15);
          assertThat(r.patch()).isNull();
        }),
        field("nvidia-smi topo GPU label", () -> {
          NvidiaSmiTopo.Result r = NvidiaSmiTopo.parse("\tGPU0\tGPU" + H + "\tNIC0\tCPU Affinity\tNUMA Affinity\n"
              + "GPU0\t X \tNV18\tPXB\t0-47\t0\nGPU" + H + "\tNV18\t X \tSYS\t0-47\t0\nNIC0\tPXB\tSYS\t X \n\n"
              + "NIC Legend:\n\n  NIC0: mlx5_0\n");
          assertThat(r.gpus()).extracting(NvidiaSmiTopo.Gpu::label).containsExactly("GPU0", "GPU" + H);
          assertThat(r.gpus().get(1).index()).isEqualTo(-1);
          assertThat(r.nics()).extracting(NvidiaSmiTopo.Nic::label).containsExactly("NIC0");
        }),
        field("sysfs rate", () -> assertThat(SysfsPort.parseRate("1" + "0".repeat(400) + " Gb/sec (4X NDR)\n")).isNull()),
        field("sysfs bare rate", () -> assertThat(SysfsPort.parseRate("1" + "0".repeat(400) + "\n")).isNull()),
        // 20 digits: a double, finite, and no link's rate (it read 9223372036854775807 Gb/s)
        field("sysfs rate of 20 digits", () -> {
          assertThat(SysfsPort.parseRate("99999999999999999999 Gb/sec (4X NDR)\n")).isNull();
          assertThat(SysfsPort.parseRate("1600 Gb/sec (8X XDR)\n").gbps()).isEqualTo(1600.0);
        }),
        field("sysfs rate width", () -> {
          SysfsPort.Rate r = SysfsPort.parseRate("400 Gb/sec (" + H + "X NDR)\n");
          assertThat(r.gbps()).isEqualTo(400.0);
          assertThat(r.width()).isNull();
        }),
        field("sysfs state number", () -> {
          SysfsPort.NumName s = SysfsPort.parseState(H + ": ACTIVE\n");
          assertThat(s.num()).isNull();
          assertThat(s.name()).isEqualTo("ACTIVE");
        }),
        field("sysfs lid", () -> assertThat(SysfsPort.parseLid(H + "\n")).isNull()),
        field("ibstatus port and lid", () -> {
          SysfsPort.Result r = SysfsPort.parseIbstatus("Infiniband device 'mlx5_0' port " + H + " status:\n"
              + "\tbase lid:\t " + H + "\n\tstate:\t 4: ACTIVE\n\trate:\t 400 Gb/sec (4X NDR)\n");
          assertThat(r.ports()).singleElement().satisfies(p -> {
            assertThat(p.dev()).isEqualTo("mlx5_0");
            assertThat(p.port()).isNull();
            assertThat(p.baseLid()).isNull();
            assertThat(p.rate().gbps()).isEqualTo(400.0);
          });
        }),
        field("ibv_devinfo phys_port_cnt", () -> {
          IbvDevinfo.Result r = IbvDevinfo.parse("hca_id:\tmlx5_0\n\ttransport:\t\t\tInfiniBand (0)\n"
              + "\tphys_port_cnt:\t\t\t" + H + "\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (" + H + ")\n");
          assertThat(r.devices()).singleElement().satisfies(d -> {
            assertThat(d.physPortCnt()).isNull();
            assertThat(d.ports()).singleElement().satisfies(p -> {
              assertThat(p.state()).isEqualTo("PORT_ACTIVE");
              assertThat(p.stateNum()).isNull();
            });
          });
        }),
        field("proc limits memlock", () -> {
          ProcLimits.Result r = ProcLimits.parse("Limit                     Soft Limit           Hard Limit"
              + "           Units\nMax locked memory         " + B + "         unlimited            bytes\n");
          assertThat(r.memlock()).isNotNull();
          assertThat(r.memlock().soft()).isNull();
          assertThat(r.memlock().hard().unlimited()).isTrue();
        }),
        field("ulimit -l", () -> assertThat(UlimitL.parse(B + "\n").kib()).isNull()),
        field("proc status CapEff and Uid", () -> {
          ProcStatus.Result r = ProcStatus.parse("Name:\tpython\nUid:\t" + B + "\t0\t0\t0\nCapEff:\t1ffffffffffffffffff\n");
          assertThat(r.name()).isEqualTo("python");
          assertThat(r.capEff()).isNull();
          assertThat(r.uidReal()).isNull();
          assertThat(r.uidEffective()).isZero();
        }),
        field("/dev/infiniband major and minor", () -> {
          DevInfiniband.Result r = DevInfiniband.parse("crw-rw-rw- 1 root root " + H + ", " + H + " Jan 1 00:00 uverbs0\n");
          assertThat(r.uverbs()).containsExactly("uverbs0");
          assertThat(r.entries().get(0).major()).isNull();
          assertThat(r.entries().get(0).minor()).isNull();
        }),
        field("lsmod size and count", () -> assertThat(PeerMem.parse("nvidia_peermem " + B + " " + B
            + " - Live 0x0000000000000000 (POE)\n").nvidiaPeermem()).isTrue()),
        field("ip addr ifindex", () -> {
          IpAddr.Result r = IpAddr.parse(H + ": eth0@if" + H + ": <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 state UP\n"
              + "    link/ether 0a:58:0a:f4:01:05 brd ff:ff:ff:ff:ff:ff link-netnsid 0\n"
              + "    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0\n");
          assertThat(r.interfaces()).singleElement().satisfies(i -> {
            assertThat(i.name()).isEqualTo("eth0");
            assertThat(i.index()).isNull();
            assertThat(i.peerIfindex()).isNull();
            assertThat(i.mtu()).isEqualTo(9000);
            assertThat(i.addresses()).extracting(IpAddr.Address::address).containsExactly("10.244.1.5");
          });
        }),
        field("ip -j addr ifindex", () -> {
          IpAddr.Result r = IpAddr.parse("[{\"ifindex\":" + H + ",\"ifname\":\"net1\",\"flags\":[\"UP\"],"
              + "\"mtu\":" + H + ",\"operstate\":\"UP\",\"link_type\":\"ether\",\"addr_info\":[{\"family\":\"inet\","
              + "\"local\":\"192.168.1.5\",\"prefixlen\":24}]},{\"ifindex\":" + B + ",\"ifname\":\"net2\"}]");
          assertThat(r.interfaces()).extracting(IpAddr.Interface::name).containsExactly("net1", "net2");
          assertThat(r.interfaces()).allSatisfy(i -> assertThat(i.index()).isNull());
          assertThat(r.interfaces().get(0).mtu()).isNull();
          assertThat(r.interfaces().get(0).state()).isEqualTo("UP");
          assertThat(r.interfaces().get(0).addresses()).singleElement()
              .satisfies(a -> assertThat(a.address()).isEqualTo("192.168.1.5"));
        }),
        field("rdma link port", () -> {
          RdmaLink.Result r = RdmaLink.parse("link mlx5_0/" + H + " state ACTIVE physical_state LINK_UP netdev net1\n"
              + "link mlx5_1/1 state DOWN physical_state DISABLED netdev net2\n");
          assertThat(r.links()).extracting(RdmaLink.Link::dev).containsExactly("mlx5_0", "mlx5_1");
          assertThat(r.links().get(0).port()).isNull();
          assertThat(r.links().get(0).state()).isEqualTo("ACTIVE");
          assertThat(r.links().get(0).netdev()).isEqualTo("net1");
          assertThat(r.links().get(1).port()).isEqualTo(1);
        }),
        field("rdma link old format port and index", () -> {
          RdmaLink.Result r = RdmaLink.parse(H + "/" + H + ": mlx5_3/" + H + ": state ACTIVE physical_state LINK_UP\n");
          assertThat(r.links()).singleElement().satisfies(l -> {
            assertThat(l.dev()).isEqualTo("mlx5_3");
            assertThat(l.port()).isNull();
            assertThat(l.ifindex()).isNull();
            assertThat(l.state()).isEqualTo("ACTIVE");
          });
        }),
        field("rdma -j link port", () -> {
          RdmaLink.Result r = RdmaLink.parse("[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":" + H
              + ",\"state\":\"ACTIVE\",\"netdev\":\"net1\"},{\"ifindex\":1,\"ifname\":\"mlx5_1/" + B
              + "\",\"state\":\"DOWN\"}]");
          assertThat(r.links()).extracting(RdmaLink.Link::dev).containsExactly("mlx5_0", "mlx5_1");
          assertThat(r.links()).allSatisfy(l -> assertThat(l.port()).isNull());
          assertThat(r.links().get(0).netdev()).isEqualTo("net1");
          assertThat(r.links().get(1).state()).isEqualTo("DOWN");
        }),
        field("ibv_devinfo port", () -> {
          IbvDevinfo.Result r = IbvDevinfo.parse("hca_id:\tmlx5_0\n\ttransport:\t\t\tInfiniBand (0)\n"
              + "\t\tport:\t" + H + "\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tlink_layer:\t\tEthernet\n"
              + "\t\tport:\t2\n\t\t\tstate:\t\t\tPORT_DOWN (1)\n");
          assertThat(r.devices()).singleElement().satisfies(d -> {
            assertThat(d.ports()).hasSize(2);
            assertThat(d.ports().get(0).port()).isNull();
            assertThat(d.ports().get(0).state()).isEqualTo("PORT_ACTIVE");
            assertThat(d.ports().get(0).linkLayer()).isEqualTo("Ethernet");
            assertThat(d.ports().get(1).port()).isEqualTo(2);
            assertThat(d.ports().get(1).state()).isEqualTo("PORT_DOWN");
          });
        }),
        field("driver version", () -> assertThat(NvidiaDriverVersion.parse("NVRM version: NVIDIA UNIX x86_64 Kernel Module"
            + "  5350000000000.54.03  Tue May 20 2025\n").driverVersion()).isEqualTo("5350000000000.54.03")));
  }

  private static Arguments field(String name, Runnable check) {
    return Arguments.of(name, (Consumer<Void>) v -> check.run());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void anOverflowingNumberKeepsTheLineAndLeavesTheFieldUnknown(String name, Consumer<Void> check) {
    check.accept(null);
  }
}
