package dev.nccltriage.host;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes what identifies a site out of a capture while keeping its shape, so the redacted capture
 * still parses and still gives the same verdict. One instance per capture: the same original
 * always gets the same replacement, in every file and file name.
 *
 * <ul>
 *   <li>IPv4: kept {@code 0.0.0.0} and {@code 127.0.0.0/8}; every other address becomes the next
 *       free one in {@code 198.18.0.0/15} (198.18.0.1, 198.18.0.2, ...; no .0 or .255).
 *   <li>IPv6: kept {@code ::} and {@code ::1}; link-local {@code fe80::/64} keeps its prefix and
 *       gets its interface id replaced like a GUID (so {@code fe80::...} in {@code ip addr} and the
 *       same address as an 8-group GID stay equal); IPv4-mapped {@code ::ffff:a.b.c.d} maps its IPv4
 *       as above; any other becomes {@code 2001:db8::N}. A {@code /len} or {@code %zone} suffix is
 *       left as it is. Written compressed if it was, all 8 groups of 4 if it was (GIDs).
 *   <li>MAC {@code aa:bb:cc:dd:ee:ff} becomes {@code 02:00:00:00:NN:NN} (all-zero and broadcast
 *       kept); a 20-byte IPoIB hardware address keeps its 4 QPN/flag bytes and maps its 16-byte
 *       GID as an IPv6 (a multicast/broadcast one is kept whole).
 *   <li>GUIDs {@code xxxx:xxxx:xxxx:xxxx} and {@code 0x} + 16 hex digits become {@code
 *       0000:0000:0000:000N} / {@code 0x000000000000000N} (one numbering for both forms and for
 *       link-local interface ids); zero, {@code fe80:0000:0000:0000} (the default subnet prefix)
 *       and mask-like {@code 0x} values ({@code 0xffffffffffffffff}, {@code 0x7fff...},
 *       {@code 0xfffff000}, zero) are kept.
 *   <li>GIDs (8 groups of 4 hex digits; perftest's 16 decimal bytes too): as the IPv6 they are.
 *   <li>Host names given to {@link #addHostname}: whole-word (not inside a longer run of letters
 *       and digits), case-insensitive, become {@code host-N}.
 * </ul>
 *
 * <p>Replacement values never collide with an original seen in the same capture ({@link
 * #redactTree} reads everything once before it rewrites). Untouched: version numbers ({@code
 * 550.54.15}, {@code 2.21.5}, {@code 1.0.1.1} after a dash), kernel releases, PCI bus ids ({@code
 * 0000:18:00.0}), times ({@code 12:34:56}), rates, limits, CapEff masks. Not recognised: bare
 * 16-digit GUIDs without {@code 0x} (as {@code ibv_devices} prints them: indistinguishable from
 * CapEff), MACs written with dashes.
 */
public final class Redactor {
  private static final int CHUNK = 1 << 20;
  private static final Set<String> NOT_HOSTNAMES = Set.of("localhost", "localhost.localdomain", "localdomain",
      "(none)", "none", "unknown", "host", "hostname", "root", "dev", "sys", "proc", "etc", "kernel", "commands",
      "env", "argv", "stdout", "stderr", "exit", "nccl-triage", "capture", "default", "true", "false");
  private static final Pattern HOSTNAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9]");

  private static final String COLON = "(?<![A-Za-z0-9.])((?:[0-9A-Fa-f]{0,4}+:){2,}+[0-9A-Fa-f]{0,4}+"
      + "(?:\\.[0-9]{1,3}+\\.[0-9]{1,3}+\\.[0-9]{1,3}+)?+)(?![A-Za-z0-9:]|\\.[0-9])";
  private static final String HEX64 = "(?<![A-Za-z0-9])0[xX]([0-9A-Fa-f]{16})(?![A-Za-z0-9])";
  private static final String V4 = "(?<![A-Za-z0-9.]|[0-9]-)([0-9]{1,3}+\\.[0-9]{1,3}+\\.[0-9]{1,3}+\\.[0-9]{1,3}+)"
      + "(?![A-Za-z0-9]|\\.[0-9])";

  private final Object lock = new Object();
  private final Map<String, String> hosts = new HashMap<>();
  private final Set<String> hostOut = new HashSet<>();
  private final AddressMap addresses = new AddressMap();
  private int nextHost = 1;
  private Pattern pattern;

  public Redactor() {
    pattern = build();
  }

  /**
   * A host name (Pod name, node name) to replace wherever it appears as a whole word; a dotted
   * name adds its first label too. Generic names ({@code localhost}, {@code (none)}) and names that
   * are not host names are ignored.
   */
  public void addHostname(String name) {
    if (name == null) {
      return;
    }
    String n = name.strip();
    synchronized (lock) {
      boolean added = addOne(n);
      int dot = n.indexOf('.');
      if (dot > 0) {
        added |= addOne(n.substring(0, dot));
      }
      if (added) {
        pattern = build();
      }
    }
  }

  private boolean addOne(String n) {
    String key = n.toLowerCase(Locale.ROOT);
    if (n.length() < 2 || !HOSTNAME.matcher(n).matches() || NOT_HOSTNAMES.contains(key) || hosts.containsKey(key)
        || hostOut.contains(key) || !key.matches(".*[a-z].*")) {
      return false;
    }
    String out;
    do {
      out = "host-" + nextHost++;
    } while (hosts.containsKey(out));
    hosts.put(key, out);
    hostOut.add(out);
    return true;
  }

  /** The text with every recognised identifier replaced. */
  public String redact(String text) {
    synchronized (lock) {
      return process(text, false);
    }
  }

  /**
   * Redacts a capture folder in place: every regular file's content (tree files, commands'
   * stdout/stderr/argv, env, opens.tsv, capture.properties), symlink targets, and file and folder
   * names; then records {@code redacted=true} in capture.properties. Host names come from the
   * capture ({@code proc/sys/kernel/hostname}, {@code etc/hostname}, {@code
   * proc/sys/kernel/domainname}, and {@code hostname}/{@code host}/{@code pod}/{@code node} in
   * capture.properties) plus any added before. Symlinks are not followed.
   */
  public void redactTree(Path captureDir) throws IOException {
    Path root = captureDir.toAbsolutePath().normalize();
    if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException("not a capture directory: " + captureDir);
    }
    for (String f : List.of("proc/sys/kernel/hostname", "etc/hostname", "proc/sys/kernel/domainname")) {
      Path p = root.resolve(f);
      if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
        String s = Files.readString(p, StandardCharsets.ISO_8859_1).strip();
        int nl = s.indexOf('\n');
        addHostname(nl < 0 ? s : s.substring(0, nl));
      }
    }
    if (Files.isRegularFile(root.resolve(CaptureLayout.META), LinkOption.NOFOLLOW_LINKS)) {
      Map<String, String> meta = CaptureMeta.read(root);
      for (String k : List.of("hostname", "host", "pod", "node", "nodeName")) {
        if (meta.containsKey(k)) {
          addHostname(meta.get(k));
        }
      }
    }
    List<Path> entries = new ArrayList<>();
    list(root, entries);
    synchronized (lock) {
      // pass 1: every original, so no replacement can equal one
      for (Path p : entries) {
        process(p.getFileName().toString(), true);
        if (Files.isSymbolicLink(p)) {
          process(Files.readSymbolicLink(p).toString(), true);
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          try (InputStream in = Files.newInputStream(p)) {
            stream(in, OutputStream.nullOutputStream(), true);
          }
        }
      }
      // pass 2: contents and link targets
      for (Path p : entries) {
        if (Files.isSymbolicLink(p)) {
          String t = Files.readSymbolicLink(p).toString();
          String r = process(t, false);
          if (!r.equals(t)) {
            Files.delete(p);
            Files.createSymbolicLink(p, Path.of(r));
          }
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          rewrite(p);
        }
      }
      // pass 3: names, deepest first
      for (int i = entries.size() - 1; i >= 0; i--) {
        Path p = entries.get(i);
        String name = p.getFileName().toString();
        String r = process(name, false);
        if (!r.equals(name)) {
          Path to = p.resolveSibling(r);
          if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("cannot rename " + root.relativize(p) + ": " + root.relativize(to) + " exists");
          }
          Files.move(p, to);
        }
      }
    }
    CaptureMeta.merge(root, Map.of("redacted", "true"));
  }

  // ---------------------------------------------------------------------------------------------

  private static void list(Path dir, List<Path> out) throws IOException {
    List<Path> children = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      ds.forEach(children::add);
    }
    children.sort(Comparator.comparing(p -> p.getFileName().toString()));
    for (Path c : children) {
      out.add(c);
      if (Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)) {
        list(c, out);
      }
    }
  }

  private void rewrite(Path p) throws IOException {
    Path tmp = Files.createTempFile(p.getParent(), ".redact", ".tmp");
    try {
      boolean changed;
      try (InputStream in = Files.newInputStream(p); OutputStream out = Files.newOutputStream(tmp)) {
        changed = stream(in, out, false);
      }
      if (changed) {
        try {
          Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
          Files.setPosixFilePermissions(tmp, perms);
        } catch (UnsupportedOperationException | IOException e) {
          // permissions are a nicety
        }
        Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Redacts a stream line by line (bytes as ISO-8859-1, so any byte outside a match passes through
   * unchanged, UTF-8 or binary); a line longer than 1 MiB is cut at a byte no identifier contains.
   */
  private boolean stream(InputStream in, OutputStream out, boolean collect) throws IOException {
    byte[] buf = new byte[1 << 16];
    ByteArrayOutputStream pending = new ByteArrayOutputStream();
    boolean changed = false;
    int n;
    while ((n = in.read(buf)) > 0) {
      int start = 0;
      for (int i = 0; i < n; i++) {
        if (buf[i] == '\n') {
          pending.write(buf, start, i + 1 - start);
          changed |= emit(pending.toByteArray(), pending.size(), out, collect);
          pending.reset();
          start = i + 1;
        }
      }
      pending.write(buf, start, n - start);
      if (pending.size() >= CHUNK) {
        byte[] b = pending.toByteArray();
        int cut = b.length;
        for (int i = b.length - 1; i > 0; i--) {
          if (!tokenByte(b[i])) {
            cut = i + 1;
            break;
          }
        }
        changed |= emit(b, cut, out, collect);
        pending.reset();
        pending.write(b, cut, b.length - cut);
      }
    }
    if (pending.size() > 0) {
      changed |= emit(pending.toByteArray(), pending.size(), out, collect);
    }
    return changed;
  }

  private static boolean tokenByte(byte b) {
    return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == ':' || b == '.' || b == '-'
        || b == '_' || b == '%';
  }

  private boolean emit(byte[] b, int len, OutputStream out, boolean collect) throws IOException {
    String s = new String(b, 0, len, StandardCharsets.ISO_8859_1);
    String r = process(s, collect);
    if (collect) {
      return false;
    }
    out.write(r.getBytes(StandardCharsets.ISO_8859_1));
    return !r.equals(s);
  }

  private Pattern build() {
    StringBuilder sb = new StringBuilder();
    if (!hosts.isEmpty()) {
      List<String> names = new ArrayList<>(hosts.keySet());
      names.sort(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()));
      sb.append("(?<![A-Za-z0-9])(?<host>(?i:");
      for (int i = 0; i < names.size(); i++) {
        sb.append(i == 0 ? "" : "|").append(Pattern.quote(names.get(i)));
      }
      sb.append("))(?![A-Za-z0-9])|");
    }
    sb.append(COLON.replace("((?:", "(?<colon>(?:")).append('|');
    sb.append(HEX64.replace("([0-9A-Fa-f]{16})", "(?<hex>[0-9A-Fa-f]{16})")).append('|');
    sb.append(V4.replace("([0-9]{1,3}+\\.", "(?<v4>[0-9]{1,3}+\\."));
    return Pattern.compile(sb.toString());
  }

  /** Replaces (or, collecting, only notes) every identifier in the text. */
  private String process(String text, boolean collect) {
    Matcher m = pattern.matcher(text);
    StringBuilder sb = null;
    int last = 0;
    while (m.find()) {
      String orig = m.group();
      String rep;
      if (m.start("colon") >= 0) {
        rep = addresses.colon(m.group("colon"), collect);
      } else if (m.start("hex") >= 0) {
        rep = addresses.hex64(m.group("hex"), m.group().charAt(1), collect);
      } else if (m.start("v4") >= 0) {
        rep = addresses.ipv4(m.group("v4"), collect);
      } else {
        rep = hosts.get(orig.toLowerCase(Locale.ROOT));
      }
      if (collect || rep == null || rep.equals(orig)) {
        continue;
      }
      if (sb == null) {
        sb = new StringBuilder(text.length() + 16);
      }
      sb.append(text, last, m.start()).append(rep);
      last = m.end();
    }
    if (sb == null) {
      return text;
    }
    return sb.append(text, last, text.length()).toString();
  }

  /** RedactorTest reads GIDs back with it. */
  static byte[] parseV6(String s) {
    return Ipv6.parseV6(s);
  }
}
