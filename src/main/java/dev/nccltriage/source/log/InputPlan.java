package dev.nccltriage.source.log;

import dev.nccltriage.host.IoProblems;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Turns the named inputs into {@link LogUnit}s: a large plain file into parts at byte offsets
 * (their lines found when parsed), stdin, a pipe or a gzip file into one stream, anything else
 * into one whole unit.
 */
final class InputPlan {
  private final int threads;
  private final long parallelMinBytes;

  InputPlan(int threads, long parallelMinBytes) {
    this.threads = threads;
    this.parallelMinBytes = parallelMinBytes;
  }

  /**
   * Adds input {@code i}'s units; returns its size if it is a plain file (for progress), else 0.
   * Checks that it can be opened now, so a bad name fails before any parsing.
   */
  long plan(int i, String name, Path cwd, List<LogUnit> units) throws LogInputException {
    if (name.equals("-")) {
      units.add(new LogUnit.Whole(i, name, null, true));
      return 0;
    }
    Path path = cwd.resolve(name);
    if (Files.isDirectory(path)) {
      throw new LogInputException(name + ": is a directory, not a log file", null);
    }
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path)) {
      // a pipe, e.g. <(kubectl logs POD): no size, no second look; read once, as a stream
      units.add(new LogUnit.Whole(i, name, path, true));
      return 0;
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (isGzip(ch)) {
        units.add(new LogUnit.Whole(i, name, path, true));
        return 0;
      }
      if (size < parallelMinBytes || threads == 1) {
        units.add(new LogUnit.Whole(i, name, path, false));
        return size;
      }
      // more parts than threads, so a thread that finishes early takes another part
      int parts = (int) Math.min(threads * 8L, Math.max(1, size / parallelMinBytes));
      for (int k = 0; k < parts; k++) {
        units.add(new LogUnit.Part(i, name, path, size * k / parts, size * (k + 1) / parts));
      }
      return size;
    } catch (NoSuchFileException e) {
      throw new LogInputException(name + ": " + IoProblems.NO_SUCH_FILE, e);
    } catch (AccessDeniedException e) {
      throw new LogInputException(name + ": " + IoProblems.PERMISSION_DENIED, e);
    } catch (IOException e) {
      throw new LogInputException(name + ": cannot read: " + IoProblems.describe(e), e);
    }
  }

  private static boolean isGzip(FileChannel ch) throws IOException {
    java.nio.ByteBuffer magic = java.nio.ByteBuffer.allocate(2);
    ch.read(magic, 0);
    return magic.position() == 2 && (magic.get(0) & 0xff) == 0x1f && (magic.get(1) & 0xff) == 0x8b;
  }
}
