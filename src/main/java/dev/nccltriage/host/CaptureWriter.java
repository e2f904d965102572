package dev.nccltriage.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Records every read a {@link HostRoot} reports into a capture folder (see {@link CaptureLayout}),
 * so that {@code new HostRoot(captureDir)} answers the same reads, listings, existence checks, open
 * results and link targets later:
 *
 * <ul>
 *   <li>a file read: the same bytes at the same relative path;
 *   <li>a listing: the folder, and for each name nothing else recorded an empty regular file (a
 *       <em>placeholder</em>, so {@code /dev/infiniband/uverbs0} replays as present); a placeholder
 *       gives way to whatever is recorded later at its path, a recorded thing never to a placeholder;
 *   <li>an existence check: a folder, or a placeholder file;
 *   <li>an open result: a {@code PATH<TAB>RESULT} line in {@code .nccl-triage/opens.tsv} (the last
 *       line for a path wins on replay), plus a placeholder unless the result was {@code missing};
 *   <li>a symlink: a real symlink with the same target (an absolute target is rewritten relative,
 *       so the capture never points out of itself), or a file holding the target when a link cannot
 *       be made or would leave the capture.
 * </ul>
 *
 * <p>Reads through a recorded symlink land where the link points inside the capture, as they did
 * on the host. {@code /proc/PID/environ} is recorded with its {@code NCCL_*} entries only. Paths
 * that escape the root with {@code ..}, paths inside the capture itself (when it lies under the
 * root being read) and the capture's own {@code .nccl-triage/} files are refused, except a file
 * read of its env (see {@link CaptureScope}).
 *
 * <p>Thread-safe: probes run concurrently. A listener must not change what the probe sees, so no
 * method throws; what could not be recorded is listed by {@link #problems()}, and a failure of
 * the capture's own disk (full, read-only, an I/O error) by {@link #storageFailure()}.
 */
public final class CaptureWriter implements ReadListener {
  private static final int MAX_PROBLEMS = 200;
  private static final Pattern ENVIRON = Pattern.compile("/*proc/.*/environ");

  private final Path capture;
  private final CaptureScope scope;
  private final CaptureTree tree;
  private final List<String> problems = new ArrayList<>();
  private final Object lock = new Object();
  private IOException storageFailure;

  /** A writer for reads of the live host ({@code /}). */
  public CaptureWriter(Path captureDir) throws IOException {
    this(captureDir, Path.of("/"));
  }

  /**
   * A writer for reads of {@code sourceRoot} (the {@link HostRoot}'s root); creates {@code
   * captureDir} if needed.
   */
  public CaptureWriter(Path captureDir, Path sourceRoot) throws IOException {
    Files.createDirectories(captureDir);
    this.capture = captureDir.toRealPath();
    this.scope = new CaptureScope(captureDir, capture, sourceRoot, this::problem);
    this.tree = new CaptureTree(capture, this::problem);
  }

  /** The capture folder (its real path). */
  public Path captureDir() {
    return capture;
  }

  /**
   * The first write that failed because of where the capture is written, not what was read: a
   * full disk, a quota, a read-only file system, a size limit, an I/O error. A capture missing
   * such files is incomplete and must not be declared written.
   */
  public IOException storageFailure() {
    synchronized (lock) {
      return storageFailure;
    }
  }

  /** What could not be recorded, one line each, in order (at most 200). */
  public List<String> problems() {
    synchronized (lock) {
      return List.copyOf(problems);
    }
  }

  @Override
  public void file(String absPath, byte[] content) {
    synchronized (lock) {
      List<String> comps = scope.accept("file", absPath);
      if (comps == null || comps.isEmpty()) {
        return;
      }
      try {
        byte[] bytes = ENVIRON.matcher(absPath).matches() ? ncclOnly(content) : content;
        Path q = tree.walk(comps, true, false, true);
        if (Files.isDirectory(q, LinkOption.NOFOLLOW_LINKS)) {
          problem("file " + absPath + ": a directory is recorded there");
          return;
        }
        Files.write(q, bytes);
        tree.forgetPlaceholder(q);
      } catch (IOException | RuntimeException e) {
        noteStorage(e);
        problem("file " + absPath + ": " + e.getMessage());
      }
    }
  }

  @Override
  public void dir(String absPath, List<String> names) {
    synchronized (lock) {
      List<String> comps = scope.accept("dir", absPath);
      if (comps == null) {
        return;
      }
      try {
        Path d = tree.walk(comps, true, true, true);
        for (String name : names) {
          if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
              || name.indexOf('\0') >= 0) {
            problem("dir " + absPath + ": odd name " + name);
            continue;
          }
          if (comps.isEmpty() && name.equals(CaptureLayout.META_DIR)) {
            continue;
          }
          List<String> child = new ArrayList<>(comps);
          child.add(name);
          if (scope.isSelf(child)) {
            continue;
          }
          tree.placeholder(d.resolve(name));
        }
      } catch (IOException | RuntimeException e) {
        noteStorage(e);
        problem("dir " + absPath + ": " + e.getMessage());
      }
    }
  }

  @Override
  public void exists(String absPath, boolean exists, boolean directory) {
    if (!exists) {
      return;
    }
    synchronized (lock) {
      List<String> comps = scope.accept("exists", absPath);
      if (comps == null || comps.isEmpty()) {
        return;
      }
      try {
        if (directory) {
          tree.walk(comps, true, true, true);
        } else {
          tree.placeholderAt(comps);
        }
      } catch (IOException | RuntimeException e) {
        noteStorage(e);
        problem("exists " + absPath + ": " + e.getMessage());
      }
    }
  }

  @Override
  public void open(String absPath, String result) {
    synchronized (lock) {
      List<String> comps = scope.accept("open", absPath);
      if (comps == null) {
        return;
      }
      if (absPath.indexOf('\t') >= 0 || absPath.indexOf('\n') >= 0 || absPath.indexOf('\r') >= 0) {
        problem("open " + absPath + ": a tab or line break in the path");
        return;
      }
      String r = result == null ? "error" : result.replaceAll("[\\t\\r\\n]+", " ").strip();
      try {
        Path opens = capture.resolve(CaptureLayout.OPENS);
        Files.createDirectories(opens.getParent());
        Files.writeString(opens, absPath + "\t" + r + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        if (!r.equals("missing") && !comps.isEmpty()) {
          tree.placeholderAt(comps);
        }
      } catch (IOException | RuntimeException e) {
        noteStorage(e);
        problem("open " + absPath + ": " + e.getMessage());
      }
    }
  }

  @Override
  public void link(String absPath, String target) {
    synchronized (lock) {
      List<String> comps = scope.accept("link", absPath);
      if (comps == null || comps.isEmpty() || target == null || target.isEmpty()) {
        return;
      }
      try {
        Path parent = tree.walk(comps.subList(0, comps.size() - 1), true, true, true);
        Path q = parent.resolve(comps.get(comps.size() - 1));
        String t = tree.captureTarget(parent, target);
        if (t == null) {
          problem("link " + absPath + " -> " + target + ": points out of the capture; recorded as a file");
          tree.replaceWithFile(q, target);
          return;
        }
        if (Files.isSymbolicLink(q)) {
          if (Files.readSymbolicLink(q).toString().equals(t)) {
            return;
          }
          Files.delete(q);
        } else if (Files.exists(q, LinkOption.NOFOLLOW_LINKS)) {
          if (tree.forgetPlaceholder(q)) {
            Files.delete(q);
          } else {
            // reads already went through this path: what they left belongs where the link points
            List<String> rel = tree.rel(parent);
            rel.addAll(CaptureTree.split(t));
            Path dest = tree.walk(rel, true, false, false);
            if (dest.startsWith(q)) {
              problem("link " + absPath + " -> " + target + ": points into itself");
              return;
            }
            tree.moveInto(q, dest);
          }
        }
        try {
          Files.createSymbolicLink(q, Path.of(t));
        } catch (UnsupportedOperationException | IOException e) {
          tree.replaceWithFile(q, target);
        }
      } catch (IOException | RuntimeException e) {
        noteStorage(e);
        problem("link " + absPath + ": " + e.getMessage());
      }
    }
  }

  /** Writes {@code .nccl-triage/env}: sorted NAME=VALUE lines (a line break in a value becomes a space). */
  public void writeEnv(Map<String, String> ncclEnv) throws IOException {
    StringBuilder sb = new StringBuilder();
    new TreeMap<>(ncclEnv).forEach((k, v) -> {
      if (!k.isEmpty() && k.indexOf('=') < 0 && k.indexOf('\n') < 0 && k.indexOf('\r') < 0) {
        sb.append(k).append('=').append(v == null ? "" : v.replaceAll("[\\r\\n]+", " ")).append('\n');
      }
    });
    synchronized (lock) {
      CaptureMeta.writeAtomically(capture.resolve(CaptureLayout.ENV), sb, StandardCharsets.UTF_8);
    }
  }

  /** Adds entries to {@code .nccl-triage/capture.properties}, keeping those already there. */
  public void writeMeta(Map<String, String> meta) throws IOException {
    synchronized (lock) {
      CaptureMeta.merge(capture, meta);
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** /proc/PID/environ with only its NCCL_* entries: the rest can hold secrets. */
  private static byte[] ncclOnly(byte[] environ) {
    StringBuilder sb = new StringBuilder();
    for (String kv : new String(environ, StandardCharsets.UTF_8).split("\0")) {
      if (kv.startsWith("NCCL_")) {
        sb.append(kv).append('\0');
      }
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static final List<String> STORAGE_ERRORS = List.of("No space left on device", "Disk quota exceeded",
      "Read-only file system", "File too large", "Input/output error");

  private void noteStorage(Exception e) {
    String m = e instanceof IOException ? String.valueOf(e.getMessage()) : "";
    if (storageFailure == null && STORAGE_ERRORS.stream().anyMatch(m::contains)) {
      storageFailure = (IOException) e;
    }
  }

  private void problem(String line) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(line);
    }
  }
}
