package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.host.Redactor;
import dev.nccltriage.host.ReplayRunner;
import dev.nccltriage.ladder.Captures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 7: {@code capture} records the RoCE GID tables it reads, so that {@code check
 * --root} on the capture finds what {@code check} found on the host: the same {@code pod.gids}, the
 * same finding. The host is the H20 sample grown to a whole table per port (255 entries, as a
 * ConnectX VF has), read through the capture code.
 */
class GidCaptureReplayTest {
  private static final String SAMPLE = "h20-roce-vf-gid-index-0";
  private static final String ZERO = "0000:0000:0000:0000:0000:0000:0000:0000\n";

  @TempDir Path tmp;

  private Path host() throws IOException {
    Path host = tmp.resolve("host");
    Captures.copyTree(CliRun.REPO.resolve("samples/captures/" + SAMPLE), host);
    for (int n = 8; n <= 15; n++) {
      Path gids = host.resolve("sys/class/infiniband/mlx5_" + n + "/ports/1/gids");
      for (int i = 8; i < 255; i++) {
        Files.writeString(gids.resolve(String.valueOf(i)), ZERO);
      }
    }
    return host;
  }

  private Path capture(Path from) throws IOException {
    Path cap = tmp.resolve("capture");
    CaptureCommand.ladder(cap, from, new ReplayRunner(from), Map.of(), null, Instant.EPOCH);
    return cap;
  }

  private static JsonNode check(Path root) {
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.stderr()).isEmpty();
    assertThat(run.exitCode()).isEqualTo(1);
    return run.json();
  }

  @Test
  void aCaptureKeepsTheGidTablesAndTheirFinding() throws IOException {
    Path host = host();
    JsonNode before = check(host);
    Path cap = capture(host);
    JsonNode after = check(cap);

    assertThat(after.at("/pod/gids")).isEqualTo(before.at("/pod/gids"));
    assertThat(after.at("/verdict/summary").asText()).isEqualTo(before.at("/verdict/summary").asText())
        .startsWith("NCCL_IB_GID_INDEX=0 selects a link-local RoCE v1 GID");
    assertThat(after.at("/verdict/fix").asText()).isEqualTo(before.at("/verdict/fix").asText());
    assertThat(after.get("ladder")).isEqualTo(before.get("ladder"));

    Path port = cap.resolve("sys/class/infiniband/mlx5_12/ports/1");
    try (Stream<Path> s = Files.list(port.resolve("gids"))) {
      assertThat(s.count()).as("every index up to the end of the table").isEqualTo(255);
    }
    assertThat(Files.readString(port.resolve("gids/3"))).isEqualTo("0000:0000:0000:0000:0000:ffff:ac10:0f0e\n");
    assertThat(Files.readString(port.resolve("gid_attrs/types/3"))).isEqualTo("RoCE v2\n");
    assertThat(Files.readString(port.resolve("gid_attrs/ndevs/3"))).isEqualTo("net5\n");
    // an empty slot's attributes are not read: a live kernel answers EINVAL
    try (Stream<Path> s = Files.list(port.resolve("gid_attrs/types"))) {
      assertThat(s.map(p -> p.getFileName().toString()).sorted().toList()).isEqualTo(List.of("0", "1", "2", "3"));
    }
  }

  /** --redact rewrites the GIDs as the addresses they are: the finding survives, the site's addresses do not. */
  @Test
  void aRedactedCaptureKeepsTheFindingWithoutTheAddresses() throws IOException {
    Path cap = capture(host());
    new Redactor().redactTree(cap);
    JsonNode doc = check(cap);
    assertThat(doc.at("/verdict/layer").asText()).isEqualTo("nccl-env");
    assertThat(doc.at("/verdict/fix").asText()).startsWith("Set NCCL_IB_GID_INDEX=3,");
    assertThat(doc.at("/pod/gids").toString()).doesNotContain("172.16.").contains("198.18.");
    assertThat(doc.at("/pod/gids/ports/0/gids/3/kind").asText()).isEqualTo("ipv4");
    assertThat(doc.at("/pod/gids/ports/0/gids/0/kind").asText()).isEqualTo("link-local");
  }
}
