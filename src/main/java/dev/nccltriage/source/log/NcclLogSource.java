package dev.nccltriage.source.log;

import dev.nccltriage.host.InputFiles;
import dev.nccltriage.host.IoProblems;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.LogUnit.Chunk;
import dev.nccltriage.source.log.LogUnit.Part;
import dev.nccltriage.source.log.LogUnit.Whole;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads the NCCL log of one job from files and/or stdin ("-"), gzip or plain, and turns it into
 * {@link LogFacts}. The inputs become units of work: a large plain file is split at line
 * boundaries into parts; stdin, a pipe or a gzip file is cut into chunks of whole lines as it is
 * read; a small plain file is one unit. The units of all inputs share one pool of threads and are
 * merged in input order, so the result does not depend on the split.
 */
public final class NcclLogSource {
  private static final long DEFAULT_PARALLEL_MIN_BYTES = 16L << 20;
  private static final int MAX_CHUNK = 8 << 20;

  private final InputStream stdin;
  private final int threads;
  private final int maxLine;
  private final long parallelMinBytes;
  private final int chunkBytes;
  private Progress progress = Progress.NONE;
  private ProcessTable.Limits limits = ProcessTable.Limits.DEFAULT;

  public NcclLogSource(InputStream stdin, int threads) {
    this(stdin, threads, LineReader.DEFAULT_MAX_LINE, DEFAULT_PARALLEL_MIN_BYTES);
  }

  /**
   * Files of at least {@code parallelMinBytes} read in parts, instead of the default 16 MiB: the
   * launchers' class-list run reads a small sample in parts, so that the parallel path's classes
   * are in the start-up archive too.
   */
  public NcclLogSource(InputStream stdin, int threads, long parallelMinBytes) {
    this(stdin, threads, LineReader.DEFAULT_MAX_LINE, parallelMinBytes);
  }

  /** Tests shrink the limits to exercise long-line and parallel paths on small inputs. */
  public NcclLogSource(InputStream stdin, int threads, int maxLine, long parallelMinBytes) {
    this.stdin = stdin;
    this.threads = Math.max(1, threads);
    this.maxLine = maxLine;
    this.parallelMinBytes = parallelMinBytes;
    this.chunkBytes = (int) Math.max(maxLine + 2L, Math.min(MAX_CHUNK, parallelMinBytes));
  }

  /** Reports bytes read to {@code p} (the command decides whether to show anything). */
  public NcclLogSource withProgress(Progress p) {
    this.progress = p;
    return this;
  }

  /**
   * Tells apart at most {@code hosts} hosts and {@code processes} processes per part of the log
   * and for the job (tests shrink them; the defaults bound a part to about 15 MB).
   */
  public NcclLogSource withLimits(int hosts, int processes) {
    return withLimits(hosts, processes, ProcessTable.Limits.DEFAULT.admitted());
  }

  /** ... and admits at most {@code admitted} hosts outside the sample for a line that shows something wrong. */
  public NcclLogSource withLimits(int hosts, int processes, int admitted) {
    this.limits = new ProcessTable.Limits(Math.max(1, hosts), Math.max(1, processes), Math.max(0, admitted));
    return this;
  }

  public LogFacts read(List<String> names, Path cwd) throws LogInputException {
    String endless = names.contains("-") ? InputFiles.endless(stdin) : null;
    if (endless != null) {
      throw new LogInputException("-: " + endless, null);
    }
    return read(names, cwd, names.contains("-") ? InputFiles.regularFile(stdin) : null);
  }

  /** {@code stdinFile}: the channel of stdin when it is a regular file (then read in parts), else null. */
  LogFacts read(List<String> names, Path cwd, FileChannel stdinFile) throws LogInputException {
    List<LogUnit> plan = new ArrayList<>();
    InputPlan planner = new InputPlan(threads, parallelMinBytes, stdinFile);
    long total = 0;
    for (int i = 0; i < names.size(); i++) {
      total += planner.plan(i, names.get(i), cwd, plan);
    }
    return read(names, plan, total);
  }

  /**
   * Reads the stream given as stdin as the input {@code name}: evidence and the input's counts
   * name the file it comes from (bw reads the NCCL lines of an nccl-tests file through a tee).
   */
  public LogFacts readStream(String name) throws LogInputException {
    return read(List.of(name), List.of(new LogUnit.Whole(0, name, null, true)), 0);
  }

  private LogFacts read(List<String> names, List<LogUnit> plan, long total) throws LogInputException {
    // a stream (stdin, a pipe, gzip) has no size known ahead: progress then counts, without a total
    progress.expect(plan.stream().anyMatch(u -> u instanceof Whole w && w.stream()) ? Progress.UNKNOWN : total);
    try {
      InputsMerge job = new InputsMerge(names);
      boolean streams = plan.stream().anyMatch(u -> u instanceof Whole w && w.stream());
      if (threads == 1 || plan.size() == 1 && !streams) {
        OrderedPool.Worker w = worker();
        for (LogUnit u : plan) {
          job.add(u.input(), parse(u, w));
        }
      } else {
        Units units = new Units(plan);
        try {
          new OrderedPool<LogUnit>(threads, this::worker).run(units, this::parse, (u, acc) -> job.add(u.input(), acc));
        } finally {
          units.close(); // the stream being cut, if a unit failed before its end
        }
      }
      return job.facts();
    } finally {
      progress.done();
    }
  }

  private OrderedPool.Worker worker() {
    return new OrderedPool.Worker(new LineReader(maxLine, progress), new PrefixCache());
  }

  /**
   * The planned units in order, each stream cut into chunks as they are asked for (on the thread
   * that merges: reading and gunzip happen there, parsing on the pool). Chunk buffers are reused:
   * the pool keeps at most twice its threads in flight, so that many plus one are ever needed.
   */
  private final class Units implements OrderedPool.Source<LogUnit> {
    private final Iterator<LogUnit> plan;
    private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(2 * threads + 1);
    private int buffers;
    private Whole stream; // the stream being cut, null when none
    private InputStream open;
    private StreamChunks chunks;
    private boolean any; // the stream being cut gave a chunk yet
    private byte[] lastLines = NO_BYTES; // the last lines of the chunk given last (LinesBefore.ofChunk)

    Units(List<LogUnit> plan) {
      this.plan = plan.iterator();
    }

    @Override
    public LogUnit next() throws LogInputException {
      while (true) {
        if (stream != null) {
          LogUnit c = nextChunk();
          if (c != null) {
            return c;
          }
        }
        if (!plan.hasNext()) {
          return null;
        }
        LogUnit u = plan.next();
        if (!(u instanceof Whole w) || !w.stream()) {
          return u;
        }
        open = open(w); // first: a stream that cannot be opened is none to close
        stream = w;
        any = false;
        chunks = new StreamChunks(LogStreams.decompressed(w.name(), open), maxLine);
      }
    }

    /** The next chunk of the current stream; null (and the stream closed) after its last. */
    private LogUnit nextChunk() throws LogInputException {
      byte[] buf = buffer();
      int n;
      try {
        n = chunks.next(buf);
      } catch (IOException e) {
        free.add(buf);
        String name = stream.name();
        close();
        throw LogStreams.readError(name, e);
      }
      if (n < 0 && any) {
        free.add(buf);
        close();
        return null;
      }
      boolean first = !any;
      any = true; // an empty stream is one empty chunk, so that it is counted as an input
      byte[] before = first ? NO_BYTES : lastLines;
      lastLines = LinesBefore.ofChunk(buf, Math.max(n, 0));
      return new Chunk(stream.input(), stream.name(), buf, Math.max(n, 0), first, before, free);
    }

    private byte[] buffer() throws LogInputException {
      byte[] b = free.poll();
      if (b != null) {
        return b;
      }
      if (buffers < 2 * threads + 1) {
        buffers++;
        return new byte[chunkBytes];
      }
      try {
        return free.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LogInputException("interrupted", e);
      }
    }

    void close() {
      if (stream == null) {
        return;
      }
      try {
        if (open != stdin) {
          open.close();
        }
      } catch (IOException e) {
        // read to the end already
      }
      stream = null;
    }
  }

  private LogAccumulator parse(LogUnit u, OrderedPool.Worker w) throws LogInputException {
    if (u instanceof Part p) {
      try {
        return part(p, w);
      } catch (IOException e) {
        throw new LogInputException(p.name() + ": cannot read: " + IoProblems.describe(e), e);
      }
    }
    if (u instanceof Chunk c) {
      try {
        return chunk(c, w);
      } catch (IOException e) {
        throw LogStreams.readError(c.name(), e);
      } finally {
        c.free().add(c.bytes());
      }
    }
    Whole whole = (Whole) u;
    InputStream in = open(whole);
    try {
      return lines(whole.name(), LogStreams.decompressed(whole.name(), in), w);
    } catch (IOException e) {
      throw LogStreams.readError(whole.name(), e);
    } finally {
      if (in != stdin) {
        try {
          in.close();
        } catch (IOException e) {
          // read to the end already
        }
      }
    }
  }

  private InputStream open(Whole w) throws LogInputException {
    return w.path() == null ? stdin : LogStreams.open(w.name(), w.path());
  }

  /** A whole input, read as a stream. */
  private LogAccumulator lines(String name, InputStream in, OrderedPool.Worker w) throws IOException {
    LogAccumulator acc = new LogAccumulator(limits);
    w.reader().read(in, Long.MAX_VALUE, new LogParser(acc, name, w.prefixes()));
    acc.processes.onEvict(null); // the worker's prefix cache goes on to another unit
    return acc;
  }

  /** A stream's chunk, read where it lies. */
  private LogAccumulator chunk(Chunk c, OrderedPool.Worker w) throws IOException {
    LogAccumulator acc = new LogAccumulator(limits);
    if (!c.first()) {
      acc.tracebacks.continuing();
    }
    w.reader().read(c.bytes(), c.length(), parser(acc, c.name(), c.before(), w));
    acc.processes.onEvict(null); // the worker's prefix cache goes on to another unit
    return acc;
  }

  private static final byte[] NO_BYTES = new byte[0];

  /**
   * The parser of a unit, continuing after the lines {@code before} it (read into an accumulator
   * that is then dropped: they belong to the unit before).
   */
  private LogParser parser(LogAccumulator acc, String name, byte[] before, OrderedPool.Worker w) throws IOException {
    if (before.length == 0) {
      return new LogParser(acc, name, w.prefixes());
    }
    LogParser primer = new LogParser(new LogAccumulator(limits), name, w.prefixes());
    byte[] records = LinesBefore.records(before);
    new LineReader(maxLine).read(records, records.length, primer); // (in place, not counted as progress)
    LogParser parser = new LogParser(acc, name, w.prefixes()); // (the cache cleared of the primer's lines)
    parser.continueAfter(primer);
    return parser;
  }

  /** The lines that start in [from, to). A line straddling {@code from} belongs to the previous part. */
  private LogAccumulator part(Part p, OrderedPool.Worker w) throws IOException {
    if (p.channel() != null) {
      return part(p, w, p.channel()); // standard input's: shared by the parts, and not ours to close
    }
    try (FileChannel ch = FileChannel.open(p.path(), StandardOpenOption.READ)) {
      return part(p, w, ch);
    }
  }

  private LogAccumulator part(Part p, OrderedPool.Worker w, FileChannel ch) throws IOException {
    long start = p.first() ? p.from() : p.from() - 1;
    InputStream in = new ChannelRange(ch, start);
    LogAccumulator acc = new LogAccumulator(limits);
    if (!p.first()) {
      acc.tracebacks.continuing();
    }
    LogParser parser = parser(acc, p.name(), p.first() ? NO_BYTES : LinesBefore.ofPart(ch, p.origin(), p.from()), w);
    // the first "line" runs from the byte before the range to the first newline: it is the
    // tail of the previous part's last line (or empty, if that byte is the newline)
    w.reader().read(in, p.to() - start, parser, !p.first());
    acc.processes.onEvict(null); // the worker's prefix cache goes on to another unit
    return acc;
  }
}
