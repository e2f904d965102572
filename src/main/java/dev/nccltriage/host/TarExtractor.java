package dev.nccltriage.host;

import static dev.nccltriage.host.TarData.copy;
import static dev.nccltriage.host.TarData.readFully;
import static dev.nccltriage.host.TarData.skipFully;
import static dev.nccltriage.host.TarData.skipPadding;
import static dev.nccltriage.host.TarGz.BLOCK;
import static dev.nccltriage.host.TarHeaders.allZero;
import static dev.nccltriage.host.TarHeaders.cString;
import static dev.nccltriage.host.TarHeaders.isUstar;
import static dev.nccltriage.host.TarHeaders.parseNumber;
import static dev.nccltriage.host.TarHeaders.pax;
import static dev.nccltriage.host.TarHeaders.show;
import static dev.nccltriage.host.TarHeaders.verifyChecksum;
import static dev.nccltriage.host.TarPaths.ensureDirs;
import static dev.nccltriage.host.TarPaths.lexicallyOutside;
import static dev.nccltriage.host.TarPaths.prepareForFile;
import static dev.nccltriage.host.TarPaths.resolvesOutside;
import static dev.nccltriage.host.TarPaths.safeLinkName;
import static dev.nccltriage.host.TarPaths.safeName;
import static dev.nccltriage.host.TarPaths.throughLink;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/** The extracting half of {@link TarGz}: the archive is hostile until each entry is checked. */
final class TarExtractor {
  private static final int MAX_META = 1 << 20;
  /** A capture is a few MB; these caps stop an archive (a gzip of zeros) from filling the disk. */
  static final long MAX_BYTES = 256L << 20;
  static final int MAX_ENTRIES = 100_000;

  private TarExtractor() {}

  static void extract(Path tarGz, Path intoDir) throws IOException {
    try (InputStream in = Files.newInputStream(tarGz)) {
      extract(in, intoDir);
    }
  }

  static void extract(InputStream tarGz, Path intoDir) throws IOException {
    extract(tarGz, intoDir, MAX_BYTES, MAX_ENTRIES);
  }

  /** Stops with an IOException before the entries' data pass {@code maxBytes} or their count {@code maxEntries}. */
  static void extract(InputStream tarGz, Path intoDir, long maxBytes, int maxEntries) throws IOException {
    Files.createDirectories(intoDir);
    Path root = intoDir.toRealPath();
    InputStream in = new BufferedInputStream(new GZIPInputStream(new TarData.NonClosingIn(tarGz), 1 << 16), 1 << 16);
    Map<String, String[]> links = new TreeMap<>();
    byte[] buf = new byte[1 << 16];
    String longName = null;
    String longLink = null;
    String paxPath = null;
    String paxLink = null;
    Long paxSize = null;
    long offset = 0;
    long bytes = 0;
    int entries = 0;
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
      if (++entries > maxEntries) {
        throw new IOException("more than " + maxEntries + " entries, past the cap for a capture; refused");
      }
      if (size < 0) {
        throw new IOException("entry '" + show(name) + "': a negative size");
      }
      if (type == 'L' || type == 'K' || type == 'x' || type == 'g') {
        if (size > MAX_META) {
          throw new IOException("entry '" + show(name) + "': metadata entry too large (" + size + " bytes)");
        }
        bytes = count(bytes, size, maxBytes);
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
                  paxSize = -1L;
                }
                if (paxSize < 0) {
                  throw new IOException("entry '" + show(name) + "': bad pax size '" + show(kv[1]) + "'");
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
      bytes = count(bytes, size, maxBytes);

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
              bytes = count(bytes, Files.size(from), maxBytes); // each copy is written out again
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

  /** The bytes so far plus {@code more}; an IOException when that passes the cap. */
  private static long count(long sofar, long more, long max) throws IOException {
    if (more > max - sofar) {
      throw new IOException("it expands past " + (max >> 20) + " MiB, the cap for a capture; refused");
    }
    return sofar + more;
  }
}
