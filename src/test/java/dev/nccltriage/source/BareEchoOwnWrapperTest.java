package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.DEFAULT_MAX_LINE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bare NCCL message (PyTorch's "Last error:" echo of the last WARN's text) behind a wrapper the
 * line itself shows how to take off: read on its own, without NCCL's lines before it, so a file
 * read in parts finds it whichever part it falls in. The kernel's or journald's seconds since boot,
 * a time of day in brackets, such a time before a runtime's, a JSON record cut short (or inside a
 * CSV cell, its quotes doubled), the first line of a CSV cell that spans lines. Behind a wrapper
 * only NCCL's lines show (stern's pod, pdsh's host), a part of a file or a stream's chunk starts
 * from what the lines before it showed.
 */
class BareEchoOwnWrapperTest {
  private static final String ECHO = "Failed to initialize any NET plugin";
  private static final String NCCL = "vm:1063:1063 [0] NCCL INFO init.cc:2162 -> 5";

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"[    12.000500] ", "[  123.456789] gpu-node-1 python3[1000]: ", "[10:00:00] ",
    "[10:00:00.123] ", "[    12.000500] 2026-05-01T10:00:00.123456789Z stdout F ", "{\"log\":\"",
    "{\"message\": \"", "**{\"\"log\"\":\"\"", "\"2026-05-01T10:00:00.000Z\",\"train-0\",\"",
    "\"2026-05-01T10:00:00.000Z\",\"0: ", "\"2026-05-01T10:00:00.000Z\",\"| "})
  void theEchoAloneIsReadAndPartsReadWhatOnePassReads(String wrapper) throws Exception {
    LogFacts alone = Logs.parse(wrapper + ECHO + "\n");
    assertThat(alone.ncclLines()).as("the echo alone").isEqualTo(1);
    assertThat(alone.errors()).extracting(e -> e.kind()).containsExactly("net_none");

    Path file = Files.writeString(dir.resolve("log"), wrapper + NCCL + "\n" + wrapper + ECHO + "\n");
    LogFacts one = Logs.parseFile(file, 1, DEFAULT_MAX_LINE, Long.MAX_VALUE);
    assertThat(one.ncclLines()).isEqualTo(2);
    ParallelChunksTest.assertSameFacts(Logs.parseFile(file, 2, DEFAULT_MAX_LINE, 1), one, wrapper);
  }

  @ParameterizedTest
  @ValueSource(strings = {"worker-1: ", "trainer-0 pytorch ", "logs/rank0.log:"})
  void behindAWrapperNoTableKnowsPartsAndChunksReadWhatOnePassReads(String wrapper) throws Exception {
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      log.append(wrapper).append(NCCL).append('\n');
      for (int j = 0; j < 20; j++) {
        log.append(wrapper).append("step ").append(i).append(" of the training script, line ").append(j).append('\n');
      }
      log.append(wrapper).append(ECHO).append('\n');
    }
    byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);
    Path file = Files.write(dir.resolve("log"), bytes);
    LogFacts one = Logs.parseFile(file, 1, DEFAULT_MAX_LINE, Long.MAX_VALUE);
    assertThat(one.ncclLines()).isEqualTo(600);
    ParallelChunksTest.assertSameFacts(Logs.parseFile(file, 2, DEFAULT_MAX_LINE, 4096), one, "parts");
    LogFacts stream = new NcclLogSource(new ByteArrayInputStream(bytes), 1, 4096, 8192).read(List.of("-"), dir);
    assertThat(stream.ncclLines()).isEqualTo(600);
    LogFacts chunks = new NcclLogSource(new ByteArrayInputStream(bytes), 2, 4096, 8192).read(List.of("-"), dir);
    ParallelChunksTest.assertSameFacts(chunks, stream, "a stream's chunks");
  }

  /** Not a time, a record of another text field, a row whose cells all close: nothing to take off. */
  @ParameterizedTest
  @ValueSource(strings = {"[12] ", "[1.] ", "[10:00] ", "{\"ts\":\"", "\"2026-05-01T10:00:00.000Z\",\"x\" "})
  void noWrapperTheLineShows(String wrapper) {
    assertThat(Logs.parse(wrapper + ECHO + "\n").ncclLines()).isZero();
  }

  /**
   * Where an unknown wrapper ended on the NCCL line before (18 bytes), another program's line holds
   * "NCCL" inside a word: no message starts there.
   */
  @ParameterizedTest
  @ValueSource(strings = {"abcde ProcessGroupNCCL.cpp:1575] Warning: destroy_process_group() was not called",
    "abcde ProcessGroupNCCL version 2.18.1"})
  void notInsideAWord(String other) {
    LogFacts f = Logs.parse("trainer-0 pytorch " + NCCL + "\n" + other + "\n");
    assertThat(f.ncclLines()).isEqualTo(1);
    assertThat(f.nodeDetails()).extracting(n -> n.host()).containsExactly("vm");
  }
}
