package dev.nccltriage.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * root being read) and the capture's own {@code .nccl-triage/} files are refused.
 *
 * <p>Thread-safe: probes run concurrently. A listener must not change what the probe sees, so no
 * method throws; what could not be recorded is listed by {@link #problems()}.
 */
public final class CaptureWriter implements ReadListener {
  private static final int MAX_HOPS = 40;
  private static final int MAX_PROBLEMS = 200;
  private static final Pattern ENVIRON = Pattern.compile("/*proc/.*/environ");

  private final Path capture;
  private final List<List<String>> self = new ArrayList<>();
  private final Set<Path> placeholders = new HashSet<>();
  private final List<String> problems = new ArrayList<>();
  private final Object lock = new Object();

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
    Set<Path> captureForms = new LinkedHashSet<>(List.of(captureDir.toAbsolutePath().normalize(), capture));
    Set<Path> rootForms = new LinkedHashSet<>();
    rootForms.add(sourceRoot.toAbsolutePath().normalize());
    try {
      rootForms.add(sourceRoot.toRealPath());
    } catch (IOException e) {
      // a root that does not exist yet has only its given form
    }
    for (Path r : rootForms) {
      for (Path c : captureForms) {
        if (c.startsWith(r)) {
          List<String> comps = new ArrayList<>();
          r.relativize(c).forEach(p -> {
            if (!p.toString().isEmpty()) {
              comps.add(p.toString());
            }
          });
          self.add(comps);
        }
      }
    }
  }

  /** The capture folder (its real path). */
  public Path captureDir() {
    return capture;
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
      List<String> comps = accept("file", absPath);
      if (comps == null || comps.isEmpty()) {
        return;
      }
      try {
        byte[] bytes = ENVIRON.matcher(absPath).matches() ? ncclOnly(content) : content;
        Path q = walk(comps, true, false, true);
        if (Files.isDirectory(q, LinkOption.NOFOLLOW_LINKS)) {
          problem("file " + absPath + ": a directory is recorded there");
          return;
        }
        Files.write(q, bytes);
        placeholders.remove(q);
      } catch (IOException | RuntimeException e) {
        problem("file " + absPath + ": " + e.getMessage());
      }
    }
  }

  @Override
  public void dir(String absPath, List<String> names) {
    synchronized (lock) {
      List<String> comps = accept("dir", absPath);
      if (comps == null) {
        return;
      }
      try {
        Path d = walk(comps, true, true, true);
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
          if (isSelf(child)) {
            continue;
          }
          placeholder(d.resolve(name));
        }
      } catch (IOException | RuntimeException e) {
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
      List<String> comps = accept("exists", absPath);
      if (comps == null || comps.isEmpty()) {
        return;
      }
      try {
        if (directory) {
          walk(comps, true, true, true);
        } else {
          Path parent = walk(comps.subList(0, comps.size() - 1), true, true, true);
          placeholder(parent.resolve(comps.get(comps.size() - 1)));
        }
      } catch (IOException | RuntimeException e) {
        problem("exists " + absPath + ": " + e.getMessage());
      }
    }
  }

  @Override
  public void open(String absPath, String result) {
    synchronized (lock) {
      List<String> comps = accept("open", absPath);
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
          Path parent = walk(comps.subList(0, comps.size() - 1), true, true, true);
          placeholder(parent.resolve(comps.get(comps.size() - 1)));
        }
      } catch (IOException | RuntimeException e) {
        problem("open " + absPath + ": " + e.getMessage());
      }
    }
  }

  @Override
  public void link(String absPath, String target) {
    synchronized (lock) {
      List<String> comps = accept("link", absPath);
      if (comps == null || comps.isEmpty() || target == null || target.isEmpty()) {
        return;
      }
      try {
        Path parent = walk(comps.subList(0, comps.size() - 1), true, true, true);
        Path q = parent.resolve(comps.get(comps.size() - 1));
        String t = captureTarget(parent, target);
        if (t == null) {
          problem("link " + absPath + " -> " + target + ": points out of the capture; recorded as a file");
          replaceWithFile(q, target);
          return;
        }
        if (Files.isSymbolicLink(q)) {
          if (Files.readSymbolicLink(q).toString().equals(t)) {
            return;
          }
          Files.delete(q);
        } else if (Files.exists(q, LinkOption.NOFOLLOW_LINKS)) {
          if (placeholders.remove(q)) {
            Files.delete(q);
          } else {
            // reads already went through this path: what they left belongs where the link points
            List<String> rel = rel(parent);
            rel.addAll(split(t));
            Path dest = walk(rel, true, false, false);
            if (dest.startsWith(q)) {
              problem("link " + absPath + " -> " + target + ": points into itself");
              return;
            }
            moveInto(q, dest);
          }
        }
        try {
          Files.createSymbolicLink(q, Path.of(t));
        } catch (UnsupportedOperationException | IOException e) {
          replaceWithFile(q, target);
        }
      } catch (IOException | RuntimeException e) {
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

  /** The path's components, or null (and a problem noted) when it must not be recorded. */
  private List<String> accept(String what, String absPath) {
    if (absPath == null) {
      return null;
    }
    List<String> comps = components(absPath);
    if (comps == null) {
      problem(what + " " + absPath + ": refused, escapes the root with ..");
      return null;
    }
    if (isSelf(comps)) {
      return null;
    }
    if (!comps.isEmpty() && comps.get(0).equals(CaptureLayout.META_DIR)
        && !(what.equals("file") && String.join("/", comps).equals(CaptureLayout.ENV))) {
      problem(what + " " + absPath + ": refused, the capture's own metadata path");
      return null;
    }
    return comps;
  }

  private boolean isSelf(List<String> comps) {
    for (List<String> s : self) {
      if (comps.size() >= s.size() && comps.subList(0, s.size()).equals(s)) {
        return true;
      }
    }
    return false;
  }

  /** "/a/./b//c/../d" to [a, b, d]; null when ".." climbs above the root or a NUL is in it. */
  static List<String> components(String absPath) {
    List<String> out = new ArrayList<>();
    for (String part : absPath.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.indexOf('\0') >= 0) {
        return null;
      }
      if (part.equals("..")) {
        if (out.isEmpty()) {
          return null;
        }
        out.remove(out.size() - 1);
      } else {
        out.add(part);
      }
    }
    return out;
  }

  private static List<String> split(String target) {
    List<String> out = new ArrayList<>();
    for (String part : target.split("/")) {
      if (!part.isEmpty()) {
        out.add(part);
      }
    }
    return out;
  }

  private List<String> rel(Path physical) {
    List<String> out = new ArrayList<>();
    capture.relativize(physical).forEach(p -> {
      if (!p.toString().isEmpty()) {
        out.add(p.toString());
      }
    });
    return out;
  }

  /**
   * Resolves capture-relative components as the kernel would, following the capture's symlinks and
   * never leaving it. With {@code create}, missing folders on the way are made (a placeholder file
   * in the way becomes a folder); {@code lastIsDir} treats the last component as a folder too.
   */
  private Path walk(List<String> comps, boolean followLast, boolean lastIsDir, boolean create) throws IOException {
    Deque<String> todo = new ArrayDeque<>(comps);
    Path cur = capture;
    int hops = 0;
    while (!todo.isEmpty()) {
      String c = todo.pollFirst();
      boolean last = todo.isEmpty();
      if (c.isEmpty() || c.equals(".")) {
        continue;
      }
      if (c.equals("..")) {
        if (cur.equals(capture)) {
          throw new IOException("a symlink leads out of the capture");
        }
        cur = cur.getParent();
        continue;
      }
      Path next = cur.resolve(c);
      if (Files.isSymbolicLink(next) && (!last || followLast)) {
        if (++hops > MAX_HOPS) {
          throw new IOException("too many levels of symlinks at " + capture.relativize(next));
        }
        String t = Files.readSymbolicLink(next).toString();
        List<String> tc = split(t);
        for (int i = tc.size() - 1; i >= 0; i--) {
          todo.addFirst(tc.get(i));
        }
        if (t.startsWith("/")) {
          cur = capture;
        }
        continue;
      }
      if (create && (!last || lastIsDir)) {
        if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectory(next);
        } else if (!Files.isDirectory(next, LinkOption.NOFOLLOW_LINKS)) {
          if (placeholders.remove(next)) {
            Files.delete(next);
            Files.createDirectory(next);
          } else {
            throw new FileAlreadyExistsException(capture.relativize(next) + " is recorded as a file, not a directory");
          }
        }
      }
      cur = next;
    }
    return cur;
  }

  /**
   * The target as it will be written inside the capture: a relative target as it is, an absolute
   * one rewritten relative to the link's folder; null when it would resolve outside the capture.
   */
  private String captureTarget(Path parent, String target) {
    String t = target;
    if (target.startsWith("/")) {
      List<String> tc = components(target);
      if (tc == null) {
        return null;
      }
      Path abs = capture.resolve(String.join("/", tc)).normalize();
      t = parent.relativize(abs).toString();
      if (t.isEmpty()) {
        t = ".";
      }
    }
    List<String> check = rel(parent);
    check.addAll(split(t));
    try {
      walk(check, true, false, false);
      return t;
    } catch (IOException e) {
      return null;
    }
  }

  private void placeholder(Path p) throws IOException {
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(p)) {
      Files.createFile(p);
      placeholders.add(p);
    }
  }

  private void replaceWithFile(Path q, String content) throws IOException {
    if (Files.isDirectory(q, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.deleteIfExists(q);
    Files.writeString(q, content, StandardCharsets.UTF_8);
    placeholders.remove(q);
  }

  /** Moves what is at {@code src} to {@code dest}, merging folders; recorded beats placeholder. */
  private void moveInto(Path src, Path dest) throws IOException {
    boolean srcDir = Files.isDirectory(src, LinkOption.NOFOLLOW_LINKS);
    if (!Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
      walk(rel(dest.getParent()), true, true, true);
      Files.move(src, dest);
      rebase(src, dest);
      return;
    }
    boolean destDir = Files.isDirectory(dest, LinkOption.NOFOLLOW_LINKS);
    if (srcDir && destDir) {
      List<Path> children = new ArrayList<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(src)) {
        ds.forEach(children::add);
      }
      for (Path child : children) {
        moveInto(child, dest.resolve(child.getFileName().toString()));
      }
      Files.delete(src);
    } else if (placeholders.contains(dest) && !destDir) {
      Files.delete(dest);
      placeholders.remove(dest);
      Files.move(src, dest);
      rebase(src, dest);
    } else {
      if (!placeholders.contains(src)) {
        problem("kept " + capture.relativize(dest) + " over " + capture.relativize(src));
      }
      deleteTree(src);
    }
  }

  private void rebase(Path from, Path to) {
    List<Path> moved = new ArrayList<>();
    for (Path p : placeholders) {
      if (p.startsWith(from)) {
        moved.add(p);
      }
    }
    for (Path p : moved) {
      placeholders.remove(p);
      placeholders.add(to.resolve(from.relativize(p)));
    }
  }

  private void deleteTree(Path p) throws IOException {
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      List<Path> children = new ArrayList<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
        ds.forEach(children::add);
      }
      for (Path c : children) {
        deleteTree(c);
      }
    }
    Files.delete(p);
    placeholders.remove(p);
  }

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

  private void problem(String line) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(line);
    }
  }
}
