package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.DEFAULT_MAX_LINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.LogInputException;
import dev.nccltriage.source.log.NcclLogSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several inputs (one log per Pod: files, gzip files, stdin) share one pool of threads; the job they
 * make must be exactly the one a single thread reads, input by input.
 */
class MultiInputTest {
  @TempDir static Path dir;
  private static final List<String> names = new ArrayList<>();
  private static byte[] stdinBytes;

  @BeforeAll
  static void inputs() throws IOException {
    List<Path> logs = Logs.allLogs();
    for (int i = 0; i < logs.size(); i++) {
      byte[] body = Files.readAllBytes(logs.get(i));
      String name = "pod-" + i + (i % 3 == 0 ? ".log.gz" : ".log");
      if (i % 3 == 0) {
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name)))) {
          o.write(body);
        }
      } else {
        Files.write(dir.resolve(name), body);
      }
      names.add(name);
    }
    stdinBytes = Files.readAllBytes(logs.get(0));
    names.add(names.size() / 2, "-");
  }

  private static LogFacts read(int threads, long parallelMinBytes) throws LogInputException {
    InputStream stdin = new ByteArrayInputStream(stdinBytes);
    return new NcclLogSource(stdin, threads, DEFAULT_MAX_LINE, parallelMinBytes).read(names, dir);
  }

  @Test
  void manyInputsOnSeveralThreadsMakeTheJobOneThreadMakes() throws Exception {
    LogFacts one = read(1, Long.MAX_VALUE);
    assertThat(one.inputs()).hasSize(names.size());
    assertThat(one.inputs()).extracting(i -> i.source()).containsExactlyElementsOf(names);
    for (int threads : new int[] {2, 3, 8}) {
      // whole inputs in parallel, then also split into parts (every plain file is "large")
      ParallelChunksTest.assertSameFacts(read(threads, Long.MAX_VALUE), one, threads + " threads, whole inputs");
      ParallelChunksTest.assertSameFacts(read(threads, 1), one, threads + " threads, inputs split");
    }
  }

  @Test
  void aBadInputFailsBeforeAnyIsParsedAndIsNamed() throws IOException {
    Files.createDirectories(dir.resolve("a-dir"));
    NcclLogSource source = new NcclLogSource(InputStream.nullInputStream(), 4, DEFAULT_MAX_LINE, 1);
    assertThatThrownBy(() -> source.read(List.of(names.get(1), "missing.log"), dir))
        .isInstanceOf(LogInputException.class).hasMessage("missing.log: No such file or directory");
    assertThatThrownBy(() -> source.read(List.of(names.get(1), "a-dir"), dir))
        .isInstanceOf(LogInputException.class).hasMessage("a-dir: is a directory, not a log file");
  }

  /**
   * A path that cannot be opened although the plan took it (a symbolic link loop: no size, so a
   * stream) fails with the OS's reason, on one thread and on several (where the pool's stream
   * reader held it half-open).
   */
  @Test
  void aSymbolicLinkLoopIsNamedWithItsReason() throws IOException {
    Files.deleteIfExists(dir.resolve("loop-a"));
    Files.deleteIfExists(dir.resolve("loop-b"));
    Files.createSymbolicLink(dir.resolve("loop-a"), Path.of("loop-b"));
    Files.createSymbolicLink(dir.resolve("loop-b"), Path.of("loop-a"));
    for (int threads : new int[] {1, 4}) {
      NcclLogSource source = new NcclLogSource(InputStream.nullInputStream(), threads, DEFAULT_MAX_LINE, 1);
      assertThatThrownBy(() -> source.read(List.of(names.get(1), "loop-a"), dir))
          .isInstanceOf(LogInputException.class).hasMessage("loop-a: Too many levels of symbolic links");
      assertThatThrownBy(() -> source.read(List.of("loop-a"), dir))
          .isInstanceOf(LogInputException.class).hasMessage("loop-a: Too many levels of symbolic links");
    }
  }

  @Test
  void aCorruptGzipAmongOthersIsNamed() throws IOException {
    Files.write(dir.resolve("bad.log.gz"), new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3});
    NcclLogSource source = new NcclLogSource(InputStream.nullInputStream(), 4, DEFAULT_MAX_LINE, 1);
    assertThatThrownBy(() -> source.read(List.of(names.get(1), "bad.log.gz", names.get(2)), dir))
        .isInstanceOf(LogInputException.class).hasMessageStartingWith("bad.log.gz: ");
  }

  /** bash's <(kubectl logs POD) hands over a pipe: no size, no seeking, read once. */
  @Test
  void aNamedPipeIsReadAsAStream() throws Exception {
    Path fifo = dir.resolve("pod.fifo");
    Files.deleteIfExists(fifo);
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo is not available");
    Thread writer = new Thread(() -> {
      try (OutputStream o = Files.newOutputStream(fifo)) {
        o.write(stdinBytes);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    writer.start();
    LogFacts viaPipe = new NcclLogSource(InputStream.nullInputStream(), 4, DEFAULT_MAX_LINE, 1)
        .read(List.of("pod.fifo"), dir);
    writer.join();
    Path plain = Files.createDirectories(dir.resolve("plain"));
    Files.write(plain.resolve("pod.fifo"), stdinBytes); // the same name, as a regular file
    LogFacts viaFile = new NcclLogSource(InputStream.nullInputStream(), 1).read(List.of("pod.fifo"), plain);
    ParallelChunksTest.assertSameFacts(viaPipe, viaFile, "named pipe");
    assertThat(viaPipe.inputs().get(0).lines()).isPositive();
  }
}
