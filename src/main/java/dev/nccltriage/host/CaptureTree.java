package dev.nccltriage.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The capture folder as {@link CaptureWriter} fills it: resolves paths through the symlinks
 * already recorded, never leaving the folder, and remembers which files are placeholders so that
 * whatever is recorded later at their path replaces them.
 *
 * <p>Not thread-safe: {@link CaptureWriter} calls it under its lock.
 */
final class CaptureTree {
  private static final int MAX_HOPS = 40;

  private final Path capture;
  private final Set<Path> placeholders = new HashSet<>();
  private final Consumer<String> problem;

  /**
   * {@code capture} is the capture folder's real path; a recorded thing dropped for another when
   * folders merge is reported to {@code problem}.
   */
  CaptureTree(Path capture, Consumer<String> problem) {
    this.capture = capture;
    this.problem = problem;
  }

  /** Forgets that {@code p} is a placeholder; true when it was one. */
  boolean forgetPlaceholder(Path p) {
    return placeholders.remove(p);
  }

  static List<String> split(String target) {
    List<String> out = new ArrayList<>();
    for (String part : target.split("/")) {
      if (!part.isEmpty()) {
        out.add(part);
      }
    }
    return out;
  }

  List<String> rel(Path physical) {
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
  Path walk(List<String> comps, boolean followLast, boolean lastIsDir, boolean create) throws IOException {
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
  String captureTarget(Path parent, String target) {
    String t = target;
    if (target.startsWith("/")) {
      List<String> tc = CaptureScope.components(target);
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

  /** A placeholder for the path {@code comps} names, its parent folders created as recorded. */
  void placeholderAt(List<String> comps) throws IOException {
    Path parent = walk(comps.subList(0, comps.size() - 1), true, true, true);
    placeholder(parent.resolve(comps.get(comps.size() - 1)));
  }

  void placeholder(Path p) throws IOException {
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(p)) {
      Files.createFile(p);
      placeholders.add(p);
    }
  }

  void replaceWithFile(Path q, String content) throws IOException {
    if (Files.isDirectory(q, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.deleteIfExists(q);
    Files.writeString(q, content, StandardCharsets.UTF_8);
    placeholders.remove(q);
  }

  /** Moves what is at {@code src} to {@code dest}, merging folders; recorded beats placeholder. */
  void moveInto(Path src, Path dest) throws IOException {
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
        problem.accept("kept " + capture.relativize(dest) + " over " + capture.relativize(src));
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
}
