package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every parser: garbage in gives an empty or partial result, never an exception or null. */
class GarbageInputTest {

  private static final Map<String, Function<String, Object>> PARSERS = new LinkedHashMap<>();

  static {
    PARSERS.put("IbvDevinfo", IbvDevinfo::parse);
    PARSERS.put("SysfsPort.parseIbstatus", SysfsPort::parseIbstatus);
    PARSERS.put("SysfsPort.parseState", SysfsPort::parseState);
    PARSERS.put("SysfsPort.parseRate", SysfsPort::parseRate);
    PARSERS.put("RdmaLink", RdmaLink::parse);
    PARSERS.put("RdmaSystem", RdmaSystem::parse);
    PARSERS.put("IpAddr", IpAddr::parse);
    PARSERS.put("ProcLimits", ProcLimits::parse);
    PARSERS.put("ProcStatus", ProcStatus::parse);
    PARSERS.put("UlimitL", UlimitL::parse);
    PARSERS.put("NvidiaDriverVersion", NvidiaDriverVersion::parse);
    PARSERS.put("KernelVersion", KernelVersion::parse);
    PARSERS.put("PeerMem", PeerMem::parse);
    PARSERS.put("NvidiaSmiTopo", NvidiaSmiTopo::parse);
    PARSERS.put("DevInfiniband", DevInfiniband::parse);
    PARSERS.put("RoceGids.parseShowGids", RoceGids::parseShowGids);
    PARSERS.put("RoceGids.parseGid", t -> String.valueOf(RoceGids.parseGid(t)));
    PARSERS.put("RoceGids.parseType", t -> String.valueOf(RoceGids.parseType(t)));
    PARSERS.put("RoceGids.parseNdev", t -> String.valueOf(RoceGids.parseNdev(t)));
  }

  private static List<String> garbage() {
    List<String> out = new ArrayList<>();
    out.add("");
    out.add("\n\n\r\n");
    out.add("   \t  ");
    out.add("---");
    out.add("{\"netns\": 3, \"ifname\": [1,2], \"ifindex\": \"x\"}");
    out.add("[1, \"two\", null, {\"ifindex\": \"NaN\", \"ifname\": null}, [], {\"addr_info\": 5}]");
    out.add("[{\"ifindex\": 99999999999999999999, \"ifname\": \"a\", \"port\": -1, \"flags\": {}}]");
    out.add("[{\"ifname\": \"mlx5_0/\", \"port\": \"x\"}, {\"ifname\": \"/1\"}]");
    out.add("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[");
    out.add("[".repeat(5000));
    out.add("{ not json at all ]");
    out.add("hca_id:\nport:\nport: 99999999999999999999\nGID[99999999999]: x\nstate: (\n");
    out.add("link /1 state\nlink a/b state X\n1/1: x/99999999999: state\n");
    out.add("99999999999999999999: x: <> mtu 99999999999999999999 state\n    inet /\n    inet6\n");
    out.add("Max locked memory 99999999999999999999999 unlimited bytes\nCapEff: zzzz\nUid: a b\n");
    out.add("GPU0 GPU1 NIC0\nGPU0 X\nGPU1\nNIC0 PIX PIX PIX PIX PIX PIX\nGPU0 GPU0 GPU0\n");
    out.add("crw-rw-rw- 1 root root 231, 99999999999999 Jan 1 00:00 uverbs0\n/dev/infiniband:\n");
    out.add("netns\nnetns \nmax locked memory (kbytes, -l)\nNVRM version: NVIDIA UNIX\n");
    out.add("a".repeat(200_000));
    out.add(" ".repeat(100_000) + "x");
    out.add("Max " + "a ".repeat(20_000));
    Random rnd = new Random(42);
    for (int i = 0; i < 40; i++) {
      byte[] b = new byte[rnd.nextInt(4096)];
      rnd.nextBytes(b);
      out.add(new String(b, i % 2 == 0 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1));
    }
    // random lines made of tokens the parsers look for
    String[] tokens = {"link", "mlx5_0/1", "state", "ACTIVE", "netdev", ":", "hca_id:", "port:",
      "GPU0", "NIC0", "X", "PIX", "\t", "\n", "1:", "eth0@if7:", "<UP>", "mtu", "inet",
      "10.0.0.1/24", "scope", "[", "]", "{", "}", "\"", ",", "netns", "shared", "Max locked memory",
      "unlimited", "CapEff:", "NVRM version: NVIDIA UNIX", "Open Kernel Module for", "crw-------",
      "231,", "uverbs0", "/dev/infiniband:", "---", "\r", "│", "**", "```"};
    for (int i = 0; i < 200; i++) {
      StringBuilder sb = new StringBuilder();
      int n = rnd.nextInt(60);
      for (int j = 0; j < n; j++) {
        sb.append(tokens[rnd.nextInt(tokens.length)]).append(rnd.nextBoolean() ? " " : "");
      }
      out.add(sb.toString());
    }
    return out;
  }

  @Test
  void garbageNeverThrowsNorReturnsNullWhereAResultIsPromised() {
    for (String g : garbage()) {
      for (Map.Entry<String, Function<String, Object>> p : PARSERS.entrySet()) {
        assertThatCode(() -> {
          Object r = p.getValue().apply(g);
          if (!p.getKey().startsWith("SysfsPort.parse") || p.getKey().endsWith("Ibstatus")) {
            assertThat(r).as(p.getKey()).isNotNull();
          }
        }).as(p.getKey() + " on " + abbreviate(g)).doesNotThrowAnyException();
      }
    }
  }

  @Test
  void nullInputIsEmpty() {
    assertThat(IbvDevinfo.parse(null).isEmpty()).isTrue();
    assertThat(SysfsPort.parseIbstatus(null).ports()).isEmpty();
    assertThat(RdmaLink.parse(null).links()).isEmpty();
    assertThat(RdmaSystem.parse(null).readings()).isEmpty();
    assertThat(IpAddr.parse(null).interfaces()).isEmpty();
    assertThat(ProcLimits.parse(null).memlock()).isNull();
    assertThat(ProcStatus.parse(null).capEff()).isNull();
    assertThat(UlimitL.parse(null).readings()).isEmpty();
    assertThat(NvidiaDriverVersion.parse(null).flavor()).isNull();
    assertThat(KernelVersion.parse(null).found()).isFalse();
    assertThat(PeerMem.parse(null).moduleLines()).isZero();
    assertThat(NvidiaSmiTopo.parse(null).gpus()).isEmpty();
    assertThat(DevInfiniband.parse(null).entries()).isEmpty();
    assertThat(RoceGids.parseShowGids(null).rows()).isEmpty();
  }

  @Test
  void emptyAndWrongShapeJsonGiveEmptyResults() {
    for (String g : List.of("", "{\"a\": 1}", "[1,2,3]", "[{\"x\": {}}]", "\u0000\u0001\u0002")) {
      assertThat(IbvDevinfo.parse(g).devices()).isEmpty();
      assertThat(RdmaLink.parse(g).links()).isEmpty();
      assertThat(RdmaSystem.parse(g).netnsMode()).isNull();
      assertThat(IpAddr.parse(g).interfaces()).isEmpty();
      assertThat(NvidiaSmiTopo.parse(g).columns()).isEmpty();
      assertThat(DevInfiniband.parse(g).entries()).isEmpty();
      assertThat(PeerMem.parse(g).moduleLines()).isZero();
      assertThat(UlimitL.parse(g).readings()).isEmpty();
    }
  }

  @Test
  void everySampleThroughEveryParser() throws IOException {
    Path root = Path.of("src/test/resources/probes");
    List<Path> files;
    try (Stream<Path> s = Files.walk(root)) {
      files = s.filter(p -> p.toString().endsWith(".txt")).toList();
    }
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      String text = read(f);
      for (Map.Entry<String, Function<String, Object>> p : PARSERS.entrySet()) {
        assertThatCode(() -> p.getValue().apply(text)).as(p.getKey() + " on " + f)
            .doesNotThrowAnyException();
      }
    }
  }

  @Test
  void resultsAreImmutable() {
    IbvDevinfo.Result r = IbvDevinfo.parse("hca_id: mlx5_0\nport: 1\nstate: PORT_ACTIVE (4)\n");
    assertThatCode(() -> r.devices().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatCode(() -> r.devices().get(0).ports().get(0).other().put("a", "b"))
        .isInstanceOf(UnsupportedOperationException.class);
    NvidiaSmiTopo.Result t = NvidiaSmiTopo.parse("GPU0 NIC0\nGPU0 X PIX\n");
    assertThatCode(() -> t.cells().get("GPU0").put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  private static String read(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 60).replace("\n", "\\n") + "..." : s.replace("\n", "\\n");
  }
}
