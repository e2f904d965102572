package dev.nccltriage.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Finding and reading files under a root. On the host ("/") a path means what the kernel makes of
 * it. Under a capture folder the tree is someone else's: every symlink is followed here, by hand,
 * and must stay inside the folder, or a link to {@code /etc} or {@code ../../..} would answer from
 * this machine instead of the capture. Only regular files are opened, on both: a FIFO blocks an
 * open for ever, and a device ({@code /dev/urandom}) never ends.
 */
final class RootFiles {
  private static final int MAX_HOPS = 40;
  private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
  private static final LinkOption[] FOLLOW = {};

  private final Path root;
  private final boolean live;

  RootFiles(Path root) {
    Path abs = root.toAbsolutePath().normalize();
    this.live = abs.getParent() == null;
    Path real = abs;
    if (!live) {
      try {
        real = abs.toRealPath(); // the folder itself may be reached through a link; its contents may not leave it
      } catch (IOException e) {
        real = abs;
      }
    }
    this.root = real;
  }

  Path root() {
    return root;
  }

  boolean live() {
    return live;
  }

  /** Where a path leads: {@code path} when it stays under the root, else {@code refused} says why. */
  record Located(Path path, String refused) {}

  /**
   * The physical path of {@code absPath}. On replay its symlinks (the last one too when {@code
   * followLast}) are resolved inside the root, so the result is free of links up to its last name.
   */
  Located locate(String absPath, boolean followLast) {
    String rel = absPath.startsWith("/") ? absPath.substring(1) : absPath;
    if (live) {
      return new Located(root.resolve(rel), null);
    }
    return resolveInside(root, rel, followLast);
  }

  /**
   * Resolves {@code rel} under {@code root} as the kernel would, following symlinks (the last one
   * too when {@code followLast}); refused when a link is absolute, a {@code ..} climbs above the
   * root, or the links go round. The same walk serves replay and the archive extractor.
   */
  static Located resolveInside(Path root, String rel, boolean followLast) {
    Deque<String> todo = new ArrayDeque<>();
    for (String c : rel.split("/")) {
      todo.addLast(c);
    }
    Path cur = root;
    int hops = 0;
    while (!todo.isEmpty()) {
      String c = todo.pollFirst();
      if (c.isEmpty() || c.equals(".")) {
        continue;
      }
      if (c.equals("..")) {
        if (cur.equals(root)) {
          return new Located(null, "the path leads out of " + root);
        }
        cur = cur.getParent();
        continue;
      }
      Path next = cur.resolve(c);
      if ((followLast || !todo.isEmpty()) && Files.isSymbolicLink(next)) {
        if (++hops > MAX_HOPS) {
          return new Located(null, "too many levels of symlinks at " + root.relativize(next));
        }
        String target;
        try {
          target = Files.readSymbolicLink(next).toString();
        } catch (IOException | UnsupportedOperationException e) {
          return new Located(null, "cannot read the symlink " + root.relativize(next));
        }
        if (target.startsWith("/")) {
          return new Located(null, "the symlink " + root.relativize(next) + " points to " + target
              + ", outside " + root);
        }
        String[] tc = target.split("/");
        for (int i = tc.length - 1; i >= 0; i--) {
          todo.addFirst(tc[i]);
        }
        continue;
      }
      cur = next;
    }
    return new Located(cur, null);
  }

  /** Reading a file: {@code status} as in {@link FileRead}; {@code truncated} when it is longer than asked. */
  record Bytes(String status, byte[] bytes, boolean truncated, String detail) {
    boolean ok() {
      return status.equals("ok");
    }
  }

  /** At most {@code max} bytes of a regular file; anything else (FIFO, device, socket, a way out) is an error. */
  Bytes read(String absPath, int max) {
    Located at = locate(absPath, true);
    if (at.refused() != null) {
      return new Bytes("error", null, false, at.refused());
    }
    Path p = at.path();
    LinkOption[] follow = live ? FOLLOW : NOFOLLOW;
    try {
      BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, follow);
      if (!a.isRegularFile()) {
        return new Bytes("error", null, false, "not a regular file: " + kind(p, follow));
      }
      // NOFOLLOW again at the open: a link put there since the check is not followed out
      try (InputStream in = Files.newInputStream(p, follow)) {
        byte[] b = in.readNBytes(max);
        boolean more = b.length == max && in.read() >= 0;
        return new Bytes("ok", b, more, null);
      }
    } catch (NoSuchFileException e) {
      return new Bytes("missing", null, false, null);
    } catch (AccessDeniedException e) {
      return new Bytes("denied", null, false, IoProblems.PERMISSION_DENIED);
    } catch (IOException | RuntimeException e) {
      return new Bytes("error", null, false, IoProblems.describe(e));
    }
  }

  /** What a file that is not a regular one is, in words. */
  static String kind(Path p, LinkOption... follow) {
    try {
      int mode = (Integer) Files.getAttribute(p, "unix:mode", follow);
      return switch (mode & 0170000) {
        case 0010000 -> "a FIFO";
        case 0020000 -> "a character device";
        case 0060000 -> "a block device";
        case 0140000 -> "a socket";
        case 0040000 -> "a directory";
        case 0120000 -> "a symlink";
        default -> "an unusual file";
      };
    } catch (IOException | RuntimeException e) {
      return Files.isDirectory(p, follow) ? "a directory" : "an unusual file";
    }
  }

  /** True when the path leads to something that exists, inside the root. */
  boolean exists(String absPath) {
    Located at = locate(absPath, true);
    return at.refused() == null && Files.exists(at.path(), live ? FOLLOW : NOFOLLOW);
  }

  /** True when the path leads to a folder, inside the root. */
  boolean isDirectory(String absPath) {
    Located at = locate(absPath, true);
    return at.refused() == null && Files.isDirectory(at.path(), live ? FOLLOW : NOFOLLOW);
  }
}
