package dev.nccltriage.host;

import java.io.BufferedInputStream;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

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
 * placeholder).
 */
public final class TarGz {
  private static final int BLOCK = 512;
  private static final int RECORD = 20 * BLOCK;
  private static final long MAX_SIZE = 077777777777L;
  private static final int MAX_META = 1 << 20;
  private static final int MAX_HOPS = 40;

  private TarGz() {}

  /** Writes the tree under {@code dir} (names relative to it; not {@code dir} itself) to a file. */
  public static void write(Path dir, Path tarGzFile) throws IOException {
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

  /** Writes the tree under {@code dir} to a stream (stdout for {@code kubectl exec ... > x.tgz}); does not close it. */
  public static void write(Path dir, OutputStream out) throws IOException {
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

  // ---------------------------------------------------------------------------------------------

  /** Extracts a {@code .tar.gz} file into a folder (created if needed). */
  public static void extract(Path tarGz, Path intoDir) throws IOException {
    try (InputStream in = Files.newInputStream(tarGz)) {
      extract(in, intoDir);
    }
  }

  /** Extracts a gzip-compressed tar stream into a folder (created if needed); does not close the stream. */
  public static void extract(InputStream tarGz, Path intoDir) throws IOException {
    Files.createDirectories(intoDir);
    Path root = intoDir.toRealPath();
    InputStream in = new BufferedInputStream(new GZIPInputStream(new NonClosingIn(tarGz), 1 << 16), 1 << 16);
    Map<String, String[]> links = new TreeMap<>();
    byte[] buf = new byte[1 << 16];
    String longName = null;
    String longLink = null;
    String paxPath = null;
    String paxLink = null;
    Long paxSize = null;
    long offset = 0;
    while (true) {
      byte[] h = in.readNBytes(BLOCK);
      if (h.length == 0) {
        break;
      }
      if (h.length < BLOCK) {
        throw new IOException("truncated archive: a header at byte " + offset + " is cut short");
      }
      offset += BLOCK;
      if (allZero(h)) {
        break;
      }
      String rawName = cString(h, 0, 100);
      verifyChecksum(h, rawName, offset - BLOCK);
      String prefix = isUstar(h) ? cString(h, 345, 155) : "";
      String name = prefix.isEmpty() ? rawName : prefix + "/" + rawName;
      char type = (char) h[156];
      long size = parseNumber(h, 124, 12, name);
      String link = cString(h, 157, 100);
      if (type == 'L' || type == 'K' || type == 'x' || type == 'g') {
        if (size > MAX_META) {
          throw new IOException(name + ": metadata entry too large (" + size + " bytes)");
        }
        byte[] data = readFully(in, (int) size, name);
        skipPadding(in, size, name);
        offset += size + (BLOCK - size % BLOCK) % BLOCK;
        if (type == 'L') {
          longName = cString(data, 0, data.length);
        } else if (type == 'K') {
          longLink = cString(data, 0, data.length);
        } else if (type == 'x') {
          for (String[] kv : pax(data, name)) {
            switch (kv[0]) {
              case "path" -> paxPath = kv[1];
              case "linkpath" -> paxLink = kv[1];
              case "size" -> {
                try {
                  paxSize = Long.parseLong(kv[1]);
                } catch (NumberFormatException e) {
                  throw new IOException(name + ": bad pax size " + kv[1]);
                }
              }
              default -> { }
            }
          }
        }
        continue;
      }
      if (paxPath != null) {
        name = paxPath;
      } else if (longName != null) {
        name = longName;
      }
      if (paxLink != null) {
        link = paxLink;
      } else if (longLink != null) {
        link = longLink;
      }
      if (paxSize != null) {
        size = paxSize;
      }
      longName = longLink = paxPath = paxLink = null;
      paxSize = null;

      List<String> comps = safeName(name);
      if ((type == '0' || type == '\0') && name.endsWith("/")) {
        type = '5'; // pre-POSIX archives mark folders by the trailing slash only
      }
      long consumed = 0;
      if (comps.isEmpty()) {
        if (type != '5') {
          throw new IOException("entry '" + show(name) + "': refused, an empty name");
        }
      } else {
        String key = String.join("/", comps);
        switch (type) {
          case '0', '\0', '7' -> {
            Path parent = ensureDirs(root, comps.subList(0, comps.size() - 1), name);
            Path file = parent.resolve(comps.get(comps.size() - 1));
            prepareForFile(file, name);
            try (OutputStream out = Files.newOutputStream(file)) {
              copy(in, out, size, buf, name);
            }
            consumed = size;
            links.remove(key);
          }
          case '5' -> {
            ensureDirs(root, comps, name);
            links.remove(key);
          }
          case '2' -> {
            if (link.isEmpty()) {
              throw new IOException("entry '" + show(name) + "': refused, a symlink with no target");
            }
            if (link.startsWith("/")) {
              throw new IOException("entry '" + show(name) + "': refused, symlink to an absolute path " + link);
            }
            if (link.indexOf('\0') >= 0) {
              throw new IOException("entry '" + show(name) + "': refused, a NUL in the symlink target");
            }
            ensureDirs(root, comps.subList(0, comps.size() - 1), name);
            if (lexicallyOutside(comps.subList(0, comps.size() - 1), link)) {
              throw new IOException("entry '" + show(name) + "': refused, symlink " + link + " points outside " + intoDir);
            }
            links.put(key, new String[] {name, key, link});
          }
          case '1' -> {
            List<String> src = safeLinkName(link, name);
            Path from = root.resolve(String.join("/", src));
            Path parent = ensureDirs(root, comps.subList(0, comps.size() - 1), name);
            if (!Files.isRegularFile(from, LinkOption.NOFOLLOW_LINKS) || throughLink(root, src)) {
              throw new IOException("entry '" + show(name) + "': refused, hard link to " + link
                  + " which is not a regular file extracted before it");
            }
            Path file = parent.resolve(comps.get(comps.size() - 1));
            if (!file.equals(from)) {
              prepareForFile(file, name);
              Files.copy(from, file);
            }
            links.remove(key);
          }
          case '3', '4', '6' -> {
            Path parent = ensureDirs(root, comps.subList(0, comps.size() - 1), name);
            Path file = parent.resolve(comps.get(comps.size() - 1));
            prepareForFile(file, name);
            Files.write(file, new byte[0]);
            links.remove(key);
          }
          default -> throw new IOException("entry '" + show(name) + "': unsupported tar entry type '" + type + "'");
        }
      }
      if (consumed < size) {
        skipFully(in, size - consumed, name); // ustar non-file entries carry no data; skip what a writer put there
      }
      skipPadding(in, size, name);
      offset += size + (BLOCK - size % BLOCK) % BLOCK;
    }
    // symlinks last, then every one resolved against the finished tree
    for (String[] l : links.values()) {
      Path p = root.resolve(l[1]);
      if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        throw new IOException("entry '" + show(l[0]) + "': refused, a symlink where the archive has a directory");
      }
      Files.deleteIfExists(p);
      Files.createSymbolicLink(p, Path.of(l[2]));
    }
    for (String[] l : links.values()) {
      List<String> comps = new ArrayList<>(List.of(l[1].split("/")));
      comps.remove(comps.size() - 1);
      comps.addAll(List.of(l[2].split("/")));
      if (resolvesOutside(root, comps)) {
        for (String[] m : links.values()) {
          Files.deleteIfExists(root.resolve(m[1]));
        }
        throw new IOException("entry '" + show(l[0]) + "': refused, symlink " + l[2] + " resolves outside " + intoDir
            + " through other links (all links removed)");
      }
    }
  }

  /** The name's components; refuses absolute names, "..", NUL and backslash-drive tricks. */
  private static List<String> safeName(String name) throws IOException {
    if (name.startsWith("/")) {
      throw new IOException("entry '" + show(name) + "': refused, an absolute name");
    }
    if (name.indexOf('\0') >= 0) {
      throw new IOException("entry '" + show(name) + "': refused, a NUL in the name");
    }
    List<String> out = new ArrayList<>();
    for (String part : name.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        throw new IOException("entry '" + show(name) + "': refused, a '..' component");
      }
      out.add(part);
    }
    return out;
  }

  private static List<String> safeLinkName(String link, String entry) throws IOException {
    try {
      List<String> c = safeName(link);
      if (c.isEmpty()) {
        throw new IOException("empty");
      }
      return c;
    } catch (IOException e) {
      throw new IOException("entry '" + show(entry) + "': refused, hard link to " + link + " outside the archive");
    }
  }

  /** Makes the folders (never through a symlink; a file in the way is an error); returns the last. */
  private static Path ensureDirs(Path root, List<String> comps, String entry) throws IOException {
    Path cur = root;
    for (String c : comps) {
      cur = cur.resolve(c);
      if (Files.isSymbolicLink(cur)) {
        throw new IOException("entry '" + show(entry) + "': refused, it would be written through the symlink "
            + root.relativize(cur));
      }
      if (!Files.exists(cur, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectory(cur);
      } else if (!Files.isDirectory(cur, LinkOption.NOFOLLOW_LINKS)) {
        throw new IOException("entry '" + show(entry) + "': " + root.relativize(cur) + " is a file, not a directory");
      }
    }
    return cur;
  }

  private static boolean throughLink(Path root, List<String> comps) {
    Path cur = root;
    for (String c : comps) {
      cur = cur.resolve(c);
      if (Files.isSymbolicLink(cur)) {
        return true;
      }
    }
    return false;
  }

  private static void prepareForFile(Path file, String entry) throws IOException {
    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException("entry '" + show(entry) + "': a directory of that name is already extracted");
    }
    Files.deleteIfExists(file); // an earlier entry of the same name, or a symlink: never write through it
  }

  private static boolean lexicallyOutside(List<String> dirComps, String link) {
    Deque<String> stack = new ArrayDeque<>(dirComps);
    for (String part : link.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        if (stack.isEmpty()) {
          return true;
        }
        stack.removeLast();
      } else {
        stack.addLast(part);
      }
    }
    return false;
  }

  /** Resolves as the kernel would, following the extracted links; true if it ever climbs above the root. */
  private static boolean resolvesOutside(Path root, List<String> comps) throws IOException {
    Deque<String> todo = new ArrayDeque<>(comps);
    Path cur = root;
    int hops = 0;
    while (!todo.isEmpty()) {
      String c = todo.pollFirst();
      if (c.isEmpty() || c.equals(".")) {
        continue;
      }
      if (c.equals("..")) {
        if (cur.equals(root)) {
          return true;
        }
        cur = cur.getParent();
        continue;
      }
      Path next = cur.resolve(c);
      if (Files.isSymbolicLink(next)) {
        if (++hops > MAX_HOPS) {
          return true;
        }
        String t = Files.readSymbolicLink(next).toString();
        if (t.startsWith("/")) {
          return true;
        }
        String[] tc = t.split("/");
        for (int i = tc.length - 1; i >= 0; i--) {
          todo.addFirst(tc[i]);
        }
        continue;
      }
      cur = next;
    }
    return false;
  }

  private static void copy(InputStream in, OutputStream out, long size, byte[] buf, String entry) throws IOException {
    long left = size;
    while (left > 0) {
      int n = in.read(buf, 0, (int) Math.min(buf.length, left));
      if (n < 0) {
        throw new IOException("entry '" + show(entry) + "': truncated archive (" + left + " bytes missing)");
      }
      out.write(buf, 0, n);
      left -= n;
    }
  }

  private static byte[] readFully(InputStream in, int size, String entry) throws IOException {
    byte[] b = in.readNBytes(size);
    if (b.length < size) {
      throw new IOException("entry '" + show(entry) + "': truncated archive");
    }
    return b;
  }

  private static void skipFully(InputStream in, long n, String entry) throws IOException {
    long left = n;
    while (left > 0) {
      long s = in.skip(left);
      if (s <= 0) {
        if (in.read() < 0) {
          throw new IOException("entry '" + show(entry) + "': truncated archive");
        }
        s = 1;
      }
      left -= s;
    }
  }

  private static void skipPadding(InputStream in, long size, String entry) throws IOException {
    long pad = (BLOCK - size % BLOCK) % BLOCK;
    if (pad > 0) {
      byte[] b = in.readNBytes((int) pad);
      if (b.length < pad) {
        throw new IOException("entry '" + show(entry) + "': truncated archive");
      }
    }
  }

  private static List<String[]> pax(byte[] data, String entry) throws IOException {
    List<String[]> out = new ArrayList<>();
    int i = 0;
    while (i < data.length) {
      int sp = i;
      while (sp < data.length && data[sp] != ' ') {
        sp++;
      }
      int len;
      try {
        len = Integer.parseInt(new String(data, i, sp - i, StandardCharsets.US_ASCII));
      } catch (NumberFormatException e) {
        throw new IOException("entry '" + show(entry) + "': bad pax record");
      }
      if (len <= sp - i || i + len > data.length) {
        throw new IOException("entry '" + show(entry) + "': bad pax record length");
      }
      String rec = new String(data, sp + 1, i + len - sp - 2, StandardCharsets.UTF_8);
      int eq = rec.indexOf('=');
      if (eq > 0) {
        out.add(new String[] {rec.substring(0, eq), rec.substring(eq + 1)});
      }
      i += len;
    }
    return out;
  }

  private static boolean isUstar(byte[] h) {
    return h[257] == 'u' && h[258] == 's' && h[259] == 't' && h[260] == 'a' && h[261] == 'r';
  }

  private static void verifyChecksum(byte[] h, String name, long at) throws IOException {
    long unsigned = 0;
    long signed = 0;
    for (int i = 0; i < BLOCK; i++) {
      int b = i >= 148 && i < 156 ? ' ' : h[i];
      unsigned += b & 0xff;
      signed += i >= 148 && i < 156 ? ' ' : h[i];
    }
    long stored;
    try {
      stored = parseNumber(h, 148, 8, name);
    } catch (IOException e) {
      stored = -1;
    }
    if (stored != unsigned && stored != signed) {
      throw new IOException("not a tar archive, or a damaged one: bad header checksum at byte " + at
          + " (entry '" + show(name) + "')");
    }
  }

  private static long parseNumber(byte[] h, int off, int len, String name) throws IOException {
    if ((h[off] & 0x80) != 0) {
      long v = h[off] & 0x7f;
      for (int i = off + 1; i < off + len; i++) {
        if (v > (Long.MAX_VALUE >> 8)) {
          throw new IOException("entry '" + show(name) + "': number out of range");
        }
        v = (v << 8) | (h[i] & 0xff);
      }
      return v;
    }
    long v = 0;
    boolean any = false;
    for (int i = off; i < off + len; i++) {
      byte b = h[i];
      if (b == 0 || (b == ' ' && any)) {
        break;
      }
      if (b == ' ') {
        continue;
      }
      if (b < '0' || b > '7') {
        throw new IOException("entry '" + show(name) + "': bad octal field in header");
      }
      v = v * 8 + (b - '0');
      any = true;
    }
    return v;
  }

  private static String cString(byte[] b, int off, int len) {
    int end = off;
    while (end < off + len && b[end] != 0) {
      end++;
    }
    return new String(b, off, end - off, StandardCharsets.UTF_8);
  }

  /** An entry name fit for a message: control characters escaped, at most 300 characters. */
  private static String show(String name) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < name.length() && sb.length() < 300; i++) {
      char c = name.charAt(i);
      sb.append(c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
    }
    return sb.length() >= 300 ? sb + "..." : sb.toString();
  }

  private static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
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

  private static final class NonClosingIn extends InputStream {
    private final InputStream in;

    NonClosingIn(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in.read(b, off, len);
    }

    @Override
    public void close() {}
  }
}
