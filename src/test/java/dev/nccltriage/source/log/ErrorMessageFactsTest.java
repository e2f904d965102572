package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.ErrorKind;
import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The facts a log's error, aws-ofi-nccl and NET/Plugin lines leave (ErrorMessages, through the parser). */
class ErrorMessageFactsTest {
  private static LogFacts parse(String... lines) throws LogInputException {
    byte[] b = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    return new NcclLogSource(new ByteArrayInputStream(b), 1).read(List.of("-"), Path.of("."));
  }

  private static ErrorSignature error(LogFacts f, ErrorKind kind) {
    return f.errors().stream().filter(e -> e.kind().equals(kind.id())).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " in " + f.errors()));
  }

  @Test
  void awsOfiRegistrationAndCompletionFailuresAreErrors() throws Exception {
    LogFacts f = parse(
        "node1:100:100 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)",
        "node1:100:200 [0] NCCL WARN NET/OFI Unable to register memory (type = 2) for device 0. RC: -22, Error: Invalid argument",
        "node1:100:200 [0] NCCL WARN NET/OFI Request completed with error. RC: 5. Error: Input/output error");
    assertThat(error(f, ErrorKind.IBV_REG_MR).detail()).isEqualTo("Invalid argument");
    error(f, ErrorKind.PLUGIN_CQ);
  }

  @Test
  void aLoadedNetPluginIsNamed() throws Exception {
    LogFacts f = parse("node1:100:100 [0] NCCL INFO NET/Plugin : Loaded net plugin NCCL RDMA Plugin v8 (v8)");
    assertThat(f.netPlugins()).containsExactly("NCCL RDMA Plugin v8");
  }

  @Test
  void aNetPluginThatLoadsBrokenIsAnErrorButAMissingOneIsNot() throws Exception {
    LogFacts broken = parse(
        "node1:100:100 [0] NCCL INFO NET/Plugin : Plugin load returned 11 : undefined symbol: ncclNetPlugin_v9.");
    assertThat(error(broken, ErrorKind.NET_PLUGIN_LOAD).detail()).isEqualTo("undefined symbol: ncclNetPlugin_v9");

    LogFacts absent = parse("node1:100:100 [0] NCCL INFO NET/Plugin : Plugin load returned 2 : "
        + "libnccl-net.so: cannot open shared object file: No such file or directory");
    assertThat(absent.errors()).isEmpty();
  }

  @Test
  void aRegistrationFailureOfTheIbTransportMeansTheJobUsedIb() throws Exception {
    // without aws-ofi-nccl, ibv_reg_mr fails in NCCL's own IB transport: the only line saying IB
    LogFacts f = parse(
        "node1:100:200 [0] NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory");
    assertThat(f.transport()).isEqualTo("IB");
  }

  @Test
  void anIbPluginThatCannotStartLeavesTheSocketTransport() throws Exception {
    LogFacts f = parse(
        "node1:100:100 [0] NCCL INFO Failed to initialize NET plugin IB",
        "node1:100:100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>");
    assertThat(f.transport()).isEqualTo("Socket");
  }

  @Test
  void strippedLinesCountAsNcclOutputOnlyWhenAFamilyKnowsThem() throws Exception {
    // a user who cut "host:pid:tid [dev] NCCL INFO" still gave NCCL lines; an application line is not one
    assertThat(parse("NET/IB : Dumping port attributes of mlx5_0").ncclLines()).isEqualTo(1);
    assertThat(parse("NET/OFI aws-ofi-nccl initialization failed").ncclLines()).isEqualTo(1);
    assertThat(parse("NET/OFI Request completed with error. RC: 5. Error: Input/output error").ncclLines()).isEqualTo(1);
    assertThat(parse("NET/OFI Using CUDA runtime version 12020").ncclLines()).isEqualTo(1);
    assertThat(parse("Epoch 3 finished in 41.2 s").ncclLines()).isZero();
    // starts like NCCL's "Failed to open libibverbs" or "Failed to initialize", but no signature claims it
    assertThat(parse("Failed to load checkpoint /data/ckpt/epoch3.pt").ncclLines()).isZero();
  }
}
