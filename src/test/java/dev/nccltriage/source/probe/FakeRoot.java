package dev.nccltriage.source.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the files of a fake host root (sysfs, /proc, /dev) that a probe test reads through HostRoot. */
final class FakeRoot {
  private FakeRoot() {}

  /** Writes {@code text} at {@code path} below {@code root}, with the folders it needs. */
  static void file(Path root, String path, String text) throws IOException {
    Path p = root.resolve(path);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }
}
