package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.SysfsPort.Format;
import dev.nccltriage.source.probe.parse.SysfsPort.NumName;
import dev.nccltriage.source.probe.parse.SysfsPort.Port;
import dev.nccltriage.source.probe.parse.SysfsPort.Rate;
import java.util.List;
import org.junit.jupiter.api.Test;

class SysfsPortTest {

  private static List<Port> sample(String name) {
    return SysfsPort.parseIbstatus(Fixtures.read("sysfs-ibstatus/" + name)).ports();
  }

  @Test
  void singleFiles() {
    assertThat(SysfsPort.parseState("4: ACTIVE\n")).isEqualTo(new NumName(4, "ACTIVE"));
    assertThat(SysfsPort.parseState("1: DOWN")).isEqualTo(new NumName(1, "DOWN"));
    assertThat(SysfsPort.parsePhysState("5: LinkUp\n")).isEqualTo(new NumName(5, "LinkUp"));
    assertThat(SysfsPort.parsePhysState("7: Phy Test")).isEqualTo(new NumName(7, "Phy Test"));
    assertThat(SysfsPort.parseLinkLayer("InfiniBand\n")).isEqualTo("InfiniBand");
    assertThat(SysfsPort.parseLinkLayer("Ethernet \r\n")).isEqualTo("Ethernet");
    assertThat(SysfsPort.parseRate("400 Gb/sec (4X NDR)\n")).isEqualTo(new Rate(400, 4, "NDR"));
    assertThat(SysfsPort.parseRate("2.5 Gb/sec (1X SDR)")).isEqualTo(new Rate(2.5, 1, "SDR"));
    assertThat(SysfsPort.parseRate("25 Gb/sec (1X EDR)")).isEqualTo(new Rate(25, 1, "EDR"));
    assertThat(SysfsPort.parseRate("56 Gb/sec (4X FDR)").gbps()).isEqualTo(56.0);
    assertThat(SysfsPort.parseRate("10 Gb/sec (4X)")).isEqualTo(new Rate(10, 4, null));
    assertThat(SysfsPort.parseLid("0xffff")).isEqualTo(65535);
    assertThat(SysfsPort.parseLid("0x0")).isZero();
  }

  @Test
  void singleFilesGarbage() {
    assertThat(SysfsPort.parseState(null)).isNull();
    assertThat(SysfsPort.parseState("")).isNull();
    assertThat(SysfsPort.parseState("x: y: z")).isNull();
    assertThat(SysfsPort.parseRate("fast")).isNull();
    assertThat(SysfsPort.parseRate(null)).isNull();
    assertThat(SysfsPort.parseLinkLayer("   ")).isNull();
    assertThat(SysfsPort.parseLid("zz")).isNull();
  }

  @Test
  void fromFiles() {
    Port p = SysfsPort.fromFiles("mlx5_0", 1, "4: ACTIVE\n", "5: LinkUp\n",
        "200 Gb/sec (4X HDR)\n", "InfiniBand\n", "0x1a\n", "0x1\n", null);
    assertThat(p).isEqualTo(new Port("mlx5_0", 1, null, 26, 1, new NumName(4, "ACTIVE"),
        new NumName(5, "LinkUp"), new Rate(200, 4, "HDR"), "InfiniBand", Format.SYSFS));
  }

  @Test
  void ibstatus400gNdrEthernetWithPrompt() {
    List<Port> ports = sample("infiniband-exporter-26-ibstatus-400g-4x-ndr-ethernet");
    assertThat(ports).extracting(Port::dev).containsExactly("mlx5_0", "mlx5_1");
    Port p = ports.get(0);
    assertThat(p.port()).isEqualTo(1);
    assertThat(p.defaultGid()).isEqualTo("fe80:0000:0000:0000:966d:aeff:feb3:832e");
    assertThat(p.baseLid()).isZero();
    assertThat(p.smLid()).isZero();
    assertThat(p.state()).isEqualTo(new NumName(4, "ACTIVE"));
    assertThat(p.physState()).isEqualTo(new NumName(5, "LinkUp"));
    assertThat(p.rate()).isEqualTo(new Rate(400, 4, "NDR"));
    assertThat(p.linkLayer()).isEqualTo("Ethernet");
    assertThat(p.format()).isEqualTo(Format.IBSTATUS);
  }

  @Test
  void ibstatusRoce100gEdr() {
    List<Port> ports = sample("nccl-1866-ibstatus-roce-100g-4x-edr");
    assertThat(ports).hasSize(2);
    assertThat(ports).allSatisfy(p -> {
      assertThat(p.rate()).isEqualTo(new Rate(100, 4, "EDR"));
      assertThat(p.linkLayer()).isEqualTo("Ethernet");
    });
    assertThat(ports.get(1).defaultGid()).endsWith("fe9c:7f1b");
  }

  @Test
  void ibstatusBond25g() {
    List<Port> ports = sample("nccl-451-ibstatus-bond-25g-1x-edr");
    assertThat(ports).singleElement().satisfies(p -> {
      assertThat(p.dev()).isEqualTo("mlx5_bond_0");
      assertThat(p.rate()).isEqualTo(new Rate(25, 1, "EDR"));
    });
  }

  @Test
  void ibstatInitializingThenFlattenedIbstatus() {
    List<Port> ports = sample("azhpc-diagnostics-59-ibstat-initializing-flattened");
    assertThat(ports).hasSize(2);
    Port ibstat = ports.get(0);
    assertThat(ibstat.format()).isEqualTo(Format.IBSTAT);
    assertThat(ibstat.dev()).isEqualTo("mlx5_ib0");
    assertThat(ibstat.port()).isEqualTo(1);
    assertThat(ibstat.state()).isEqualTo(new NumName(2, "Initializing"));
    assertThat(ibstat.physState()).isEqualTo(new NumName(5, "LinkUp"));
    assertThat(ibstat.rate()).isEqualTo(new Rate(200, null, null));
    assertThat(ibstat.baseLid()).isEqualTo(65535);
    assertThat(ibstat.smLid()).isEqualTo(361);
    assertThat(ibstat.linkLayer()).isEqualTo("InfiniBand");
    Port ibstatus = ports.get(1);
    assertThat(ibstatus.format()).isEqualTo(Format.IBSTATUS);
    assertThat(ibstatus.dev()).isEqualTo("mlx5_an0");
    assertThat(ibstatus.defaultGid()).isNull(); // "default gid: unknown"
    assertThat(ibstatus.state()).isEqualTo(new NumName(4, "ACTIVE"));
    assertThat(ibstatus.rate()).isNull(); // excerpt ends before rate
  }

  @Test
  void realTabsAndCrlf() {
    String t = "Infiniband device 'mlx5_3' port 1 status:\r\n"
        + "\tdefault gid:\t fe80:0000:0000:0000:0000:0000:0000:0001\r\n"
        + "\tstate:\t\t 1: DOWN\r\n\tphys state:\t 3: Disabled\r\n"
        + "\trate:\t\t 10 Gb/sec (4X SDR)\r\n\tlink_layer:\t InfiniBand\r\n";
    Port p = SysfsPort.parseIbstatus(t).ports().get(0);
    assertThat(p.state()).isEqualTo(new NumName(1, "DOWN"));
    assertThat(p.physState()).isEqualTo(new NumName(3, "Disabled"));
    assertThat(p.rate()).isEqualTo(new Rate(10, 4, "SDR"));
  }
}
