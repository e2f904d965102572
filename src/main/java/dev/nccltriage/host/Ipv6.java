package dev.nccltriage.host;

import java.util.ArrayList;
import java.util.List;

/**
 * IPv6 addresses as text for {@link AddressMap}: parsed to 16 bytes and printed back in the form
 * they came in. The dotted IPv4 tail of an IPv6 address is why the IPv4 parser lives here too.
 */
final class Ipv6 {
  private Ipv6() {}

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

  static String expanded(byte[] a) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < 8; k++) {
      sb.append(k == 0 ? "" : ":").append(String.format("%02x%02x", a[2 * k] & 0xff, a[2 * k + 1] & 0xff));
    }
    return sb.toString();
  }

  /** RFC 5952 text; an IPv4-mapped address as ::ffff:a.b.c.d when {@code dottedTail}. */
  static String compressed(byte[] a, boolean dottedTail) {
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

  static long parseV4(String s) {
    String[] p = s.split("\\.");
    if (p.length != 4) {
      return -1;
    }
    long v = 0;
    for (String o : p) {
      if (o.isEmpty() || o.length() > 3 || !o.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return -1; // "a.b.c.d" or "99999999999.1.1.1" is no address, and no reason to fail
      }
      int x = Integer.parseInt(o);
      if (x > 255) {
        return -1;
      }
      v = (v << 8) | x;
    }
    return v;
  }

  static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }
}
