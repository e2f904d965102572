package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.IbvDevinfo.Device;
import dev.nccltriage.source.probe.parse.IbvDevinfo.MessageKind;
import dev.nccltriage.source.probe.parse.IbvDevinfo.Port;
import dev.nccltriage.source.probe.parse.IbvDevinfo.Result;
import org.junit.jupiter.api.Test;

class IbvDevinfoTest {

  private static Result sample(String name) {
    return IbvDevinfo.parse(Fixtures.read("ibv_devinfo/" + name));
  }

  @Test
  void azureIbPortActive() {
    Result r = sample("sglang-3622-azure-ib-port-active");
    assertThat(r.devices()).hasSize(1);
    Device d = r.devices().get(0);
    assertThat(d.name()).isEqualTo("mlx5_0");
    assertThat(d.transport()).isEqualTo("InfiniBand");
    assertThat(d.fwVer()).isEqualTo("28.40.1702");
    assertThat(d.nodeGuid()).isEqualTo("0015:5dff:fe34:016b");
    assertThat(d.sysImageGuid()).isEqualTo("3868:dd03:01bd:7000");
    assertThat(d.vendorId()).isEqualTo(0x02c9);
    assertThat(d.vendorPartId()).isEqualTo(4126);
    assertThat(d.boardId()).isEqualTo("MSF0000000047");
    assertThat(d.physPortCnt()).isEqualTo(1);
    Port p = d.ports().get(0);
    assertThat(p.port()).isEqualTo(1);
    assertThat(p.state()).isEqualTo("PORT_ACTIVE");
    assertThat(p.stateNum()).isEqualTo(4);
    assertThat(p.maxMtu()).isEqualTo(4096);
    assertThat(p.activeMtu()).isEqualTo(4096);
    assertThat(p.smLid()).isEqualTo(1);
    assertThat(p.portLid()).isEqualTo(2054);
    assertThat(p.linkLayer()).isEqualTo("InfiniBand");
    assertThat(p.gids()).isEmpty();
    assertThat(p.other()).containsEntry("port_lmc", "0x00");
    assertThat(r.messages()).isEmpty();
  }

  @Test
  void ibPortDownLid65535WithPromptLine() {
    Result r = sample("deepep-38-h100-ib-port-down-lid-65535");
    assertThat(r.devices()).singleElement().satisfies(d -> {
      assertThat(d.name()).isEqualTo("mlx5_0");
      assertThat(d.ports()).singleElement().satisfies(p -> {
        assertThat(p.state()).isEqualTo("PORT_DOWN");
        assertThat(p.stateNum()).isEqualTo(1);
        assertThat(p.portLid()).isEqualTo(65535);
        assertThat(p.smLid()).isEqualTo(0);
        assertThat(p.linkLayer()).isEqualTo("InfiniBand");
      });
    });
    assertThat(r.messages()).isEmpty();
  }

  @Test
  void roceActiveReportsTransportInfiniBandAndLinkLayerEthernet() {
    Port p = sample("deepep-38-h100-roce-port-active-fragment").allPorts().get(0);
    Device d = sample("deepep-38-h100-roce-port-active-fragment").devices().get(0);
    assertThat(d.name()).isEqualTo("mlx5_2");
    assertThat(d.transport()).isEqualTo("InfiniBand");
    assertThat(p.state()).isEqualTo("PORT_ACTIVE");
    assertThat(p.linkLayer()).isEqualTo("Ethernet");
    assertThat(p.portLid()).isZero();
  }

  @Test
  void roceDownActiveMtu1024() {
    Result r = sample("deepep-60-cx6dx-roce-port-down");
    Device d = r.devices().get(0);
    assertThat(d.name()).isEqualTo("mlx5_12");
    assertThat(d.vendorPartId()).isEqualTo(4125);
    assertThat(d.nodeGuid()).isNotEqualTo(d.sysImageGuid());
    Port p = d.ports().get(0);
    assertThat(p.state()).isEqualTo("PORT_DOWN");
    assertThat(p.maxMtu()).isEqualTo(4096);
    assertThat(p.activeMtu()).isEqualTo(1024);
    assertThat(p.linkLayer()).isEqualTo("Ethernet");
  }

  @Test
  void zeroHcasFoundWithListFlag() {
    Result r = sample("caffe-590-container-l-zero-hcas-found");
    assertThat(r.devices()).isEmpty();
    assertThat(r.listedCount()).isZero();
    assertThat(r.listedNames()).isEmpty();
    assertThat(r.messages()).hasSize(5).allMatch(m -> m.kind() == MessageKind.NO_USERSPACE_DRIVER);
    assertThat(r.messages().get(0).text())
        .isEqualTo("libibverbs: Warning: no userspace device-specific driver found for "
            + "/sys/class/infiniband_verbs/uverbs4");
  }

  @Test
  void listFlagWithNames() {
    Result r = IbvDevinfo.parse("2 HCAs found:\n\tmlx5_0\n\tmlx5_1\n\n");
    assertThat(r.listedCount()).isEqualTo(2);
    assertThat(r.listedNames()).containsExactly("mlx5_0", "mlx5_1");
  }

  @Test
  void noIbDevicesFoundMissingConfigDirIndentedPaste() {
    Result r = sample("dsx-infra-controller-5251-missing-providers-no-ib-devices");
    assertThat(r.devices()).isEmpty();
    assertThat(r.has(MessageKind.NO_DEVICES_FOUND)).isTrue();
    assertThat(r.has(MessageKind.CONFIG_DIR_UNREADABLE)).isTrue();
    assertThat(r.messages().get(0).text()).startsWith("libibverbs: Warning: couldn't open config");
  }

  @Test
  void noUserspaceDriverThenNoDevices() {
    Result r = sample("pib-2-no-userspace-driver-no-ib-devices-found");
    assertThat(r.devices()).isEmpty();
    assertThat(r.messages()).extracting(IbvDevinfo.Message::kind).containsExactly(
        MessageKind.NO_USERSPACE_DRIVER, MessageKind.NO_USERSPACE_DRIVER,
        MessageKind.NO_DEVICES_FOUND);
  }

  @Test
  void failedToOpenDeviceAroundOneMlnxOfedDevice() {
    Result r = sample("k8s-rdma-device-plugin-8-failed-to-open-device-mlnx-ofed");
    assertThat(r.messages()).hasSize(8).allMatch(m -> m.kind() == MessageKind.OPEN_DEVICE_FAILED);
    assertThat(r.devices()).singleElement().satisfies(d -> {
      assertThat(d.name()).isEqualTo("mlx4_2");
      assertThat(d.other()).doesNotContainKey("Device ports");
      assertThat(d.ports()).singleElement().satisfies(p -> {
        assertThat(p.state()).isEqualTo("PORT_ACTIVE");
        assertThat(p.smLid()).isEqualTo(2);
        assertThat(p.portLid()).isEqualTo(1);
      });
    });
  }

  @Test
  void retypedFlattenedPortInit() {
    Result r = sample("network-operator-1646-hostdevice-pod-port-init-retyped");
    Device d = r.devices().get(0);
    assertThat(d.name()).isEqualTo("mlx5_7");
    assertThat(d.nodeGuid()).isEqualTo("0000:0000:0000:0000");
    assertThat(d.sysImageGuid()).isEqualTo("a088::c203:005b:370c"); // kept as typed
    Port p = d.ports().get(0);
    assertThat(p.state()).isEqualTo("PORT_INIT");
    assertThat(p.stateNum()).isEqualTo(2);
    assertThat(p.smLid()).isEqualTo(4);
    assertThat(p.portLid()).isNull(); // the paste says "port_id", which is not a field
    assertThat(p.other()).containsEntry("port_id", "65535");
    assertThat(p.linkLayer()).isEqualTo("InfiniBand");
  }

  @Test
  void oldLibibverbsWithoutLinkLayer() {
    Result r = sample("rxe-dev-46-softroce-old-libibverbs-no-link-layer");
    Device d = r.devices().get(0);
    assertThat(d.name()).isEqualTo("rxe0");
    assertThat(d.vendorId()).isZero();
    assertThat(d.boardId()).isNull();
    Port p = d.ports().get(0);
    assertThat(p.state()).isEqualTo("PORT_ACTIVE");
    assertThat(p.activeMtu()).isEqualTo(1024);
    assertThat(p.linkLayer()).isNull();
  }

  @Test
  void verboseFragmentWithMarkdownBoldGid() {
    Result r = sample("shared-dev-plugin-164-verbose-roce-port-gids-in-pod");
    Device d = r.devices().get(0);
    assertThat(d.name()).isNull(); // fragment starts after hca_id
    assertThat(d.other()).containsEntry("num_comp_vectors", "63");
    Port p = d.ports().get(0);
    assertThat(p.linkLayer()).isEqualTo("Ethernet");
    assertThat(p.physState()).isEqualTo("LINK_UP");
    assertThat(p.physStateNum()).isEqualTo(5);
    assertThat(p.activeWidth()).isEqualTo("1X");
    assertThat(p.activeSpeed()).isEqualTo("25.0 Gbps");
    assertThat(p.other()).containsEntry("gid_tbl_len", "256")
        .containsEntry("max_vl_num", "invalid value (0)");
    assertThat(p.gids()).containsExactly(
        new IbvDevinfo.Gid(0, "fe80:0000:0000:0000:c6c0:63ff:feb7:5e76", "RoCE v1"));
  }

  @Test
  void failedToGetDeviceListInProse() {
    Result r = sample("wuklab-lite-5-failed-to-get-ib-devices-list-enosys-prose");
    assertThat(r.devices()).isEmpty();
    assertThat(r.messages()).singleElement().satisfies(m -> {
      assertThat(m.kind()).isEqualTo(MessageKind.GET_DEVICE_LIST_FAILED);
      assertThat(m.text()).isEqualTo("Failed to get IB devices list:Function not implemented");
    });
  }

  @Test
  void realTabsCrlfTwoDevicesTwoPortsAndVerboseGids() {
    String text = "$ ibv_devinfo -v\r\n"
        + "hca_id:\tmlx5_0\r\n\ttransport:\t\t\tInfiniBand (0)\r\n"
        + "\tphys_port_cnt:\t\t\t2\r\n"
        + "\t\tport:\t1\r\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\r\n"
        + "\t\t\tlink_layer:\t\tInfiniBand\r\n"
        + "\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:0000:0000:0000:0001\r\n"
        + "\t\t\tGID[  1]:\t\tfe80:0000:0000:0000:0000:0000:0000:0002, RoCE v2   \r\n"
        + "\t\tport:\t2\r\n\t\t\tstate:\t\t\tinvalid state (9)\r\n\r\n"
        + "hca_id:\tmlx5_1\r\n"
        + "\t\tport:\t1\r\n\t\t\tstate:\t\t\tPORT_ARMED (3)\r\n";
    Result r = IbvDevinfo.parse(text);
    assertThat(r.devices()).extracting(Device::name).containsExactly("mlx5_0", "mlx5_1");
    Device d0 = r.devices().get(0);
    assertThat(d0.ports()).extracting(Port::port).containsExactly(1, 2);
    assertThat(d0.ports().get(0).gids()).hasSize(2);
    assertThat(d0.ports().get(0).gids().get(0).type()).isNull();
    assertThat(d0.ports().get(0).gids().get(1).type()).isEqualTo("RoCE v2");
    assertThat(d0.ports().get(1).state()).isEqualTo("invalid state");
    assertThat(d0.ports().get(1).stateNum()).isEqualTo(9);
    assertThat(r.devices().get(1).ports().get(0).state()).isEqualTo("PORT_ARMED");
  }

  @Test
  void otherLibibverbsWarningsAndDeviceNotFound() {
    Result r = IbvDevinfo.parse(
        "libibverbs: Warning: couldn't load driver 'libmlx5-rdmav34.so': No such file\n"
            + "IB device 'mlx5_9' wasn't found\n");
    assertThat(r.messages()).extracting(IbvDevinfo.Message::kind)
        .containsExactly(MessageKind.LIBIBVERBS_WARNING, MessageKind.DEVICE_NOT_FOUND);
    assertThat(r.messages().get(1).text()).isEqualTo("IB device 'mlx5_9' wasn't found");
  }

  @Test
  void hasOnlyTheKindsPrinted() {
    Result r = sample("pib-2-no-userspace-driver-no-ib-devices-found");
    assertThat(r.has(MessageKind.NO_DEVICES_FOUND)).isTrue();
    assertThat(r.has(MessageKind.OPEN_DEVICE_FAILED)).isFalse();
    assertThat(sample("sglang-3622-azure-ib-port-active").has(MessageKind.NO_DEVICES_FOUND))
        .isFalse();
  }

  @Test
  void anythingRecognisedIsNotEmpty() {
    assertThat(sample("sglang-3622-azure-ib-port-active").isEmpty()).isFalse();
    assertThat(IbvDevinfo.parse("No IB devices found\n").isEmpty()).isFalse();
    assertThat(IbvDevinfo.parse("0 HCAs found:\n").isEmpty()).isFalse();
    assertThat(IbvDevinfo.parse("bash: ibv_devinfo: command not found\n").isEmpty()).isTrue();
  }

  @Test
  void knownDeviceFieldsAreNotRepeatedInOther() {
    Device d = sample("sglang-3622-azure-ib-port-active").devices().get(0);
    assertThat(d.other()).doesNotContainKeys("transport", "fw_ver", "node_guid",
        "sys_image_guid", "vendor_id", "vendor_part_id", "hw_ver", "board_id", "phys_port_cnt");
  }

  @Test
  void messageTextStartsAtTheMessage() {
    // kubectl logs --timestamps puts a time before each line; a message is kept from its start
    Result r = IbvDevinfo.parse("2024-03-01T10:00:00.000Z No IB devices found\n");
    assertThat(r.messages()).containsExactly(
        new IbvDevinfo.Message(MessageKind.NO_DEVICES_FOUND, "No IB devices found"));
  }

  @Test
  void warningInsideAPortBlockIsAMessageNotAField() {
    // stderr and stdout interleaved: a libibverbs warning printed between the port's lines
    Result r = IbvDevinfo.parse(Fixtures.read("ibv_devinfo/sglang-3622-azure-ib-port-active")
        .replace("port_lmc:", "libibverbs: Warning: couldn't load driver 'libmlx4-rdmav34.so'\n"
            + "port_lmc:"));
    assertThat(r.messages()).extracting(IbvDevinfo.Message::kind)
        .containsExactly(MessageKind.LIBIBVERBS_WARNING);
    assertThat(r.allPorts().get(0).other()).containsOnlyKeys("port_lmc");
  }

  @Test
  void promptOfASecondCommandIsNotAField() {
    Result r = IbvDevinfo.parse(Fixtures.read("ibv_devinfo/sglang-3622-azure-ib-port-active")
        + "root@gpu-node-3:~# ibv_devinfo -d mlx5_1\n");
    assertThat(r.allPorts().get(0).other()).containsOnlyKeys("port_lmc");
  }

  @Test
  void portNumberTooLargeKeepsThePortNumberUnknown() {
    // 20 digits do not fit an int: the port is still there, its state read, its number unknown
    Result r = IbvDevinfo.parse(
        "hca_id: mlx5_0\n\tport:\t90000000000000000009\n\t\tstate:\tPORT_ACTIVE (4)\n");
    assertThat(r.allPorts()).singleElement().satisfies(p -> {
      assertThat(p.port()).isNull();
      assertThat(p.state()).isEqualTo("PORT_ACTIVE");
    });
  }

  @Test
  void portLineWithoutANumberStartsNoPort() {
    Result r = IbvDevinfo.parse("hca_id: mlx5_0\n\tport:\tN/A\n\t\tstate:\tPORT_DOWN (1)\n");
    assertThat(r.devices()).singleElement().satisfies(d -> assertThat(d.ports()).isEmpty());
  }
}
