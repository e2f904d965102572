package dev.nccltriage.cli;

import dev.nccltriage.host.BuiltinRunner;
import dev.nccltriage.host.Cleanup;
import dev.nccltriage.host.CaptureMeta;
import dev.nccltriage.host.CaptureWriter;
import dev.nccltriage.host.CommandRunner;
import dev.nccltriage.host.ExecRunner;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.host.IoProblems;
import dev.nccltriage.host.RecordingRunner;
import dev.nccltriage.host.Redactor;
import dev.nccltriage.host.TarGz;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.source.probe.LadderSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code nccl-triage capture}: records everything the ladder reads, in the capture layout, so that
 * {@code check --root DIR} or {@code check --capture FILE.tar.gz} replays it anywhere.
 */
final class CaptureCommand implements Callable<Integer>, Specs.Modelled {
  private final Context ctx;

  Path output;
  boolean redact;
  Long pid;
  int timeout = 5;
  boolean debug;

  CaptureCommand(Context ctx) {
    this.ctx = ctx;
  }

  @Override
  public CommandSpec model() {
    CommandSpec spec = Specs.command(this, "capture",
        "Records everything the ladder reads (files under /dev, /sys, /proc, command outputs, NCCL_*"
            + " environment) into a folder or a .tar.gz that `check --root/--capture` replays with the same verdict.");
    spec.addOption(Specs.option(Path.class, output, v -> output = v, "-o", "--output").required(true)
        .paramLabel("FILE.tar.gz|DIR").description("Where to write: a .tar.gz/.tgz file, or a new (or empty) directory.")
        .build());
    spec.addOption(Specs.flag(v -> redact = v, "--redact")
        .description("Replace IP and MAC addresses, host names, GUIDs and GIDs consistently.").build());
    spec.addOption(Specs.option(Long.class, pid, v -> pid = v, "--pid").paramLabel("PID")
        .description("Record /proc/PID (limits, status, environ) of the training process.").build());
    spec.addOption(Specs.timeout(timeout, v -> timeout = v));
    spec.addOption(Specs.debug(v -> debug = v));
    return spec;
  }

  @Override
  public Integer call() {
    Path out = ctx.cwd().resolve(output);
    String name = out.getFileName() == null ? "" : out.getFileName().toString();
    boolean archive = name.endsWith(".tar.gz") || name.endsWith(".tgz");
    if (timeout < 1) {
      throw new NcclTriage.UsageError("--timeout must be at least 1 second");
    }
    Roots.livePid(Path.of("/"), pid);
    Path dir;
    Path made; // what this run creates, removed unless the capture is complete
    try {
      if (archive) {
        if (Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
          throw new NcclTriage.UsageError(output + ": already exists; choose a new file name");
        }
        Path parent = out.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
          // said now, not after the probes have run for their timeouts
          throw Files.exists(parent) ? new NotDirectoryException(parent.toString()) : new NoSuchFileException(parent.toString());
        }
        dir = Files.createTempDirectory("nccl-triage-capture");
        made = dir;
      } else {
        if (Files.exists(out) && (!Files.isDirectory(out) || !isEmpty(out))) {
          throw new NcclTriage.UsageError(output + (Files.isDirectory(out) ? ": is a directory that is not empty"
              : ": exists and is not a directory") + "; name a new or empty directory, or a new .tar.gz file");
        }
        made = firstMissing(out);
        dir = Files.createDirectories(out);
      }
    } catch (IOException e) {
      throw new NcclTriage.UsageError("cannot write the capture to " + output + ": " + IoProblems.describe(e, out));
    }
    // a signal (Kubernetes' SIGTERM, Ctrl-C) must not leave unredacted files or half a capture
    CountDownLatch stopped = new CountDownLatch(1);
    Cleanup.Task undo = ctx.cleanup().register(() -> {
      awaitQuietly(stopped);
      removePartial(archive, out, dir, made);
    });
    boolean written = false;
    try {
      record(dir, out, archive);
      written = undo.withdraw();
      if (!written) {
        throw new Cleanup.Interrupted();
      }
    } catch (IOException | UncheckedIOException e) {
      IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
      throw new NcclTriage.UsageError("cannot write the capture to " + output + ": " + IoProblems.describe(io, out));
    } finally {
      if (archive) {
        Roots.deleteTree(dir);
      }
      if (!written) {
        undo.withdraw();
        removePartial(archive, out, dir, made);
      }
      stopped.countDown();
    }
    ctx.err().println("nccl-triage: capture written to " + output + (redact ? " (redacted)" : "")
        + "; replay it with: nccl-triage check " + (archive ? "--capture " : "--root ") + output);
    return ExitCode.HEALTHY.code();
  }

  private void record(Path dir, Path out, boolean archive) throws IOException {
    Duration each = Duration.ofSeconds(timeout);
    CaptureWriter writer = ladder(dir, Path.of("/"),
        new BuiltinRunner(new ExecRunner(each, each.multipliedBy(2), ctx.env(), 1 << 20, ctx.cleanup())),
        ctx.env(), pid, ctx.clock().instant());
    if (writer.storageFailure() != null) {
      throw writer.storageFailure();
    }
    if (redact) {
      new Redactor().redactTree(dir);
    }
    if (archive) {
      TarGz.write(dir, out);
    }
  }

  /**
   * Runs the ladder on {@code from} ("/" when capturing for real) and records what it read and ran
   * into {@code dir}, with the properties a replay needs to take the same view (the pid whose
   * limits, capabilities and NCCL_* were read).
   */
  static CaptureWriter ladder(Path dir, Path from, CommandRunner commands, Map<String, String> env, Long pid,
      java.time.Instant when) throws IOException {
    CaptureWriter writer = new CaptureWriter(dir, from);
    HostRoot root = new HostRoot(from, writer);
    RecordingRunner runner = new RecordingRunner(commands, dir);
    PodFacts pod = new LadderSource(root, runner, env, pid).probe();
    root.read("/proc/sys/kernel/hostname"); // recorded, so --redact knows the Pod's name
    Map<String, String> recorded = new java.util.TreeMap<>(pod.env());
    if (pod.verbs().libraryPath() != null) {
      // replay searches it as the loader did here
      recorded.put("LD_LIBRARY_PATH", pod.verbs().libraryPath());
    }
    writer.writeEnv(recorded);
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("tool", "nccl-triage " + NcclTriage.version());
    meta.put("captured", when.toString());
    meta.put("envOf", pod.envOf());
    if (pid != null) {
      meta.put(CaptureMeta.PID, pid.toString());
    }
    writer.writeMeta(meta);
    return writer;
  }

  /** The capture folder (or the folder above it) that this run creates; null if it exists. */
  private static Path firstMissing(Path out) {
    Path made = null;
    for (Path p = out.toAbsolutePath().normalize(); p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS);
        p = p.getParent()) {
      made = p;
    }
    return made;
  }

  /** Removes what an unfinished capture left: the archive, the folder made for it, or its contents. */
  private static void removePartial(boolean archive, Path out, Path dir, Path made) {
    if (archive) {
      Roots.deleteTree(dir);
      try {
        Files.deleteIfExists(out);
      } catch (IOException e) {
        // nothing more can be done; the error that stopped the capture is reported
      }
    } else if (made != null) {
      Roots.deleteTree(made);
    } else {
      try (Stream<Path> s = Files.list(dir)) {
        s.forEach(Roots::deleteTree);
      } catch (IOException e) {
        // as above
      }
    }
  }

  /** The shutdown hook waits (bounded) for the command to stop writing before deleting. */
  private static void awaitQuietly(CountDownLatch stopped) {
    try {
      stopped.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    }
  }
}
