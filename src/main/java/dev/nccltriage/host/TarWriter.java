package dev.nccltriage.host;

import static dev.nccltriage.host.TarGz.BLOCK;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

/** The writing half of {@link TarGz}: the same tree gives the same bytes. */
final class TarWriter {
  private static final int RECORD = 20 * BLOCK;
  private static final long MAX_SIZE = 077777777777L;

  private TarWriter() {}

  static void write(Path dir, Path tarGzFile) throws IOException {
    Path tmp = Files.createTempFile(tarGzFile.toAbsolutePath().getParent(), ".bundle", ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(tmp)) {
        write(dir, out, Set.of(tarGzFile.toAbsolutePath().normalize(), tmp.toAbsolutePath().normalize()));
      }
      Files.move(tmp, tarGzFile, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static void write(Path dir, OutputStream out) throws IOException {
    write(dir, out, Set.of());
  }

  private static void write(Path dir, OutputStream sink, Set<Path> skip) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IOException("not a directory: " + dir);
    }
    GZIPOutputStream gz = new GZIPOutputStream(new NonClosing(sink), 1 << 16);
    Counting out = new Counting(new BufferedOutputStream(gz, 1 << 16));
    Path base = dir.toAbsolutePath().normalize();
    writeDir(base, base, out, skip);
    out.write(new byte[2 * BLOCK]);
    long rest = out.count % RECORD;
    if (rest != 0) {
      out.write(new byte[(int) (RECORD - rest)]);
    }
    out.flush();
    gz.finish();
    gz.flush();
  }

  private static void writeDir(Path base, Path dir, Counting out, Set<Path> skip) throws IOException {
    List<Path> children = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      ds.forEach(children::add);
    }
    children.sort((a, b) -> compareBytes(a.getFileName().toString(), b.getFileName().toString()));
    byte[] buf = new byte[1 << 16];
    for (Path p : children) {
      if (skip.contains(p)) {
        continue;
      }
      String name = base.relativize(p).toString().replace('\\', '/');
      if (Files.isSymbolicLink(p)) {
        String target = Files.readSymbolicLink(p).toString();
        entry(out, name, '2', 0, 0777, target);
      } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        entry(out, name + "/", '5', 0, 0755, "");
        writeDir(base, p, out, skip);
      } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
        long size = Files.size(p);
        if (size > MAX_SIZE) {
          throw new IOException(name + ": too large for a ustar entry (" + size + " bytes)");
        }
        entry(out, name, '0', size, 0644, "");
        long written = 0;
        try (InputStream in = Files.newInputStream(p)) {
          int n;
          while (written < size && (n = in.read(buf, 0, (int) Math.min(buf.length, size - written))) > 0) {
            out.write(buf, 0, n);
            written += n;
          }
        }
        if (written != size) {
          throw new IOException(name + ": changed size while being archived");
        }
        int pad = (int) ((BLOCK - size % BLOCK) % BLOCK);
        out.write(new byte[pad]);
      }
      // sockets, fifos and devices are not part of a capture: left out
    }
  }

  private static int compareBytes(String a, String b) {
    return java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * One entry's header; a name that ustar cannot hold (over 255 bytes, or no '/' to split it at)
   * or a link target over 100 bytes goes first into a pax extended header (POSIX.1-2001), with a
   * shortened ustar name as the fallback for old readers.
   */
  private static void entry(OutputStream out, String name, char type, long size, int mode, String link)
      throws IOException {
    StringBuilder pax = new StringBuilder();
    String n = name;
    String l = link;
    if (split(name.getBytes(StandardCharsets.UTF_8)) == null) {
      pax.append(paxRecord("path", name));
      n = fallback(name, 99);
    }
    if (link.getBytes(StandardCharsets.UTF_8).length > 100) {
      pax.append(paxRecord("linkpath", link));
      l = fallback(link, 100);
    }
    if (pax.length() > 0) {
      byte[] data = pax.toString().getBytes(StandardCharsets.UTF_8);
      String base = n.endsWith("/") ? n.substring(0, n.length() - 1) : n;
      base = base.substring(base.lastIndexOf('/') + 1);
      out.write(header(fallback("PaxHeaders/" + base, 100), 'x', data.length, 0644, ""));
      out.write(data);
      out.write(new byte[(BLOCK - data.length % BLOCK) % BLOCK]);
    }
    out.write(header(n, type, size, mode, l));
  }

  /** "LEN key=value\n", LEN counting its own digits. */
  private static String paxRecord(String key, String value) {
    int body = (" " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8).length;
    int len = body + 1;
    while (String.valueOf(len).length() + body != len) {
      len = String.valueOf(len).length() + body;
    }
    return len + " " + key + "=" + value + "\n";
  }

  /** The last {@code max} bytes of a name in printable ASCII, for readers that ignore pax. */
  private static String fallback(String name, int max) {
    StringBuilder sb = new StringBuilder();
    for (char c : name.toCharArray()) {
      sb.append(c >= 0x20 && c < 0x7f ? c : '_');
    }
    String s = sb.length() > max ? sb.substring(sb.length() - max) : sb.toString();
    while (s.startsWith("/")) {
      s = s.substring(1);
    }
    return s;
  }

  /** {prefix, name} for a ustar header, or null when the name cannot be split to fit. */
  private static byte[][] split(byte[] n) {
    if (n.length <= 100) {
      return new byte[][] {new byte[0], n};
    }
    // split at a '/' so that the prefix has at most 155 bytes and the rest at most 100
    for (int i = Math.min(n.length - 1, 155); i > 0; i--) {
      if (n[i] == '/' && n.length - i - 1 <= 100 && n.length - i - 1 > 0) {
        return new byte[][] {java.util.Arrays.copyOfRange(n, 0, i), java.util.Arrays.copyOfRange(n, i + 1, n.length)};
      }
    }
    return null;
  }

  static byte[] header(String name, char type, long size, int mode, String link) throws IOException {
    byte[] h = new byte[BLOCK];
    byte[][] parts = split(name.getBytes(StandardCharsets.UTF_8));
    if (parts == null) {
      throw new IOException(name + ": name too long for a ustar header");
    }
    byte[] prefix = parts[0];
    byte[] n = parts[1];
    byte[] l = link.getBytes(StandardCharsets.UTF_8);
    if (l.length > 100) {
      throw new IOException(name + ": symlink target too long for ustar (" + l.length + " bytes; at most 100)");
    }
    System.arraycopy(n, 0, h, 0, n.length);
    octal(h, 100, 8, mode);
    octal(h, 108, 8, 0);
    octal(h, 116, 8, 0);
    octal(h, 124, 12, size);
    octal(h, 136, 12, 0);
    h[156] = (byte) type;
    System.arraycopy(l, 0, h, 157, l.length);
    System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 6);
    h[263] = '0';
    h[264] = '0';
    octal(h, 329, 8, 0);
    octal(h, 337, 8, 0);
    System.arraycopy(prefix, 0, h, 345, prefix.length);
    for (int i = 148; i < 156; i++) {
      h[i] = ' ';
    }
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    octal(h, 148, 7, sum);
    h[155] = ' ';
    return h;
  }

  /** {@code width - 1} zero-padded octal digits and a NUL. */
  private static void octal(byte[] h, int off, int width, long v) {
    String s = Long.toOctalString(v);
    int digits = width - 1;
    for (int i = 0; i < digits; i++) {
      int from = i - (digits - s.length());
      h[off + i] = (byte) (from < 0 ? '0' : s.charAt(from));
    }
    h[off + digits] = 0;
  }

  private static final class Counting extends OutputStream {
    private final OutputStream out;
    long count;

    Counting(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }
  }

  private static final class NonClosing extends OutputStream {
    private final OutputStream out;

    NonClosing(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.flush();
    }
  }
}
