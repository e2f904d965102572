package dev.nccltriage.host;

import static dev.nccltriage.host.TarHeaders.show;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Where {@link TarExtractor} may put an entry: inside the target folder, never through a symlink. */
final class TarPaths {

  private TarPaths() {}

  /**
   * The name's components; refuses absolute names, ".." and NUL. A backslash is an ordinary byte
   * in a Linux file name, so "..\x" or "C:\x" stays one name inside the folder.
   */
  static List<String> safeName(String name) throws IOException {
    if (name.startsWith("/")) {
      throw new IOException("entry '" + show(name) + "': refused, an absolute name");
    }
    if (name.indexOf('\0') >= 0) {
      throw new IOException("entry '" + show(name) + "': refused, a NUL in the name");
    }
    List<String> out = new ArrayList<>();
    for (String part : name.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        throw new IOException("entry '" + show(name) + "': refused, a '..' component");
      }
      out.add(part);
    }
    return out;
  }

  static List<String> safeLinkName(String link, String entry) throws IOException {
    try {
      List<String> c = safeName(link);
      if (c.isEmpty()) {
        throw new IOException("empty");
      }
      return c;
    } catch (IOException e) {
      throw new IOException("entry '" + show(entry) + "': refused, hard link to " + link + " outside the archive");
    }
  }

  /** Makes the folders (never through a symlink; a file in the way is an error); returns the last. */
  static Path ensureDirs(Path root, List<String> comps, String entry) throws IOException {
    Path cur = root;
    for (String c : comps) {
      cur = cur.resolve(c);
      if (Files.isSymbolicLink(cur)) {
        throw new IOException("entry '" + show(entry) + "': refused, it would be written through the symlink "
            + root.relativize(cur));
      }
      if (!Files.exists(cur, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectory(cur);
      } else if (!Files.isDirectory(cur, LinkOption.NOFOLLOW_LINKS)) {
        throw new IOException("entry '" + show(entry) + "': " + root.relativize(cur) + " is a file, not a directory");
      }
    }
    return cur;
  }

  static boolean throughLink(Path root, List<String> comps) {
    Path cur = root;
    for (String c : comps) {
      cur = cur.resolve(c);
      if (Files.isSymbolicLink(cur)) {
        return true;
      }
    }
    return false;
  }

  static void prepareForFile(Path file, String entry) throws IOException {
    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException("entry '" + show(entry) + "': a directory of that name is already extracted");
    }
    Files.deleteIfExists(file); // an earlier entry of the same name, or a symlink: never write through it
  }

  static boolean lexicallyOutside(List<String> dirComps, String link) {
    Deque<String> stack = new ArrayDeque<>(dirComps);
    for (String part : link.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        if (stack.isEmpty()) {
          return true;
        }
        stack.removeLast();
      } else {
        stack.addLast(part);
      }
    }
    return false;
  }

  /** Resolves as the kernel would, following the extracted links; true if it ever climbs above the root. */
  static boolean resolvesOutside(Path root, List<String> comps) {
    return RootFiles.resolveInside(root, String.join("/", comps), true).path() == null;
  }
}
