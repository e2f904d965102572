package dev.nccltriage.cli;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CaptureLayout;
import dev.nccltriage.host.CaptureMeta;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.host.IoProblems;
import dev.nccltriage.host.ReplayRunner;
import dev.nccltriage.host.TarGz;
import dev.nccltriage.source.probe.LadderSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Where the ladder reads from: "/" on the host, a capture folder (--root, or --capture naming a
 * folder) or a capture archive (--capture, unpacked to a temporary folder that is removed
 * afterwards). One place for every
 * command that takes these options.
 */
final class Roots {
  private Roots() {}

  /**
   * Runs {@code fn} on the root folder the options name ("/" when neither is given). A folder or
   * archive that is not a capture (no proc/ or sys/, an archive without capture.properties) is a
   * usage error: replaying an empty tree would give a confident verdict about nothing.
   */
  static <T> T with(Context ctx, Path root, Path capture, Function<Path, T> fn) {
    if (root != null && capture != null) {
      throw new NcclTriage.UsageError("--root and --capture cannot be used together");
    }
    if (capture == null) {
      return folder(ctx, root, "--root", fn);
    }
    Path archive = ctx.cwd().resolve(capture);
    if (Files.isDirectory(archive)) {
      // 'capture -o DIR' writes a folder: it replays the same whichever option names it
      return folder(ctx, capture, "--capture", fn);
    }
    Path extracted;
    try {
      extracted = Files.createTempDirectory("nccl-triage-capture");
    } catch (IOException e) {
      throw new NcclTriage.UsageError("cannot prepare the capture: " + IoProblems.describe(e));
    }
    // a signal must not leave the unpacked capture (possibly unredacted) behind
    dev.nccltriage.host.Cleanup.Task undo = ctx.cleanup().register(() -> deleteTree(extracted));
    try {
      try {
        TarGz.extract(archive, extracted);
      } catch (IOException e) {
        throw new NcclTriage.UsageError(capture + ": not a readable capture archive: " + IoProblems.describe(e));
      }
      List<String> missing = CaptureLayout.missing(extracted, true);
      if (!missing.isEmpty()) {
        throw new NcclTriage.UsageError(capture + ": not a capture archive: no " + String.join(" or ", missing)
            + " in it (a capture is what 'nccl-triage capture -o FILE.tar.gz' writes)");
      }
      return fn.apply(extracted);
    } finally {
      deleteTree(extracted);
      undo.withdraw();
    }
  }

  /** A capture folder (or "/" when {@code given} is null), checked to be one, given to {@code fn}. */
  private static <T> T folder(Context ctx, Path given, String option, Function<Path, T> fn) {
    Path dir = given == null ? Path.of("/") : ctx.cwd().resolve(given);
    if (!Files.isDirectory(dir)) {
      throw new NcclTriage.UsageError(given + ": " + option + " needs a directory (a capture folder, or /)"
          + (Files.exists(dir) ? "" : ": no such directory"));
    }
    List<String> missing = CaptureLayout.missing(dir, false);
    if (!missing.isEmpty()) {
      throw new NcclTriage.UsageError(given + ": not a capture folder: no " + String.join(" or ", missing)
          + " in it (a capture is what 'nccl-triage capture -o DIR' writes)");
    }
    return fn.apply(dir);
  }

  /** The pod facts of a capture folder or archive, replayed (nothing is run). */
  static PodFacts replay(Context ctx, Path root, Path capture) {
    return with(ctx, root, capture,
        dir -> new LadderSource(new HostRoot(dir), new ReplayRunner(dir), Map.of(), pid(dir, null)).probe());
  }

  /**
   * Whose limits, capabilities and NCCL_* the ladder reads under {@code dir}: on the live host the
   * {@code --pid} given; in a capture the process it was made for (capture.properties), so a
   * replay takes the capture's own view without being told. A {@code --pid} that names another
   * process is a usage error, not an override: the capture holds only what was read then, and
   * reading another /proc/PID would judge files that were never captured (memlock "missing", a
   * healthy-looking step) instead of the process that was.
   */
  /**
   * --pid on a live host names a process that exists: a mistyped pid would leave step 5 and the
   * environment unread and the verdict silently about nothing.
   */
  static Long livePid(Path root, Long given) {
    if (given != null && !new HostRoot(root).isDirectory("/proc/" + given)) {
      throw new NcclTriage.UsageError("--pid " + given + ": no such process (/proc/" + given + " does not exist"
          + (given > 0 ? "; in a container, the training process is usually 1: see `ps -e` or /proc/*/cmdline)" : ")"));
    }
    return given;
  }

  static Long pid(Path dir, Long given) {
    if (new HostRoot(dir).live()) {
      return livePid(dir, given);
    }
    Map<String, String> meta;
    try {
      meta = CaptureMeta.read(dir);
    } catch (IOException | IllegalArgumentException e) {
      throw new NcclTriage.UsageError(CaptureLayout.META + ": unreadable in the capture: "
          + (e instanceof IOException io ? IoProblems.describe(io) : e.getMessage()));
    }
    Long captured = CaptureMeta.pid(meta);
    String envOf = meta.get(CaptureMeta.ENV_OF);
    if (given == null || given.equals(captured)) {
      return captured;
    }
    if (captured != null) {
      throw new NcclTriage.UsageError("--pid " + given + ": this capture was made with --pid " + captured
          + " and holds that process's files; leave --pid out to replay it");
    }
    if (envOf != null) {
      throw new NcclTriage.UsageError("--pid " + given + ": this capture was made without --pid (" + envOf
          + ") and holds no other process's files; capture again with --pid " + given);
    }
    // a capture that does not say whose files it holds (made by hand): --pid picks a /proc/PID in it
    if (!new HostRoot(dir).isDirectory("/proc/" + given)) {
      throw new NcclTriage.UsageError("--pid " + given + ": the capture has no /proc/" + given);
    }
    return given;
  }

  static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary folder left behind is harmless
    }
  }
}
