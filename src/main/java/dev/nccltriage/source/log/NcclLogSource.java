package dev.nccltriage.source.log;

import dev.nccltriage.facts.InputStats;
import dev.nccltriage.facts.LogFacts;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;

/**
 * Reads the NCCL log of one job from files and/or stdin ("-"), gzip or plain, and turns it into
 * {@link LogFacts}. Large plain files are split at line boundaries and parsed in parallel; the
 * parts are merged in file order, so the result does not depend on the split.
 */
public final class NcclLogSource {
  private static final long DEFAULT_PARALLEL_MIN_BYTES = 16L << 20;

  private final InputStream stdin;
  private final int threads;
  private final int maxLine;
  private final long parallelMinBytes;
  private Progress progress = Progress.NONE;

  public NcclLogSource(InputStream stdin, int threads) {
    this(stdin, threads, LineReader.DEFAULT_MAX_LINE, DEFAULT_PARALLEL_MIN_BYTES);
  }

  /** Tests shrink the limits to exercise long-line and parallel paths on small inputs. */
  public NcclLogSource(InputStream stdin, int threads, int maxLine, long parallelMinBytes) {
    this.stdin = stdin;
    this.threads = Math.max(1, threads);
    this.maxLine = maxLine;
    this.parallelMinBytes = parallelMinBytes;
  }

  /** Reports bytes read to {@code p} (the command decides whether to show anything). */
  public NcclLogSource withProgress(Progress p) {
    this.progress = p;
    return this;
  }

  public LogFacts read(List<String> names, Path cwd) throws LogInputException {
    long total = 0;
    for (String name : names) {
      Path p = cwd.resolve(name);
      try {
        total += name.equals("-") || !Files.isRegularFile(p) ? 0 : Files.size(p);
      } catch (IOException e) {
        // the read below reports it
      }
    }
    progress.expect(total);
    try {
      return readAll(names, cwd);
    } finally {
      progress.done();
    }
  }

  private LogFacts readAll(List<String> names, Path cwd) throws LogInputException {
    LogAccumulator job = null;
    List<InputStats> stats = new ArrayList<>();
    for (String name : names) {
      LogAccumulator one = name.equals("-") ? readStream(name, stdin) : readFile(name, cwd.resolve(name));
      stats.add(new InputStats(name, one.lines, one.ncclLines, one.unplaced, one.truncated));
      if (job == null) {
        job = one; // the first file is the job so far: no copy of its processes
      } else {
        job.merge(one, 0);
      }
    }
    if (job == null) {
      job = new LogAccumulator();
    }
    return new FactsBuilder(job, stats).build();
  }

  private LogAccumulator readFile(String name, Path path) throws LogInputException {
    if (Files.isDirectory(path)) {
      throw new LogInputException(name + ": is a directory, not a log file", null);
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (isGzip(ch)) {
        return readStream(name, Channels.newInputStream(ch.position(0)));
      }
      if (size < parallelMinBytes || threads == 1) {
        return readStream(name, Channels.newInputStream(ch.position(0)));
      }
      return readParallel(name, path, size);
    } catch (NoSuchFileException e) {
      throw new LogInputException(name + ": no such file", e);
    } catch (AccessDeniedException e) {
      throw new LogInputException(name + ": permission denied", e);
    } catch (IOException e) {
      throw new LogInputException(name + ": cannot read: " + e.getMessage(), e);
    }
  }

  private static boolean isGzip(FileChannel ch) throws IOException {
    java.nio.ByteBuffer magic = java.nio.ByteBuffer.allocate(2);
    ch.read(magic, 0);
    return magic.position() == 2 && (magic.get(0) & 0xff) == 0x1f && (magic.get(1) & 0xff) == 0x8b;
  }

  private LogAccumulator readStream(String name, InputStream raw) throws LogInputException {
    try {
      BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
      in.mark(2);
      int b0 = in.read();
      int b1 = in.read();
      in.reset();
      InputStream body = (b0 == 0x1f && b1 == 0x8b) ? new GZIPInputStream(in, 1 << 16) : in;
      LogAccumulator acc = new LogAccumulator();
      new LineReader(maxLine, progress).read(body, Long.MAX_VALUE, new LogParser(acc, name));
      return acc;
    } catch (java.util.zip.ZipException e) {
      throw new LogInputException(name + ": corrupt gzip data (" + e.getMessage() + ")", e);
    } catch (java.io.EOFException e) {
      throw new LogInputException(name + ": gzip data ends early (truncated file?)", e);
    } catch (IOException e) {
      throw new LogInputException(name + ": cannot read: " + e.getMessage(), e);
    }
  }

  private LogAccumulator readParallel(String name, Path path, long size) throws LogInputException {
    // more parts than threads, so a thread that finishes early takes another part
    int parts = (int) Math.min(threads * 8L, Math.max(1, size / parallelMinBytes));
    int workers = Math.min(threads, parts);
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    // a part takes an idle worker's buffer and prefix cache: allocated once per thread, not per part
    BlockingQueue<Worker> idle = new ArrayBlockingQueue<>(workers);
    for (int i = 0; i < workers; i++) {
      idle.add(new Worker(new LineReader(maxLine, progress), new PrefixCache()));
    }
    try {
      List<Future<Chunk>> futures = new ArrayList<>(java.util.Collections.nCopies(parts, null));
      for (int k = 0; k < parts; k++) {
        int i = submitOrder(k, parts, workers);
        long from = size * i / parts;
        long to = size * (i + 1) / parts;
        futures.set(i, pool.submit(() -> {
          Worker w = idle.take();
          try {
            return chunk(name, path, from, to, w);
          } finally {
            idle.add(w);
          }
        }));
      }
      LogAccumulator job = null; // the first part is the job so far, as in readAll
      long linesBefore = 0;
      for (Future<Chunk> f : futures) {
        Chunk c = f.get();
        if (job == null) {
          job = c.acc;
        } else {
          job.merge(c.acc, linesBefore);
        }
        linesBefore += c.acc.lines;
      }
      return job;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new LogInputException(name + ": cannot read: " + cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogInputException(name + ": interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The part to submit k-th: the first part waits until every worker has had one. It holds the
   * lines each process prints once at start-up (version, interfaces, HCAs: the regex-heavy kind),
   * cheap once the JIT has compiled the parser and costly before.
   */
  static int submitOrder(int k, int parts, int workers) {
    if (parts <= workers) {
      return k;
    }
    return k < workers ? k + 1 : k == workers ? 0 : k;
  }

  private record Chunk(LogAccumulator acc) {}

  private record Worker(LineReader reader, PrefixCache prefixes) {}

  /** Parses the lines that start in [from, to). A line straddling {@code from} belongs to the previous chunk. */
  private Chunk chunk(String name, Path path, long from, long to, Worker worker) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long start = from == 0 ? 0 : from - 1;
      InputStream in = Channels.newInputStream(ch.position(start));
      LogAccumulator acc = new LogAccumulator();
      // the first "line" runs from the byte before our range to the first newline: it is the
      // tail of the previous chunk's last line (or empty, if that byte is the newline)
      worker.reader().read(in, to - start, new LogParser(acc, name, worker.prefixes()), from > 0);
      return new Chunk(acc);
    }
  }
}
