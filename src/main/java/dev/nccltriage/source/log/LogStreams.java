package dev.nccltriage.source.log;

import dev.nccltriage.host.InputFiles;
import dev.nccltriage.host.IoProblems;
import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Opening a log stream: files and pipes, gzip or not, and what to tell a user when it fails. */
final class LogStreams {
  private LogStreams() {}

  /** Any file the kernel reads: a pipe, a procfs or sysfs file ({@link InputFiles#open}). */
  static InputStream open(String name, Path path) throws LogInputException {
    try {
      return InputFiles.open(path);
    } catch (FileNotFoundException e) {
      throw new LogInputException(name + ": " + (Files.exists(path) ? IoProblems.PERMISSION_DENIED : IoProblems.NO_SUCH_FILE), e);
    }
  }

  /**
   * The stream's text as UTF-8: gunzipped when it starts with gzip's magic bytes, and transcoded
   * when it (or what gzip held) is UTF-16 ({@link Utf16Text}).
   */
  static InputStream decompressed(String name, InputStream raw) throws LogInputException {
    try {
      BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
      in.mark(2);
      int b0 = in.read();
      int b1 = in.read();
      in.reset();
      if (b0 == 0x1f && b1 == 0x8b) {
        in = new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16);
      }
      return Utf16Text.utf8(in);
    } catch (IOException e) {
      throw readError(name, e);
    }
  }

  static LogInputException readError(String name, IOException e) {
    if (e instanceof java.util.zip.ZipException) {
      return new LogInputException(name + ": corrupt gzip data (" + e.getMessage() + ")", e);
    }
    if (e instanceof java.io.EOFException) {
      return new LogInputException(name + ": gzip data ends early (truncated file?)", e);
    }
    return new LogInputException(name + ": cannot read: " + IoProblems.describe(e), e);
  }
}
