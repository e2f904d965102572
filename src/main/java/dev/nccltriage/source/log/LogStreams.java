package dev.nccltriage.source.log;

import dev.nccltriage.host.InputFiles;
import dev.nccltriage.host.IoProblems;
import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
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
      throw new LogInputException(name + ": " + IoProblems.describeOpen(e, path), e);
    }
  }

  /**
   * The stream's text as UTF-8: gunzipped when it starts with gzip's magic bytes, and transcoded
   * when it (or what gzip held) is UTF-16 ({@link Utf16Text}).
   */
  static InputStream decompressed(String name, InputStream raw) throws LogInputException {
    try {
      Sniffed sniffed = new Sniffed(raw);
      BufferedInputStream in = sniffed;
      in.mark(2);
      int b0 = in.read();
      int b1 = in.read();
      in.reset();
      if (b0 == 0x1f && b1 == 0x8b) {
        in = new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16);
      }
      InputStream text = Utf16Text.utf8(in);
      sniffed.sniffed();
      return text;
    } catch (IOException e) {
      throw readError(name, e);
    }
  }

  /**
   * Buffers a stream while its first bytes are sniffed (mark, reset); after that a bulk read
   * hands over what is still buffered, then reads the stream straight into the caller's array,
   * one read each. BufferedInputStream asks available() after every read it makes, two more
   * system calls (fstat, FIONREAD) per pipe read, where a read of 1 GiB through a pipe is 16000
   * reads of 64 KB.
   */
  private static final class Sniffed extends BufferedInputStream {
    private boolean sniffed;

    Sniffed(InputStream in) {
      super(in, 1 << 16);
    }

    /** No mark is needed any more: bulk reads go straight to the stream once the buffer is empty. */
    synchronized void sniffed() {
      markpos = -1;
      sniffed = true;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
      if (!sniffed || len == 0) {
        return super.read(b, off, len);
      }
      java.util.Objects.checkFromIndexSize(off, len, b.length);
      if (pos < count) {
        int n = Math.min(len, count - pos);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
      }
      InputStream s = in;
      if (s == null) {
        throw new IOException("Stream closed");
      }
      return s.read(b, off, len);
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
