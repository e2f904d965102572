package dev.nccltriage.host;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteWatchdog;
import org.apache.commons.exec.PumpStreamHandler;
import org.apache.commons.exec.Watchdog;

/**
 * Runs commands on the live host with commons-exec: argv resolved on PATH (a missing tool is a
 * result, not an error), {@code LC_ALL=C}, a timeout that kills the whole process tree, output
 * capped. Nothing from the tool's input ever reaches an argv.
 */
public final class ExecRunner implements CommandRunner {
  private final Duration timeout;
  private final String path;
  private final int maxOutput;

  public ExecRunner(Duration timeout, Map<String, String> env, int maxOutput) {
    this.timeout = timeout;
    this.path = env.getOrDefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    this.maxOutput = maxOutput;
  }

  @Override
  public CommandResult run(List<String> argv) {
    long start = System.nanoTime();
    Path exe = which(argv.get(0));
    if (exe == null) {
      return CommandResult.missing(argv);
    }
    CommandLine cl = new CommandLine(exe.toString());
    argv.subList(1, argv.size()).forEach(a -> cl.addArgument(a, false));
    Capped out = new Capped(maxOutput);
    Capped err = new Capped(maxOutput);
    TreeKillingWatchdog watchdog = new TreeKillingWatchdog(timeout);
    PumpStreamHandler streams = new PumpStreamHandler(out, err);
    // a grandchild that inherited stdout can keep the pipe open after the kill: stop waiting
    streams.setStopTimeout(Duration.ofMillis(200));
    DefaultExecutor executor = DefaultExecutor.builder().setExecuteStreamHandler(streams).get();
    executor.setWatchdog(watchdog);
    executor.setExitValues(null);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", path);
    env.put("LC_ALL", "C");
    String status;
    int code = -1;
    try {
      code = executor.execute(cl, env);
      status = watchdog.killedProcess() ? "timeout" : code == 0 ? "ok" : "failed";
    } catch (ExecuteException e) {
      status = watchdog.killedProcess() ? "timeout" : "failed";
      code = e.getExitValue();
    } catch (IOException e) {
      return new CommandResult(argv, "error", -1, "", String.valueOf(e.getMessage()),
          (System.nanoTime() - start) / 1_000_000, false);
    }
    return new CommandResult(argv, status, code, out.text(), err.text(), (System.nanoTime() - start) / 1_000_000,
        out.truncated || err.truncated);
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

  /** Keeps the first {@code max} bytes and drops the rest, so a chatty tool cannot fill memory. */
  private static final class Capped extends OutputStream {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final int max;
    boolean truncated;

    Capped(int max) {
      this.max = max;
    }

    @Override
    public synchronized void write(int b) {
      if (buf.size() < max) {
        buf.write(b);
      } else {
        truncated = true;
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      int room = Math.max(0, max - buf.size());
      buf.write(b, off, Math.min(room, len));
      truncated |= len > room;
    }

    synchronized String text() {
      return buf.toString(StandardCharsets.UTF_8);
    }
  }

  /** On timeout, kills the descendants first (a shell script's sleeping child), then the process. */
  private static final class TreeKillingWatchdog extends ExecuteWatchdog {
    private Process process;

    @SuppressWarnings("deprecation")
    TreeKillingWatchdog(Duration timeout) {
      super(timeout.toMillis());
    }

    @Override
    public synchronized void start(Process p) {
      this.process = p;
      super.start(p);
    }

    @Override
    public synchronized void timeoutOccured(Watchdog w) {
      if (process != null) {
        List<ProcessHandle> children = new ArrayList<>();
        process.descendants().forEach(children::add);
        children.forEach(ProcessHandle::destroyForcibly);
      }
      super.timeoutOccured(w);
    }
  }
}
