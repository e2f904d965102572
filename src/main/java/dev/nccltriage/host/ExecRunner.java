package dev.nccltriage.host;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs commands on the live host: argv resolved on PATH (a missing tool is a result, not an
 * error), {@code LC_ALL=C}, no stdin, output capped. Every wait is bounded, because an
 * initContainer must finish: a command gets {@code timeout}, all commands together get {@code
 * total} (the ladder's second round of plain-text fallbacks cannot add a timeout each), then its
 * whole process tree gets SIGTERM and, after {@link #GRACE}, SIGKILL ({@link ProcessTree}); the
 * output pipes are read only for {@link #GRACE} after the command ended, as a grandchild may hold
 * them open. A command still running when the tool is stopped by a signal is killed by the
 * {@link Cleanup} and reported as {@link Cleanup.Interrupted}, never as a timeout. Nothing from
 * the tool's input ever reaches an argv.
 */
public final class ExecRunner implements CommandRunner {
  static final Duration GRACE = Duration.ofMillis(300);
  private final Duration timeout;
  private final long deadline;
  private final String path;
  private final int maxOutput;
  private final Cleanup cleanup;
  private final String runId;
  private final AtomicInteger runs = new AtomicInteger();

  public ExecRunner(Duration timeout, Duration total, Map<String, String> env, int maxOutput, Cleanup cleanup) {
    this.timeout = timeout;
    this.deadline = System.nanoTime() + Math.min(total.toNanos(), Long.MAX_VALUE / 4);
    this.path = env.getOrDefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    this.maxOutput = maxOutput;
    this.cleanup = cleanup;
    this.runId = ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
  }

  @Override
  public CommandResult run(List<String> argv) {
    long start = System.nanoTime();
    if (cleanup.started()) {
      throw new Cleanup.Interrupted();
    }
    Path exe = which(argv.get(0));
    if (exe == null) {
      return CommandResult.missing(argv);
    }
    long budget = Math.min(timeout.toNanos(), deadline - start);
    if (budget <= 0) {
      return new CommandResult(argv, "timeout", -1, "", "not run: the time for all commands was spent", 0, false);
    }
    List<String> cmd = new ArrayList<>(argv);
    cmd.set(0, exe.toString());
    String marker = runId + "-" + runs.incrementAndGet();
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().clear();
    pb.environment().put("PATH", path);
    pb.environment().put("LC_ALL", "C");
    pb.environment().put(ProcessTree.MARKER, marker);
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      return new CommandResult(argv, "error", -1, "", String.valueOf(e.getMessage()), millisSince(start), false);
    }
    Cleanup.Task killOnSignal = cleanup.register(() -> ProcessTree.kill(p, marker, GRACE));
    closeQuietly(p.getOutputStream());
    Pump out = new Pump(p.getInputStream(), maxOutput, "probe-stdout");
    Pump err = new Pump(p.getErrorStream(), maxOutput, "probe-stderr");
    boolean exited;
    try {
      exited = p.waitFor(budget, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      // the probe pool is shut down because the run is over: not a timeout, nothing to record
      Thread.currentThread().interrupt();
      ProcessTree.kill(p, marker, Duration.ZERO);
      killOnSignal.withdraw();
      throw new Cleanup.Interrupted();
    }
    if (!exited) {
      ProcessTree.kill(p, marker, GRACE);
    }
    if (!(out.await(GRACE) & err.await(GRACE))) {
      // the command is gone but something it started still holds the pipe
      ProcessTree.kill(p, marker, GRACE);
      out.await(GRACE);
      err.await(GRACE);
    }
    closeQuietly(p.getInputStream());
    closeQuietly(p.getErrorStream());
    if (!killOnSignal.withdraw()) {
      throw new Cleanup.Interrupted();
    }
    int code = p.isAlive() ? -1 : p.exitValue();
    String status = !exited ? "timeout" : code == 0 ? "ok" : "failed";
    return new CommandResult(argv, status, code, out.text(), err.text(), millisSince(start),
        out.truncated() || err.truncated());
  }

  private static long millisSince(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // nothing to do: the pipe is gone either way
    }
  }

  private Path which(String name) {
    if (name.contains("/")) {
      Path p = Path.of(name);
      return Files.isExecutable(p) ? p : null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir, name);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /**
   * Reads one output pipe on a daemon thread, keeping the first {@code max} bytes and dropping the
   * rest, so a chatty tool cannot fill memory and a pipe held open by a stray grandchild cannot
   * hold the run (the thread is abandoned; its process is killed).
   */
  private static final class Pump {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final int max;
    private final Thread thread;
    private boolean truncated;

    Pump(InputStream in, int max, String name) {
      this.max = max;
      this.thread = new Thread(() -> drain(in), name);
      thread.setDaemon(true);
      thread.start();
    }

    private void drain(InputStream in) {
      byte[] chunk = new byte[8192];
      try {
        for (int n; (n = in.read(chunk)) >= 0; ) {
          keep(chunk, n);
        }
      } catch (IOException e) {
        // closed under us: what was read stands
      }
    }

    private synchronized void keep(byte[] b, int len) {
      int room = Math.max(0, max - buf.size());
      buf.write(b, 0, Math.min(room, len));
      truncated |= len > room;
    }

    boolean await(Duration d) {
      try {
        thread.join(Math.max(1, d.toMillis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return !thread.isAlive();
    }

    synchronized boolean truncated() {
      return truncated;
    }

    synchronized String text() {
      return buf.toString(StandardCharsets.UTF_8);
    }
  }
}
