package dev.nccltriage.host;

import dev.nccltriage.evidence.Printable;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.zip.ZipException;

/**
 * An exception in words fit for a user: never "null", never a file's bytes, one short printable
 * line. Java's messages are often the path alone (NoSuchFileException), nothing at all (a gzip
 * stream that ends at once) or, for a corrupt archive, whatever bytes were read. The one place
 * that puts an I/O failure into words, for reads and writes alike.
 */
public final class IoProblems {
  /** strerror's words, as the OS gives other reasons and as coreutils print them. */
  public static final String NO_SUCH_FILE = "No such file or directory";
  public static final String PERMISSION_DENIED = "Permission denied";
  private static final int MAX = 200;

  private IoProblems() {}

  /** The reason alone: the caller names the input. */
  public static String describe(Throwable e) {
    String why;
    if (e instanceof NoSuchFileException) {
      why = NO_SUCH_FILE;
    } else if (e instanceof AccessDeniedException) {
      why = PERMISSION_DENIED;
    } else if (e instanceof NotDirectoryException) {
      why = "Not a directory";
    } else if (e instanceof FileAlreadyExistsException) {
      why = "File exists";
    } else if (e instanceof DirectoryNotEmptyException) {
      why = "Directory not empty";
    } else if (e instanceof EOFException) {
      why = "empty or truncated";
    } else if (e instanceof FileSystemException f) {
      // the message repeats the path; the reason is what the caller does not know
      why = f.getReason() != null ? f.getReason() : e.getClass().getSimpleName();
    } else if (e instanceof ZipException) {
      why = "corrupt gzip data (" + (e.getMessage() == null ? "unreadable" : e.getMessage()) + ")";
    } else if (e.getMessage() == null || e.getMessage().isBlank()) {
      why = e.getClass().getSimpleName();
    } else {
      why = e.getMessage();
    }
    return Printable.line(why, MAX);
  }

  /**
   * Why a file could not be opened for reading: FileInputStream says "PATH (REASON)" with the OS's
   * words (a symbolic link loop, a socket, ENXIO); without them, whether the path exists decides
   * between the two usual reasons.
   */
  public static String describeOpen(FileNotFoundException e, Path path) {
    String m = e.getMessage();
    int open = m == null ? -1 : m.lastIndexOf(" (");
    if (open >= 0 && m.endsWith(")") && m.length() - open > 3) {
      return Printable.line(m.substring(open + 2, m.length() - 1), MAX);
    }
    return Files.exists(path) ? PERMISSION_DENIED : NO_SUCH_FILE;
  }

  /** The reason, and the path it is about where that is not {@code about} (a temporary file beside it, a parent). */
  public static String describe(IOException e, Path about) {
    String why = describe(e);
    if (e instanceof FileSystemException f && f.getFile() != null && !Path.of(f.getFile()).equals(about)) {
      return why + " (" + Printable.line(f.getFile(), MAX) + ")";
    }
    return why;
  }

  /** The path (and the other path, for a move) and the reason, for a failure no caller named. */
  public static String located(IOException e) {
    if (e instanceof FileSystemException f && f.getFile() != null) {
      String where = f.getFile() + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "");
      return Printable.line(where, MAX) + ": " + describe(e);
    }
    return describe(e);
  }

  /** The IOException behind {@code t} (itself, an UncheckedIOException's cause, or a cause further down), or null. */
  public static IOException find(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof IOException io) {
        return io;
      }
      if (c instanceof UncheckedIOException u) {
        return u.getCause();
      }
    }
    return null;
  }
}
