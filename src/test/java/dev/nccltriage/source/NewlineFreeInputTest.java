package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.InputStats;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.NcclLogSource;
import dev.nccltriage.source.log.Progress;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file with few or no newlines (the NUL tail a crashed node leaves, megabyte lines) is read once
 * as a file, split into parts, just as through a pipe: a part stops where its range ends even
 * inside an over-long line, instead of reading on to that line's newline, which for a file of NULs
 * is the end of the file, once per part. The work is counted in bytes read, not timed.
 */
class NewlineFreeInputTest {
  private static final int MAX_LINE = 64 * 1024;
  private static final String LINE = "node-1:11:11 [0] NCCL INFO Using network IB\n";

  @TempDir Path dir;

  private static final class CountingProgress implements Progress {
    final AtomicLong read = new AtomicLong();

    @Override
    public void advance(long bytes) {
      read.addAndGet(bytes);
    }
  }

  private record Run(LogFacts facts, long bytesRead) {}

  private Run file(Path f) throws Exception {
    CountingProgress p = new CountingProgress();
    // parts of 1 MiB: a 24 MiB file is 16 parts on two threads
    LogFacts facts = new NcclLogSource(java.io.InputStream.nullInputStream(), 2, MAX_LINE, 1 << 20)
        .withProgress(p).read(List.of(f.getFileName().toString()), f.getParent());
    return new Run(facts, p.read.get());
  }

  private static Run pipe(byte[] bytes) throws Exception {
    CountingProgress p = new CountingProgress();
    LogFacts facts = new NcclLogSource(new ByteArrayInputStream(bytes), 2, MAX_LINE, 1 << 20)
        .withProgress(p).read(List.of("-"), Path.of("."));
    return new Run(facts, p.read.get());
  }

  private static void assertSameLines(LogFacts file, LogFacts pipe) {
    InputStats f = file.inputs().get(0);
    InputStats p = pipe.inputs().get(0);
    assertThat(f.lines()).as("lines").isEqualTo(p.lines());
    assertThat(f.ncclLines()).as("NCCL lines").isEqualTo(p.ncclLines());
    assertThat(f.truncatedLines()).as("truncated lines").isEqualTo(p.truncatedLines());
    assertThat(file.transport()).isEqualTo(pipe.transport());
  }

  @Test
  void fileOfNulsIsReadOnceWhateverTheParts() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(LINE.getBytes(StandardCharsets.US_ASCII));
    b.write(new byte[24 << 20]);
    b.write('\n');
    b.write(LINE.getBytes(StandardCharsets.US_ASCII));
    byte[] bytes = b.toByteArray();
    Path f = Files.write(dir.resolve("crashed-node.log"), bytes);

    Run file = file(f);
    // each part may read one 1 MiB buffer past its end; before, every part read on to the end
    // of the file looking for the NUL line's newline: about 200 MiB for these 24
    assertThat(file.bytesRead()).as("bytes read from a %d-byte file", bytes.length)
        .isLessThanOrEqualTo(2L * bytes.length);
    assertThat(file.facts().inputs().get(0).truncatedLines()).isEqualTo(1);
    assertThat(file.facts().ncclLines()).isEqualTo(2);
    assertSameLines(file.facts(), pipe(bytes).facts());
  }

  @Test
  void megabyteLinesAreReadOnce() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] mb = new byte[1 << 20];
    java.util.Arrays.fill(mb, (byte) 'x');
    for (int i = 0; i < 20; i++) {
      b.write(LINE.getBytes(StandardCharsets.US_ASCII));
      b.write(mb);
      b.write('\n');
    }
    byte[] bytes = b.toByteArray();
    Path f = Files.write(dir.resolve("long-lines.log"), bytes);

    Run file = file(f);
    assertThat(file.bytesRead()).isLessThanOrEqualTo(2L * bytes.length);
    assertThat(file.facts().inputs().get(0).truncatedLines()).isEqualTo(20);
    assertThat(file.facts().ncclLines()).isEqualTo(20);
    assertSameLines(file.facts(), pipe(bytes).facts());
  }
}
