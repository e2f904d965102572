package dev.nccltriage.source.log;

import dev.nccltriage.host.InputFiles;
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
  private final FileChannel stdinFile;

  InputPlan(int threads, long parallelMinBytes) {
    this(threads, parallelMinBytes, null);
  }

  /** {@code stdinFile}: standard input's channel when it is a regular file, else null. */
  InputPlan(int threads, long parallelMinBytes, FileChannel stdinFile) {
    this.threads = threads;
    this.parallelMinBytes = parallelMinBytes;
    this.stdinFile = stdinFile;
  }

  /**
   * Adds input {@code i}'s units; returns its size if it is a plain file (for progress), else 0.
   * Checks that it can be opened now, so a bad name fails before any parsing.
   */
  long plan(int i, String name, Path cwd, List<LogUnit> units) throws LogInputException {
    if (name.equals("-")) {
      long size = stdinFile == null ? -1 : stdinParts(i, name, units);
      if (size >= 0) {
        return size;
      }
      units.add(new LogUnit.Whole(i, name, null, true));
      return 0;
    }
    Path path = cwd.resolve(name);
    if (Files.isDirectory(path)) {
      throw new LogInputException(name + ": is a directory, not a log file", null);
    }
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path)) {
      String endless = InputFiles.endless(path);
      if (endless != null) {
        throw new LogInputException(name + ": " + endless, null);
      }
      // a pipe, e.g. <(kubectl logs POD): no size, no second look; read once, as a stream
      units.add(new LogUnit.Whole(i, name, path, true));
      return 0;
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (isGzip(ch, 0) || isUtf16(ch, 0)) {
        // read as a stream: a part cut at a byte offset cannot be decoded on its own
        units.add(new LogUnit.Whole(i, name, path, true));
        return 0;
      }
      if (size < parallelMinBytes || threads == 1) {
        units.add(new LogUnit.Whole(i, name, path, false));
        return size;
      }
      addParts(i, name, path, null, 0, size, units);
      return size;
    } catch (NoSuchFileException e) {
      throw new LogInputException(name + ": " + IoProblems.NO_SUCH_FILE, e);
    } catch (AccessDeniedException e) {
      throw new LogInputException(name + ": " + IoProblems.PERMISSION_DENIED, e);
    } catch (IOException e) {
      throw new LogInputException(name + ": cannot read: " + IoProblems.describe(e), e);
    }
  }

  /**
   * Standard input redirected from a large plain file (`log - < FILE`): parts of it, from where its
   * reading would start, read at offsets as a named file's are, instead of one stream cut by one
   * thread. Its position is then moved to the end, where reading it would have left it (a second
   * "-" reads nothing, as from a stream). Returns the size planned, or -1 to read it as a stream.
   */
  private long stdinParts(int i, String name, List<LogUnit> units) {
    try {
      long origin = stdinFile.position();
      long size = stdinFile.size() - origin;
      if (size < parallelMinBytes || threads == 1 || isGzip(stdinFile, origin) || isUtf16(stdinFile, origin)) {
        return -1;
      }
      addParts(i, name, null, stdinFile, origin, size, units);
      stdinFile.position(origin + size);
      return size;
    } catch (IOException e) {
      return -1; // read as a stream, which reports what is wrong with it, if anything
    }
  }

  private void addParts(int i, String name, Path path, FileChannel channel, long origin, long size, List<LogUnit> units) {
    long[] cuts = cuts(size, threads, parallelMinBytes);
    for (int k = 0; k + 1 < cuts.length; k++) {
      units.add(new LogUnit.Part(i, name, path, channel, origin, origin + cuts[k], origin + cuts[k + 1]));
    }
  }

  /**
   * Byte offsets that cut a file of {@code size} bytes into parts: 0, the cuts, size. More parts
   * than threads, so that a thread that finishes early takes another. The last {@code threads}
   * parts are each cut in four: the threads run out of work within a quarter part of each other,
   * not a whole part (a 1 GiB log on two threads: 16 parts of 64 MB left one thread idle for up
   * to 0.45 s at the end). The bulk keeps its large parts: each part starts with an empty
   * accumulator, which learns every process and text again.
   */
  static long[] cuts(long size, int threads, long minBytes) {
    int parts = (int) Math.min(threads * 8L, Math.max(1, size / minBytes));
    int tail = parts > threads ? threads : 0; // too few parts: each already lasts a short while
    long tailFrom = size * (parts - tail) / parts;
    long[] cuts = new long[parts + 3 * tail + 1];
    int n = 0;
    for (int k = 0; k < parts - tail; k++) {
      cuts[n++] = size * k / parts;
    }
    for (int k = 0; k < 4 * tail; k++) {
      long cut = tailFrom + (size - tailFrom) * k / (4L * tail);
      if (n == 0 || cut > cuts[n - 1]) { // a tiny file: no empty parts
        cuts[n++] = cut;
      }
    }
    cuts[n++] = size;
    return java.util.Arrays.copyOf(cuts, n);
  }

  private static boolean isUtf16(FileChannel ch, long at) throws IOException {
    java.nio.ByteBuffer head = java.nio.ByteBuffer.allocate(Utf16Text.HEAD);
    int read = 0;
    while (head.hasRemaining() && read >= 0) {
      read = ch.read(head, at + head.position());
    }
    return Utf16Text.charset(head.array(), head.position()) != null;
  }

  private static boolean isGzip(FileChannel ch, long at) throws IOException {
    java.nio.ByteBuffer magic = java.nio.ByteBuffer.allocate(2);
    ch.read(magic, at);
    return magic.position() == 2 && (magic.get(0) & 0xff) == 0x1f && (magic.get(1) & 0xff) == 0x8b;
  }
}
