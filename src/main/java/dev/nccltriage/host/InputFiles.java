package dev.nccltriage.host;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opening what a user names as input (a log, nccl-tests output, stdin) so that any file the
 * kernel can read is read, and a device that never ends is refused instead of read for ever.
 */
public final class InputFiles {
  private static final int S_IFMT = 0170000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFBLK = 0060000;
  private static final int MEM_MAJOR = 1; // /dev/null, /dev/zero, /dev/urandom, /dev/kmsg...
  private static final int NULL_MINOR = 3;

  private InputFiles() {}

  /** The file at {@code path}, its bytes as they are read (a pipe, a procfs or sysfs file included). */
  public static InputStream open(Path path) throws FileNotFoundException {
    return readable(new FileInputStream(path.toFile()));
  }

  /** This process's standard input. */
  public static InputStream stdin() {
    return new Stdin(new FileInputStream(FileDescriptor.in));
  }

  /**
   * {@link #endless(Path)} for a stream: this process's standard input, made by {@link #stdin()}
   * (`nccl-triage log - < /dev/zero`); null for any other stream.
   */
  public static String endless(InputStream in) {
    return in instanceof Stdin ? endless(Path.of("/dev/stdin")) : null;
  }

  /**
   * The channel of this process's standard input, made by {@link #stdin()}, when it is a regular
   * file (`nccl-triage log - < FILE`): it can then be read in parts, at offsets, like a named
   * file. Null for a pipe, a terminal, a socket, any other stream, or when /proc cannot tell.
   */
  public static FileChannel regularFile(InputStream in) {
    if (!(in instanceof Stdin s)) {
      return null;
    }
    try {
      // the magic link is followed to the open file itself (even one deleted since)
      return Files.isRegularFile(Path.of("/proc/self/fd/0")) ? s.file.getChannel() : null;
    } catch (SecurityException e) {
      return null;
    }
  }

  /** The stream of {@link #stdin()}, told apart from other streams by its class. */
  private static final class Stdin extends Readable {
    private final FileInputStream file;

    Stdin(FileInputStream in) {
      super(in);
      this.file = in;
    }
  }

  /**
   * Why {@code path} cannot be read as an input, if it is a device: a character or block device
   * other than /dev/null (empty) and a terminal (a person types, and ends with Ctrl-D) gives bytes
   * without end (/dev/zero, /dev/urandom) or a whole disk. Null when it is not such a device, or
   * the file system cannot tell.
   */
  public static String endless(Path path) {
    int mode;
    long rdev;
    try {
      mode = (Integer) Files.getAttribute(path, "unix:mode");
      rdev = ((Number) Files.getAttribute(path, "unix:rdev")).longValue();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException
        | SecurityException e) {
      return null; // not a Unix file system view: no device to tell
    }
    int type = mode & S_IFMT;
    if (type == S_IFBLK) {
      return "is a block device (a disk), not a log file";
    }
    if (type != S_IFCHR) {
      return null;
    }
    // glibc's gnu_dev_major and gnu_dev_minor
    long major = (rdev >>> 8) & 0xfff | (rdev >>> 32) & 0xfffff000L;
    long minor = rdev & 0xff | (rdev >>> 12) & 0xffffff00L;
    if (major == MEM_MAJOR && minor == NULL_MINOR || isTerminal(major)) {
      return null;
    }
    return "is a device, not a log file (its reads never end)";
  }

  /** Virtual consoles and serial ports (4), /dev/tty and the console (5), pseudo-terminals (136-143). */
  private static boolean isTerminal(long major) {
    return major == 4 || major == 5 || major >= 136 && major <= 143;
  }

  /**
   * {@code in} with an available() that answers 0 where the kernel refuses the question: a
   * FileInputStream asks by seeking, which a procfs or sysfs file (EINVAL) and a pipe (ESPIPE)
   * refuse, and a BufferedInputStream asks after every short read, so such a file read as
   * "cannot read: Invalid argument".
   */
  static InputStream readable(InputStream in) {
    return new Readable(in);
  }

  private static class Readable extends FilterInputStream {
    Readable(InputStream in) {
      super(in);
    }

    @Override
    public int available() {
      try {
        return in.available();
      } catch (IOException e) {
        return 0;
      }
    }
  }
}
