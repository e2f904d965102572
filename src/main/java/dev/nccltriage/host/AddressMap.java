package dev.nccltriage.host;

import static dev.nccltriage.host.Ipv6.compressed;
import static dev.nccltriage.host.Ipv6.expanded;
import static dev.nccltriage.host.Ipv6.isHex;
import static dev.nccltriage.host.Ipv6.parseV4;
import static dev.nccltriage.host.Ipv6.parseV6;

import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The address and id half of {@link Redactor}: each token its pattern finds, classified and
 * mapped to the same replacement every time. Not thread-safe; the Redactor calls it under its
 * lock.
 */
final class AddressMap {
  private static final long V4_BASE = (198L << 24) | (18L << 16);
  private static final int V4_SPAN = 1 << 17;

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

  // --- IPv4 -----------------------------------------------------------------------------------

  String ipv4(String s, boolean collect) {
    long a = parseV4(s);
    if (a < 0) {
      return null;
    }
    long r = mapV4(a, collect);
    return r == a ? null : v4String(r);
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

  String hex64(String hex, char x, boolean collect) {
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
  String colon(String tok, boolean collect) {
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
}
