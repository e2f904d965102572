package dev.nccltriage.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * An I/O failure as one plain line: the path and the reason the system gave. Java's
 * file-system exceptions often carry the path without a reason ({@code NoSuchFileException:
 * /x}), so the reason is named from the exception's kind.
 */
final class IoErrors {
  private IoErrors() {}

  /** The IOException behind {@code t} (itself, an UncheckedIOException's cause, or a cause further down), or null. */
  static IOException find(Throwable t) {
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

  /** The reason alone, with the path where it is not {@code about} (a temporary file beside it, a parent). */
  static String describe(IOException e, java.nio.file.Path about) {
    if (e instanceof FileSystemException f && f.getFile() != null) {
      String reason = f.getReason() != null ? f.getReason() : kind(f);
      return java.nio.file.Path.of(f.getFile()).equals(about) ? reason : reason + " (" + f.getFile() + ")";
    }
    return describe(e);
  }

  static String describe(IOException e) {
    if (e instanceof FileSystemException f && f.getFile() != null) {
      String reason = f.getReason() != null ? f.getReason() : kind(f);
      return f.getFile() + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "") + ": " + reason;
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? kind(e) : m.replaceAll("[\\p{Cntrl}]", " ");
  }

  private static String kind(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "No such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "Permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "Not a directory";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "File exists";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "Directory not empty";
    }
    return e.getClass().getSimpleName();
  }
}
