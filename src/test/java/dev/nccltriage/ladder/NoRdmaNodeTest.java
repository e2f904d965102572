package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capture recorded on a real GPU VM without RDMA NICs, with and without the node's PCI bus
 * (it was recorded before the bus was read; the functions added here are that VM's: a host bridge,
 * virtio-net and the H200): no RDMA NIC is sockets by design, inconclusive, not a device-plugin
 * problem; a ConnectX on the bus, or --expect-hcas, makes the missing uverbs the device plugin's.
 */
class NoRdmaNodeTest {
  private static final String LOG = "samples/recorded/h200-vm-2ranks-as-2hosts-socket-2.28.9/rank0.log";

  @TempDir Path tmp;
  private Path root;

  @BeforeEach
  void copyTheRecordedCapture() throws IOException {
    root = tmp.resolve("vm");
    Captures.copyTree(CliRun.REPO.resolve("samples/captures/h200-vm-no-rdma-real"), root);
  }

  private void function(String addr, String cls, String vendor, String device) throws IOException {
    Path f = Files.createDirectories(root.resolve("sys/bus/pci/devices").resolve(addr));
    Files.writeString(f.resolve("class"), cls + "\n");
    Files.writeString(f.resolve("vendor"), vendor + "\n");
    Files.writeString(f.resolve("device"), device + "\n");
  }

  private void theVmsBus() throws IOException {
    function("0000:00:00.0", "0x060000", "0x8086", "0x0d57");
    function("0000:00:03.0", "0x020000", "0x1af4", "0x1041");
    function("0000:00:06.0", "0x030200", "0x10de", "0x2335");
  }

  private CliRun check(String... more) {
    return CliRun.run(Stream.concat(Stream.of("check", "-o", "json", "--root", root.toString()), Arrays.stream(more))
        .toArray(String[]::new));
  }

  @Test
  void withoutItsPciBusTheRecordedCaptureIsInconclusiveAndSaysHowToTell() {
    CliRun run = check();
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
    assertThat(run.json().at("/verdict/probe").asText()).contains("PCI bus could not be read").contains("lspci");
  }

  @Test
  void aBusWithNoRdmaNicIsSocketsByDesign() throws IOException {
    theVmsBus();
    CliRun run = check();
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
    JsonNode doc = run.json();
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("unknown");
    assertThat(doc.at("/verdict/probe").asText()).startsWith("This node has no RDMA NIC");
    assertThat(Captures.step(doc, 1).get("status").asText()).isEqualTo("warn");
    assertThat(Captures.step(doc, 1).get("evidence").toString()).contains("none of 3 PCI functions");
    assertThat(Captures.step(doc, 4).get("status").asText()).as("no secondary interface to want").isEqualTo("skip");
  }

  @Test
  void theJobsSocketLogBesideSuchANodeIsByDesignToo() throws IOException {
    theVmsBus();
    CliRun run = check("--log", CliRun.REPO.resolve(LOG).toString());
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
    assertThat(run.json().at("/verdict/probe").asText()).contains("this node has no RDMA NIC");
    assertThat(Captures.step(run.json(), 7).get("status").asText()).as("sockets by design, as step 1").isEqualTo("warn");
  }

  @Test
  void aConnectXOnTheBusIsTheDevicePlugins() throws IOException {
    theVmsBus();
    function("0000:18:00.0", "0x020700", "0x15b3", "0x1021");
    CliRun run = check();
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.json().at("/verdict/layer").asText()).isEqualTo("device-plugin");
  }

  @Test
  void expectingHcasMakesTheMissingDevicesTheDevicePlugins() throws IOException {
    theVmsBus();
    CliRun run = check("--expect-hcas", "8");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.json().at("/verdict/layer").asText()).isEqualTo("device-plugin");
  }
}
