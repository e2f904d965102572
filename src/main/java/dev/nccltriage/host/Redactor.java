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
import java.util.HexFormat;
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
  private static final long V4_BASE = (198L << 24) | (18L << 16);
  private static final int V4_SPAN = 1 << 17;
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
  private final Map<Long, Long> v4 = new HashMap<>();
  private final Set<Long> v4Out = new HashSet<>();
  private final Set<Long> v4Seen = new HashSet<>();
  private final Map<Long, Long> ids = new HashMap<>();
  private final Set<Long> idOut = new HashSet<>();
  private final Set<Long> idSeen = new HashSet<>();
  private final Map<Long, Long> macs = new HashMap<>();
  private final Set<Long> macOut = new HashSet<>();
  private final Set<Long> macSeen = new HashSet<>();
  private final Map<String, byte[]> v6 = new HashMap<>();
  private final Set<String> v6Out = new HashSet<>();
  private final Set<String> v6Seen = new HashSet<>();
  private long nextV4 = 1;
  private long nextId = 1;
  private long nextMac = 1;
  private long nextV6 = 1;
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
        rep = colon(m.group("colon"), collect);
      } else if (m.start("hex") >= 0) {
        rep = hex64(m.group("hex"), m.group().charAt(1), collect);
      } else if (m.start("v4") >= 0) {
        rep = ipv4(m.group("v4"), collect);
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

  // --- IPv4 -----------------------------------------------------------------------------------

  private String ipv4(String s, boolean collect) {
    long a = parseV4(s);
    if (a < 0) {
      return null;
    }
    long r = mapV4(a, collect);
    return r == a ? null : v4String(r);
  }

  private static long parseV4(String s) {
    String[] p = s.split("\\.");
    if (p.length != 4) {
      return -1;
    }
    long v = 0;
    for (String o : p) {
      int x = Integer.parseInt(o);
      if (x > 255) {
        return -1;
      }
      v = (v << 8) | x;
    }
    return v;
  }

  private static String v4String(long v) {
    return ((v >> 24) & 255) + "." + ((v >> 16) & 255) + "." + ((v >> 8) & 255) + "." + (v & 255);
  }

  private long mapV4(long a, boolean collect) {
    if (a == 0 || (a >> 24) == 127) {
      return a;
    }
    if (collect) {
      v4Seen.add(a);
      return a;
    }
    Long r = v4.get(a);
    if (r != null) {
      return r;
    }
    if (v4Out.contains(a) && !v4Seen.contains(a)) {
      return a; // already a replacement
    }
    long c;
    do {
      if (nextV4 >= V4_SPAN) {
        throw new IllegalStateException("more than 131000 distinct IPv4 addresses to redact");
      }
      c = V4_BASE + nextV4++;
    } while ((c & 255) == 0 || (c & 255) == 255 || c == a || v4Seen.contains(c));
    v4.put(a, c);
    v4Out.add(c);
    return c;
  }

  // --- 64-bit ids (GUIDs, interface ids) ------------------------------------------------------

  private long mapId(long a, boolean collect) {
    if (a == 0) {
      return a;
    }
    if (collect) {
      idSeen.add(a);
      return a;
    }
    Long r = ids.get(a);
    if (r != null) {
      return r;
    }
    if (idOut.contains(a) && !idSeen.contains(a)) {
      return a;
    }
    long c;
    do {
      c = nextId++;
    } while (c == a || idSeen.contains(c));
    ids.put(a, c);
    idOut.add(c);
    return c;
  }

  private String hex64(String hex, char x, boolean collect) {
    String lower = hex.toLowerCase(Locale.ROOT);
    if (lower.matches("0+|7?f*0*")) {
      return null; // a mask or zero, not an id
    }
    long a = Long.parseUnsignedLong(lower, 16);
    long r = mapId(a, collect);
    if (r == a) {
      return null;
    }
    return "0" + x + caseLike(hex, String.format("%016x", r));
  }

  // --- MACs -----------------------------------------------------------------------------------

  private long mapMac(long a, boolean collect) {
    if (a == 0 || a == 0xffffffffffffL) {
      return a;
    }
    if (collect) {
      macSeen.add(a);
      return a;
    }
    Long r = macs.get(a);
    if (r != null) {
      return r;
    }
    if (macOut.contains(a) && !macSeen.contains(a)) {
      return a;
    }
    long c;
    do {
      c = 0x020000000000L | nextMac++;
    } while (c == a || macSeen.contains(c));
    macs.put(a, c);
    macOut.add(c);
    return c;
  }

  // --- IPv6 / GIDs ----------------------------------------------------------------------------

  /** The 16 bytes an IPv6 address maps to (the same array when kept). */
  private byte[] mapV6(byte[] a, boolean collect) {
    boolean zeroTo10 = true;
    for (int i = 0; i < 10; i++) {
      zeroTo10 &= a[i] == 0;
    }
    boolean zeroTo15 = zeroTo10;
    for (int i = 10; i < 15; i++) {
      zeroTo15 &= a[i] == 0;
    }
    if (zeroTo15 && (a[15] == 0 || a[15] == 1)) {
      return a; // :: and ::1
    }
    if (zeroTo10 && (a[10] & 0xff) == 0xff && (a[11] & 0xff) == 0xff) {
      long v = ((a[12] & 0xffL) << 24) | ((a[13] & 0xffL) << 16) | ((a[14] & 0xffL) << 8) | (a[15] & 0xffL);
      long r = mapV4(v, collect);
      byte[] out = a.clone();
      out[12] = (byte) (r >> 24);
      out[13] = (byte) (r >> 16);
      out[14] = (byte) (r >> 8);
      out[15] = (byte) r;
      return out;
    }
    if ((a[0] & 0xff) == 0xfe && (a[1] & 0xc0) == 0x80 && a[2] == 0 && a[3] == 0 && a[4] == 0 && a[5] == 0
        && a[6] == 0 && a[7] == 0) {
      long iid = 0;
      for (int i = 8; i < 16; i++) {
        iid = (iid << 8) | (a[i] & 0xff);
      }
      long r = mapId(iid, collect);
      byte[] out = a.clone();
      for (int i = 15; i >= 8; i--) {
        out[i] = (byte) r;
        r >>>= 8;
      }
      return out;
    }
    String key = HexFormat.of().formatHex(a);
    if (collect) {
      v6Seen.add(key);
      return a;
    }
    byte[] r = v6.get(key);
    if (r != null) {
      return r;
    }
    if (v6Out.contains(key) && !v6Seen.contains(key)) {
      return a;
    }
    byte[] c;
    String ck;
    do {
      c = new byte[16];
      c[0] = 0x20;
      c[1] = 0x01;
      c[2] = 0x0d;
      c[3] = (byte) 0xb8;
      long n = nextV6++;
      for (int i = 15; i >= 8; i--) {
        c[i] = (byte) n;
        n >>>= 8;
      }
      ck = HexFormat.of().formatHex(c);
    } while (ck.equals(key) || v6Seen.contains(ck));
    v6.put(key, c);
    v6Out.add(ck);
    return c;
  }

  /** A token of hex groups and colons: classified by its shape, then mapped; null to leave it. */
  private String colon(String tok, boolean collect) {
    int dotted = tok.indexOf('.');
    if (tok.contains("::")) {
      if (!tok.matches(".*[0-9].*") && !tok.equals("::")) {
        return null; // "bad::face" is more likely a word than an address
      }
      byte[] a = parseV6(tok);
      if (a == null) {
        return null;
      }
      byte[] r = mapV6(a, collect);
      return collect || r == a ? null : compressed(r, dotted >= 0);
    }
    String[] g = tok.split(":", -1);
    for (String s : g) {
      if (s.isEmpty()) {
        return null;
      }
    }
    if (dotted >= 0) {
      if (g.length != 7) {
        return null;
      }
      byte[] a = parseV6(tok);
      if (a == null) {
        return null;
      }
      byte[] r = mapV6(a, collect);
      return collect || r == a ? null : compressed(r, true);
    }
    if (g.length == 6 && allLen(g, 2)) {
      long a = Long.parseLong(String.join("", g), 16);
      long r = mapMac(a, collect);
      return r == a ? null : caseLike(tok, bytesColon(r, 6));
    }
    if (g.length == 20 && allLen(g, 2)) {
      byte[] b = HexFormat.of().parseHex(String.join("", g));
      if ((b[4] & 0xff) == 0xff) {
        return null; // a multicast (broadcast) GID: the same on every port
      }
      byte[] gid = java.util.Arrays.copyOfRange(b, 4, 20);
      byte[] r = mapV6(gid, collect);
      if (collect || r == gid) {
        return null;
      }
      System.arraycopy(r, 0, b, 4, 16);
      return caseLike(tok, HexFormat.ofDelimiter(":").formatHex(b));
    }
    if (g.length == 16 && decimalBytes(g)) {
      byte[] a = new byte[16];
      for (int i = 0; i < 16; i++) {
        a[i] = (byte) Integer.parseInt(g[i]);
      }
      byte[] r = mapV6(a, collect);
      if (collect || r == a) {
        return null;
      }
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 16; i++) {
        sb.append(i == 0 ? "" : ":").append(String.format("%02d", r[i] & 0xff));
      }
      return sb.toString();
    }
    if (g.length == 8 && allHex(g)) {
      byte[] a = parseV6(tok);
      if (a == null) {
        return null;
      }
      byte[] r = mapV6(a, collect);
      if (collect || r == a) {
        return null;
      }
      return allLen(g, 4) ? caseLike(tok, expanded(r)) : compressed(r, false);
    }
    if (g.length == 4 && allLen(g, 4)) {
      String lower = tok.toLowerCase(Locale.ROOT);
      if (lower.equals("fe80:0000:0000:0000")) {
        return null; // the default subnet prefix
      }
      long a = Long.parseUnsignedLong(String.join("", g), 16);
      long r = mapId(a, collect);
      if (r == a) {
        return null;
      }
      String h = String.format("%016x", r);
      return caseLike(tok, h.substring(0, 4) + ":" + h.substring(4, 8) + ":" + h.substring(8, 12) + ":"
          + h.substring(12));
    }
    return null;
  }

  private static boolean allLen(String[] g, int n) {
    for (String s : g) {
      if (s.length() != n || !isHex(s)) {
        return false;
      }
    }
    return true;
  }

  private static boolean allHex(String[] g) {
    for (String s : g) {
      if (s.length() > 4 || !isHex(s)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean decimalBytes(String[] g) {
    for (String s : g) {
      if (s.length() > 3 || !s.chars().allMatch(c -> c >= '0' && c <= '9') || Integer.parseInt(s) > 255) {
        return false;
      }
    }
    return true;
  }

  /** Upper-case output when the original used only upper-case hex letters. */
  private static String caseLike(String orig, String out) {
    boolean upper = orig.chars().anyMatch(c -> c >= 'A' && c <= 'F');
    boolean lower = orig.chars().anyMatch(c -> c >= 'a' && c <= 'f');
    return upper && !lower ? out.toUpperCase(Locale.ROOT) : out;
  }

  private static String bytesColon(long v, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = n - 1; i >= 0; i--) {
      sb.append(String.format("%02x", (v >> (8 * i)) & 0xff)).append(i == 0 ? "" : ":");
    }
    return sb.toString();
  }

  /** Parses an IPv6 address (with "::" and a dotted IPv4 tail); null if it is not one. */
  static byte[] parseV6(String s) {
    String tail = null;
    String head = s;
    int dot = s.indexOf('.');
    if (dot >= 0) {
      int c = s.lastIndexOf(':');
      if (c < 0 || c > dot) {
        return null;
      }
      tail = s.substring(c + 1);
      head = s.substring(0, c + 1);
      if (head.endsWith(":") && !head.endsWith("::")) {
        head = head.substring(0, head.length() - 1);
      }
    }
    int dbl = head.indexOf("::");
    if (dbl >= 0 && head.indexOf("::", dbl + 1) >= 0) {
      return null;
    }
    List<Integer> before = new ArrayList<>();
    List<Integer> after = new ArrayList<>();
    if (dbl >= 0) {
      if (!groups(head.substring(0, dbl), before) || !groups(head.substring(dbl + 2), after)) {
        return null;
      }
    } else if (!groups(head, before)) {
      return null;
    }
    List<Integer> tailGroups = new ArrayList<>();
    if (tail != null) {
      long v = parseV4(tail);
      if (v < 0 || !tail.matches("[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}")) {
        return null;
      }
      tailGroups.add((int) (v >> 16));
      tailGroups.add((int) (v & 0xffff));
    }
    int total = before.size() + after.size() + tailGroups.size();
    if (dbl >= 0 ? total > 7 : total != 8) {
      return null;
    }
    int[] all = new int[8];
    int i = 0;
    for (int g : before) {
      all[i++] = g;
    }
    i = 8 - after.size() - tailGroups.size();
    for (int g : after) {
      all[i++] = g;
    }
    for (int g : tailGroups) {
      all[i++] = g;
    }
    byte[] out = new byte[16];
    for (int k = 0; k < 8; k++) {
      out[2 * k] = (byte) (all[k] >> 8);
      out[2 * k + 1] = (byte) all[k];
    }
    return out;
  }

  private static boolean groups(String s, List<Integer> out) {
    if (s.isEmpty()) {
      return true;
    }
    for (String g : s.split(":", -1)) {
      if (g.isEmpty() || g.length() > 4 || !isHex(g)) {
        return false;
      }
      out.add(Integer.parseInt(g, 16));
    }
    return true;
  }

  private static String expanded(byte[] a) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < 8; k++) {
      sb.append(k == 0 ? "" : ":").append(String.format("%02x%02x", a[2 * k] & 0xff, a[2 * k + 1] & 0xff));
    }
    return sb.toString();
  }

  /** RFC 5952 text; an IPv4-mapped address as ::ffff:a.b.c.d when {@code dottedTail}. */
  private static String compressed(byte[] a, boolean dottedTail) {
    int[] g = new int[8];
    for (int k = 0; k < 8; k++) {
      g[k] = ((a[2 * k] & 0xff) << 8) | (a[2 * k + 1] & 0xff);
    }
    boolean mapped = g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xffff;
    if (mapped && dottedTail) {
      return "::ffff:" + (a[12] & 0xff) + "." + (a[13] & 0xff) + "." + (a[14] & 0xff) + "." + (a[15] & 0xff);
    }
    int bestStart = -1;
    int bestLen = 0;
    for (int k = 0; k < 8; ) {
      if (g[k] != 0) {
        k++;
        continue;
      }
      int s = k;
      while (k < 8 && g[k] == 0) {
        k++;
      }
      if (k - s > bestLen && k - s >= 2) {
        bestStart = s;
        bestLen = k - s;
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < 8; k++) {
      if (k == bestStart) {
        sb.append("::");
        k += bestLen - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(g[k]));
    }
    return sb.toString();
  }
}
