package dev.nccltriage.bw;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nccltriage.cli.Context;
import dev.nccltriage.cli.NcclTriage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bw takes the node's HCA count and port rate from a capture when no --hcas/--rate is given. */
class BwCaptureRateTest {
  private JsonNode bw(String sample, String capture) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Context ctx = new Context(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Map.of(),
        Path.of("").toAbsolutePath(), false);
    NcclTriage.mainWithoutExit(ctx, "bw", "samples/nccl-tests/" + sample, "--root", "samples/captures/" + capture,
        "-o", "json");
    return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8)).get("bw");
  }

  @Test
  void healthyNodeCapacityComesFromTheCapture() throws Exception {
    JsonNode b = bw("01-healthy-8x400g-2.17.6.out", "healthy-8hca-gdr-net1");
    assertThat(b.get("expected").asDouble()).isEqualTo(400.0);
    assertThat(b.get("hypothesis").asText()).isEqualTo("healthy");
  }

  @Test
  void aPodWithTwoOfEightNicsIsJudgedAgainstTheWholeNode() throws Exception {
    JsonNode b = bw("04-two-of-eight-nics-2.17.6.out", "partial-2of8-hcas");
    assertThat(b.get("expected").asDouble()).isEqualTo(400.0);
    assertThat(b.get("hypothesis").asText()).isEqualTo("no-gdr-or-few-nics");
  }
}
