package dev.nccltriage.host;

import dev.nccltriage.evidence.Printable;
import java.io.EOFException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.zip.ZipException;

/**
 * An exception in words fit for a user: never "null", never a file's bytes, one short printable
 * line. Java's messages are often the path alone (NoSuchFileException), nothing at all (a gzip
 * stream that ends at once) or, for a corrupt archive, whatever bytes were read.
 */
public final class IoProblems {
  private static final int MAX = 200;

  private IoProblems() {}

  public static String describe(Throwable e) {
    String why;
    if (e instanceof NoSuchFileException) {
      why = "no such file";
    } else if (e instanceof AccessDeniedException) {
      why = "permission denied";
    } else if (e instanceof NotDirectoryException) {
      why = "not a directory";
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
}
