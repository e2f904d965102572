package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A port's GID table: the sysfs files {@code ports/<n>/gids/<i>} (8 groups of 4 hex digits; an
 * empty slot is all zeros), {@code gid_attrs/types/<i>} ({@code IB/RoCE v1} or {@code RoCE v2}) and
 * {@code gid_attrs/ndevs/<i>} (the netdev), and the MLNX_OFED {@code show_gids} script that prints
 * them as {@code DEV PORT INDEX GID IPv4 VER DEV} rows (probe-formats.md §3, §15). Never throws.
 */
public final class RoceGids {

  /** What a GID is by its address: NCCL tells these apart when it picks one (net_ib.cc). */
  public enum Kind {
    EMPTY,
    /** fe80::/64, NCCL's linkLocalGid: not routed, so never chosen by NCCL's automatic choice. */
    LINK_LOCAL,
    /** ::ffff:a.b.c.d, made by the kernel from an IPv4 address of the netdev. */
    IPV4,
    IPV6
  }

  /** A GID as 8 lowercase groups of 4 hex digits, its kind, and for an IPv4-mapped one the address. */
  public record Gid(String text, Kind kind, String ipv4) {}

  /**
   * One {@code show_gids} row. {@code ipv4} is the IPv4 column (null when empty), {@code version} 1 or
   * 2 from the VER column (null when it was not there), {@code netdev} the last column (null if absent).
   */
  public record Row(String dev, int port, int index, Gid gid, String ipv4, Integer version, String netdev) {}

  public record Result(List<Row> rows) {
    public Result {
      rows = List.copyOf(rows);
    }
  }

  private static final Pattern GID = Pattern.compile("^[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){7}$");
  private static final Pattern TYPE = Pattern.compile("(?i)^(?:IB/)?(?:RoCE\\s*)?v\\s*([12])$");
  private static final Pattern NETDEV = Pattern.compile("^[^\\s/:]{1,15}$");
  private static final Pattern IPV4 = Pattern.compile("^\\d{1,3}(?:\\.\\d{1,3}){3}$");
  private static final Pattern INDEX = Pattern.compile("^\\d{1,9}$");
  /** Longer than any value these files hold: a huge or garbage file is not read through. */
  private static final int MAX_VALUE = 64;
  private static final int MAX_LINE = 4096;
  private static final int MAX_ROWS = 100_000;

  private RoceGids() {}

  /** A {@code gids/<i>} file (its first non-blank line), or null when that is no GID. */
  public static Gid parseGid(String text) {
    String t = firstValue(text);
    return t == null ? null : gid(t);
  }

  /** A {@code gid_attrs/types/<i>} file: 1 or 2 for RoCE v1 / v2 (show_gids' {@code v1}/{@code v2} too), else null. */
  public static Integer parseType(String text) {
    String t = firstValue(text);
    if (t == null) {
      return null;
    }
    Matcher m = TYPE.matcher(t);
    return m.matches() ? Integer.valueOf(m.group(1)) : null;
  }

  /** A {@code gid_attrs/ndevs/<i>} file: the netdev name, or null when it is not one. */
  public static String parseNdev(String text) {
    String t = firstValue(text);
    return t != null && NETDEV.matcher(t).matches() ? t : null;
  }

  /**
   * {@code show_gids} output. A row is found by its GID token: device, port and index are the three
   * tokens before it, then an optional IPv4, the version and the netdev (so a prompt on the line, TABs
   * turned into spaces and an empty IPv4 column all parse). Headers, {@code n_gids_found=N} and other
   * lines are skipped.
   */
  public static Result parseShowGids(String text) {
    List<Row> rows = new ArrayList<>();
    try {
      for (String raw : Text.lines(text)) {
        if (raw.length() > MAX_LINE || rows.size() >= MAX_ROWS) {
          continue;
        }
        Row r = row(Text.tokens(Text.clean(raw)));
        if (r != null) {
          rows.add(r);
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return new Result(rows);
  }

  private static Row row(String[] t) {
    for (int i = 3; i < t.length; i++) {
      Gid g = gid(t[i]);
      if (g == null) {
        continue;
      }
      Integer port = INDEX.matcher(t[i - 2]).matches() ? Text.toInt(t[i - 2]) : null;
      Integer index = INDEX.matcher(t[i - 1]).matches() ? Text.toInt(t[i - 1]) : null;
      if (port == null || index == null) {
        return null;
      }
      int j = i + 1;
      String ipv4 = null;
      if (j < t.length && IPV4.matcher(t[j]).matches()) {
        ipv4 = t[j++];
      }
      Integer version = null;
      if (j < t.length) {
        Matcher v = TYPE.matcher(t[j]);
        if (v.matches()) {
          version = Integer.valueOf(v.group(1));
          j++;
        }
      }
      String netdev = j < t.length && NETDEV.matcher(t[j]).matches() ? t[j] : null;
      return new Row(t[i - 3], port, index, g, ipv4, version, netdev);
    }
    return null;
  }

  private static Gid gid(String t) {
    if (t.length() > 39 || !GID.matcher(t).matches()) {
      return null;
    }
    int[] g = new int[8];
    StringBuilder sb = new StringBuilder(39);
    int from = 0;
    for (int i = 0; i < 8; i++) {
      int to = i < 7 ? t.indexOf(':', from) : t.length();
      g[i] = Integer.parseInt(t, from, to, 16);
      if (i > 0) {
        sb.append(':');
      }
      String hex = Integer.toHexString(g[i]);
      sb.append("0000", hex.length(), 4).append(hex);
      from = to + 1;
    }
    boolean zeroTop = g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0;
    Kind kind;
    String ipv4 = null;
    if (zeroTop && g[5] == 0 && g[6] == 0 && g[7] == 0) {
      kind = Kind.EMPTY;
    } else if (zeroTop && g[5] == 0xffff) {
      kind = Kind.IPV4;
      ipv4 = (g[6] >> 8) + "." + (g[6] & 0xff) + "." + (g[7] >> 8) + "." + (g[7] & 0xff);
    } else if (g[0] == 0xfe80 && g[1] == 0 && g[2] == 0 && g[3] == 0) {
      kind = Kind.LINK_LOCAL;
    } else {
      kind = Kind.IPV6;
    }
    return new Gid(sb.toString(), kind, ipv4);
  }

  /** The first non-blank line, trimmed; null when there is none or it is too long to be a value. */
  private static String firstValue(String text) {
    if (text == null) {
      return null;
    }
    int n = text.length();
    int i = 0;
    while (i < n) {
      int end = i;
      while (end < n && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
        end++;
      }
      if (end - i > MAX_VALUE * 4) {
        return null;
      }
      String line = text.substring(i, end).strip();
      if (!line.isEmpty()) {
        return line.length() > MAX_VALUE ? null : line;
      }
      i = end + 1;
    }
    return null;
  }
}
