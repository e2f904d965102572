package dev.nccltriage.host;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * A capture folder as a {@code .tar.gz} support bundle, and back: POSIX ustar (regular files,
 * folders, symlinks), entries in a fixed order (byte order of names, a folder before its
 * contents), mtime 0, owner 0/0, modes 0644/0755/0777, so the same tree gives the same bytes.
 * Names up to 255 bytes use the ustar prefix field; longer names and link targets over 100 bytes
 * (deep PCIe paths in sysfs links) get a pax extended header. Both directions stream; nothing
 * holds the archive in memory.
 *
 * <p>Extraction treats the archive as hostile: absolute names, {@code ..} components, entries
 * that would be written through a symlink, and symlinks (or hard links) that resolve outside the
 * target folder are refused with an {@link IOException} naming the entry. Symlinks are made last
 * and then checked against the finished tree, so one link cannot smuggle another one out. Also
 * read: GNU long names ({@code L}/{@code K}) and pax {@code path}/{@code linkpath}/{@code size}
 * records, hard links (copied), and device/fifo entries (an empty file: present, like a capture's
 * placeholder). At most 256 MiB of entry data (hard-link copies counted) and 100,000 entries are
 * extracted: a gzip of zeros is a thousandth of its size, and a capture is a few megabytes.
 */
public final class TarGz {
  /** The tar block: every header is one, every entry's data is padded to a whole number of them. */
  static final int BLOCK = 512;

  private TarGz() {}

  /** Writes the tree under {@code dir} (names relative to it; not {@code dir} itself) to a file. */
  public static void write(Path dir, Path tarGzFile) throws IOException {
    TarWriter.write(dir, tarGzFile);
  }

  /** Writes the tree under {@code dir} to a stream (stdout for {@code kubectl exec ... > x.tgz}); does not close it. */
  public static void write(Path dir, OutputStream out) throws IOException {
    TarWriter.write(dir, out);
  }

  /** Extracts a {@code .tar.gz} file into a folder (created if needed). */
  public static void extract(Path tarGz, Path intoDir) throws IOException {
    TarExtractor.extract(tarGz, intoDir);
  }

  /** Extracts a gzip-compressed tar stream into a folder (created if needed); does not close the stream. */
  public static void extract(InputStream tarGz, Path intoDir) throws IOException {
    TarExtractor.extract(tarGz, intoDir);
  }

  /** One ustar header, as the writer makes it; tests build hostile archives from it. */
  static byte[] header(String name, char type, long size, int mode, String link) throws IOException {
    return TarWriter.header(name, type, size, mode, link);
  }
}
