package dev.nccltriage.host;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DaemonExecutor;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteResultHandler;

/**
 * Runs commands on the live host with commons-exec (the charter's choice for external commands
 * with timeouts): argv resolved on PATH (a missing tool is a result, not an error), {@code
 * LC_ALL=C}, no stdin, output capped. Every wait is bounded, because an initContainer must
 * finish: a command gets {@code timeout}, all commands together get {@code total} (the ladder's
 * second round of plain-text fallbacks cannot add a timeout each); past it the watchdog kills the
 * whole process tree, SIGTERM and after {@link #GRACE} SIGKILL ({@link TreeWatchdog}); the output
 * pipes are read only for {@link #GRACE} after the command ended, as a grandchild may hold them
 * open ({@link BoundedPumps}). The command runs asynchronously and this thread waits for it with a
 * bound of its own, since the executor's thread waits on the process without one. A command still
 * running when the tool is stopped by a signal is killed by the {@link Cleanup} and reported as
 * {@link Cleanup.Interrupted}, never as a timeout. Nothing from the tool's input ever reaches an
 * argv.
 */
public final class ExecRunner implements CommandRunner {
  static final Duration GRACE = Duration.ofMillis(300);
  /**
   * Past the command's own time: the watchdog's kill (two graces), the pumps' grace, a kill for a
   * held pipe and its grace, and a margin; only an unkillable process or a stuck thread reaches it.
   */
  private static final Duration SLACK = GRACE.multipliedBy(8);
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
      return new CommandResult(argv, "timeout", -1, "", "not run: the time for all commands was spent", 0, 0, false);
    }
    CommandLine cmd = new CommandLine(exe.toString());
    argv.subList(1, argv.size()).forEach(a -> cmd.addArgument(a, false));
    String marker = runId + "-" + runs.incrementAndGet();
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", path);
    env.put("LC_ALL", "C");
    env.put(ProcessTree.MARKER, marker);
    TreeWatchdog watchdog = new TreeWatchdog(Duration.ofNanos(budget), marker, GRACE);
    BoundedPumps streams = new BoundedPumps(maxOutput, GRACE, watchdog::killTree);
    // a daemon thread: a probe that cannot be killed must not keep the JVM alive
    DefaultExecutor executor = DaemonExecutor.builder().setExecuteStreamHandler(streams).get();
    executor.setWatchdog(watchdog);
    executor.setExitValues(null);
    Done done = new Done();
    // registered before the launch: the step waits for a launch under way, then kills its tree
    Cleanup.Task killOnSignal = cleanup.register(() -> watchdog.cancel(GRACE));
    if (cleanup.started()) {
      throw new Cleanup.Interrupted();
    }
    boolean overran = false;
    try {
      executor.execute(cmd, env, done);
      if (!done.await(budget + SLACK.toNanos())) {
        Process p = watchdog.process();
        overran = p != null && p.isAlive();
        watchdog.cancel(GRACE);
      }
    } catch (InterruptedException e) {
      // the probe pool is shut down because the run is over: not a timeout, nothing to record
      Thread.currentThread().interrupt();
      watchdog.cancel(Duration.ZERO);
      killOnSignal.withdraw();
      throw new Cleanup.Interrupted();
    } catch (IOException e) {
      killOnSignal.withdraw();
      return new CommandResult(argv, "error", -1, "", message(e), millisSince(start), budget / 1_000_000, false);
    }
    ProcessTree.killLeftovers(marker, GRACE);
    if (!killOnSignal.withdraw()) {
      throw new Cleanup.Interrupted();
    }
    Process p = watchdog.process();
    if (p == null) {
      Exception failure = watchdog.launchFailure() != null ? watchdog.launchFailure() : done.failure();
      return new CommandResult(argv, "error", -1, "", message(failure), millisSince(start), budget / 1_000_000, false);
    }
    // the code from the process itself: the executor's own value is -1 when anything went amiss
    int code = p.isAlive() ? -1 : p.exitValue();
    String status = watchdog.killedProcess() || overran || p.isAlive() ? "timeout" : code == 0 ? "ok" : "failed";
    return new CommandResult(argv, status, code, streams.out(), streams.err(), millisSince(start), budget / 1_000_000,
        streams.truncated());
  }

  private static String message(Throwable e) {
    if (e == null) {
      return "the command did not start";
    }
    Throwable cause = e instanceof ExecuteException && e.getCause() != null ? e.getCause() : e;
    return cause.getMessage() != null ? cause.getMessage() : cause.toString();
  }

  private static long millisSince(long start) {
    return (System.nanoTime() - start) / 1_000_000;
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

  /** The executor's result handler: a latch, where the stock one polls every 50 ms. */
  private static final class Done implements ExecuteResultHandler {
    private final CountDownLatch latch = new CountDownLatch(1);
    private volatile ExecuteException failure;

    @Override
    public void onProcessComplete(int exitValue) {
      latch.countDown();
    }

    @Override
    public void onProcessFailed(ExecuteException e) {
      failure = e;
      latch.countDown();
    }

    boolean await(long nanos) throws InterruptedException {
      return latch.await(nanos, TimeUnit.NANOSECONDS);
    }

    ExecuteException failure() {
      return failure;
    }
  }
}
