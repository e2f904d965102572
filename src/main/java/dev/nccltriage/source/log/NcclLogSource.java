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
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
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
 * {@link LogFacts}. The inputs become units of work: a large plain file is split at line
 * boundaries into parts, anything else (a small file, a gzip file, stdin) is one unit. The units
 * of all inputs share one pool of threads, so a job given as one log per Pod is parsed in parallel
 * too; they are merged in input order, so the result does not depend on the split.
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

  /**
   * One unit of work of input number {@code input}: the lines of a plain file that start in
   * [from, to), or (path null with from -1: stdin) a whole stream.
   */
  private record Unit(int input, String name, Path path, long from, long to) {
    boolean whole() {
      return from < 0;
    }
  }

  private record Worker(LineReader reader, PrefixCache prefixes) {}

  public LogFacts read(List<String> names, Path cwd) throws LogInputException {
    List<Unit> units = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < names.size(); i++) {
      total += plan(i, names.get(i), cwd, units);
    }
    progress.expect(total);
    try {
      Job job = new Job(names);
      parse(units, job::add);
      return job.facts();
    } finally {
      progress.done();
    }
  }

  /**
   * Merges units in order: a unit continues its input (lines numbered on from the input's lines so
   * far); a unit of the next input closes the previous one, which joins the job and is dropped, so
   * memory holds one input's parts at a time, not every input's.
   */
  private static final class Job {
    private final List<String> names;
    private final List<InputStats> stats = new ArrayList<>();
    private LogAccumulator job;
    private LogAccumulator input; // the input being merged, null before the first unit
    private int current = -1;

    Job(List<String> names) {
      this.names = names;
    }

    void add(Unit unit, LogAccumulator acc) {
      if (unit.input() != current) {
        close();
        current = unit.input();
        input = acc; // the first part is the input so far: no copy of its processes
      } else {
        input.merge(acc, input.lines);
      }
    }

    private void close() {
      if (input == null) {
        return;
      }
      stats.add(new InputStats(names.get(current), input.lines, input.ncclLines, input.unplaced, input.truncated));
      if (job == null) {
        job = input; // the first input is the job so far
      } else {
        job.merge(input, 0);
      }
      input = null;
    }

    LogFacts facts() {
      close();
      return new FactsBuilder(job == null ? new LogAccumulator() : job, stats).build();
    }
  }

  /**
   * Adds input {@code i}'s units; returns its size if it is a plain file (for progress), else 0.
   * Checks that it can be opened now, so a bad name fails before any parsing.
   */
  private long plan(int i, String name, Path cwd, List<Unit> units) throws LogInputException {
    if (name.equals("-")) {
      units.add(new Unit(i, name, null, -1, -1));
      return 0;
    }
    Path path = cwd.resolve(name);
    if (Files.isDirectory(path)) {
      throw new LogInputException(name + ": is a directory, not a log file", null);
    }
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path)) {
      // a pipe, e.g. <(kubectl logs POD): no size, no second look; read once, as a stream
      units.add(new Unit(i, name, path, -1, -1));
      return 0;
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (isGzip(ch) || size < parallelMinBytes || threads == 1) {
        units.add(new Unit(i, name, path, -1, -1));
        return isGzip(ch) ? 0 : size;
      }
      // more parts than threads, so a thread that finishes early takes another part
      int parts = (int) Math.min(threads * 8L, Math.max(1, size / parallelMinBytes));
      for (int k = 0; k < parts; k++) {
        units.add(new Unit(i, name, path, size * k / parts, size * (k + 1) / parts));
      }
      return size;
    } catch (NoSuchFileException e) {
      throw new LogInputException(name + ": no such file", e);
    } catch (AccessDeniedException e) {
      throw new LogInputException(name + ": permission denied", e);
    } catch (IOException e) {
      throw new LogInputException(name + ": cannot read: " + e.getMessage(), e);
    }
  }

  private interface Merge {
    void accept(Unit unit, LogAccumulator acc);
  }

  /** Parses every unit, on up to {@code threads} threads, and hands the results over in order. */
  private void parse(List<Unit> units, Merge merge) throws LogInputException {
    int workers = Math.min(threads, units.size());
    if (workers <= 1) {
      Worker w = new Worker(new LineReader(maxLine, progress), new PrefixCache());
      for (Unit u : units) {
        merge.accept(u, unit(u, w));
      }
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    // a unit takes an idle worker's buffer and prefix cache: allocated once per thread, not per unit
    BlockingQueue<Worker> idle = new ArrayBlockingQueue<>(workers);
    for (int i = 0; i < workers; i++) {
      idle.add(new Worker(new LineReader(maxLine, progress), new PrefixCache()));
    }
    List<Future<LogAccumulator>> futures = new ArrayList<>(Collections.nCopies(units.size(), null));
    // a window of units in flight: parsed parts wait for their turn to merge, and with many small
    // inputs an unbounded queue of them would hold several inputs' processes at once
    int window = 2 * workers;
    int submitted = 0;
    try {
      for (int k = 0; k < units.size(); k++) {
        while (submitted < units.size() && submitted < k + window) {
          int i = submitOrder(submitted++, units.size(), workers);
          Unit u = units.get(i);
          futures.set(i, pool.submit(() -> {
            Worker w = idle.take();
            try {
              return unit(u, w);
            } finally {
              idle.add(w);
            }
          }));
        }
        merge.accept(units.get(k), futures.get(k).get());
        futures.set(k, null);
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof LogInputException l ? l
          : new LogInputException("cannot read: " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogInputException("interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The unit to submit k-th: the first waits until every worker has had one. It holds the lines
   * each process prints once at start-up (version, interfaces, HCAs: the regex-heavy kind), cheap
   * once the JIT has compiled the parser and costly before.
   */
  static int submitOrder(int k, int units, int workers) {
    if (units <= workers) {
      return k;
    }
    return k < workers ? k + 1 : k == workers ? 0 : k;
  }

  private LogAccumulator unit(Unit u, Worker w) throws LogInputException {
    if (!u.whole()) {
      try {
        return part(u, w);
      } catch (IOException e) {
        throw new LogInputException(u.name() + ": cannot read: " + e.getMessage(), e);
      }
    }
    if (u.path() == null) {
      return stream(u.name(), stdin, w);
    }
    // FileInputStream, not Files.newInputStream: the latter's available() seeks, which a pipe
    // such as <(kubectl logs POD) refuses ("Illegal seek")
    try (InputStream in = new java.io.FileInputStream(u.path().toFile())) {
      return stream(u.name(), in, w);
    } catch (java.io.FileNotFoundException e) {
      throw new LogInputException(u.name() + ": " + (Files.exists(u.path()) ? "permission denied" : "no such file"), e);
    } catch (IOException e) {
      throw new LogInputException(u.name() + ": cannot read: " + e.getMessage(), e);
    }
  }

  private static boolean isGzip(FileChannel ch) throws IOException {
    java.nio.ByteBuffer magic = java.nio.ByteBuffer.allocate(2);
    ch.read(magic, 0);
    return magic.position() == 2 && (magic.get(0) & 0xff) == 0x1f && (magic.get(1) & 0xff) == 0x8b;
  }

  /** A whole stream, gzip or plain. */
  private LogAccumulator stream(String name, InputStream raw, Worker w) throws LogInputException {
    try {
      BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
      in.mark(2);
      int b0 = in.read();
      int b1 = in.read();
      in.reset();
      InputStream body = (b0 == 0x1f && b1 == 0x8b) ? new GZIPInputStream(in, 1 << 16) : in;
      LogAccumulator acc = new LogAccumulator();
      w.reader().read(body, Long.MAX_VALUE, new LogParser(acc, name, w.prefixes()));
      return acc;
    } catch (java.util.zip.ZipException e) {
      throw new LogInputException(name + ": corrupt gzip data (" + e.getMessage() + ")", e);
    } catch (java.io.EOFException e) {
      throw new LogInputException(name + ": gzip data ends early (truncated file?)", e);
    } catch (IOException e) {
      throw new LogInputException(name + ": cannot read: " + e.getMessage(), e);
    }
  }

  /** The lines that start in [from, to). A line straddling {@code from} belongs to the previous part. */
  private LogAccumulator part(Unit u, Worker w) throws IOException {
    try (FileChannel ch = FileChannel.open(u.path(), StandardOpenOption.READ)) {
      long start = u.from() == 0 ? 0 : u.from() - 1;
      InputStream in = Channels.newInputStream(ch.position(start));
      LogAccumulator acc = new LogAccumulator();
      // the first "line" runs from the byte before the range to the first newline: it is the
      // tail of the previous part's last line (or empty, if that byte is the newline)
      w.reader().read(in, u.to() - start, new LogParser(acc, u.name(), w.prefixes()), u.from() > 0);
      return acc;
    }
  }
}
