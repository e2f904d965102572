package dev.nccltriage.facts;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The GID index NCCL's IB transport will use on a RoCE port (net_ib.cc {@code ncclIbGetGidIndex},
 * nccl-log-spec §7): {@code NCCL_IB_GID_INDEX} as it is when set to 0 or more. Unset (or negative),
 * NCCL 2.21 and later scan the table for a GID of {@code NCCL_IB_ADDR_FAMILY} (default AF_INET: an
 * IPv4-mapped one) and {@code NCCL_IB_ROCE_VERSION_NUM} (default 2) that is not link-local; NCCL
 * before 2.21 uses index 0.
 */
public final class GidIndexChoice {
  /** NCCL's {@code strtoll(value, NULL, 0)}: leading blanks, a sign, then hex, octal or decimal digits. */
  private static final Pattern STRTOLL = Pattern.compile("^\\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)");

  /** The GID NCCL looks for: its RoCE version and whether IPv6 (AF_INET6) rather than IPv4-mapped. */
  public record Wanted(int version, boolean ipv6) {
    public String label() {
      return "RoCE v" + version + (ipv6 ? " IPv6" : " IPv4-mapped");
    }

    /** A GID of the wanted family and version that NCCL would accept (not link-local). */
    public boolean fits(PodFacts.Gid g) {
      return g != null && g.version() != null && g.version() == version && family(g, ipv6);
    }

    /** Whether the GID could fit once its version is known (its type file was unreadable). */
    public boolean mayFit(PodFacts.Gid g) {
      return g != null && g.version() == null && family(g, ipv6);
    }

    private static boolean family(PodFacts.Gid g, boolean ipv6) {
      return ipv6 ? g.kind().equals("ipv6") : g.kind().equals("ipv4");
    }
  }

  private GidIndexChoice() {}

  public static Wanted wanted(Map<String, String> env) {
    Long version = strtoll(env.get("NCCL_IB_ROCE_VERSION_NUM"));
    return new Wanted(version != null && version == 1 ? 1 : 2, "AF_INET6".equals(env.get("NCCL_IB_ADDR_FAMILY")));
  }

  /**
   * {@code NCCL_IB_GID_INDEX} as NCCL reads it: text without digits is 0; null when unset, negative
   * (automatic choice) or beyond any table.
   */
  public static Integer envIndex(String value) {
    if (value == null || value.isEmpty()) {
      return null; // NCCL ignores an empty value
    }
    Long v = strtoll(value);
    long n = v == null ? 0 : v;
    return n < 0 || n > Integer.MAX_VALUE ? null : (int) n;
  }

  /**
   * The index NCCL 2.21+ picks by itself, replaying {@code ncclUpdateGidIndex} over the port's table
   * (empty slots never win, so only the entries in use are needed); empty when it cannot be told: an
   * address range is set (not modelled), or NCCL would read a type file that was unreadable.
   */
  public static Optional<Integer> auto(PodFacts.PortGids p, Wanted w, boolean addressRangeSet) {
    if (addressRangeSet) {
      return Optional.empty();
    }
    int cur = 0;
    for (PodFacts.Gid cand : p.gids()) {
      if (cand.index() == 0) {
        continue;
      }
      PodFacts.Gid g = at(p, cur);
      boolean gV6 = g == null || !g.kind().equals("ipv4");
      boolean cV6 = !cand.kind().equals("ipv4");
      if (!gV6 && w.ipv6()) {
        return Optional.empty(); // an IPv4 GID at index 0: an empty slot would win, and those were not read
      }
      if (cV6 != gV6 && cV6 == w.ipv6()) {
        cur = cand.index();
        continue;
      }
      if (cV6 != w.ipv6() || !valid(cand)) {
        continue;
      }
      if (g == null || g.version() == null || cand.version() == null) {
        return Optional.empty();
      }
      if ((!g.version().equals(cand.version()) || !valid(g)) && cand.version() == w.version()) {
        cur = cand.index();
      }
    }
    return Optional.of(cur);
  }

  /** The entry at {@code index}, or null for an empty slot. */
  public static PodFacts.Gid at(PodFacts.PortGids p, int index) {
    for (PodFacts.Gid g : p.gids()) {
      if (g.index() == index) {
        return g;
      }
    }
    return null;
  }

  /** The lowest index holding the wanted GID, or null. */
  public static Integer firstFitting(PodFacts.PortGids p, Wanted w) {
    return p.gids().stream().filter(w::fits).map(PodFacts.Gid::index).findFirst().orElse(null);
  }

  /** "a link-local RoCE v2 GID", "an IPv4-mapped RoCE v1 GID", "an empty slot": alike on every port. */
  public static String describe(PodFacts.Gid g) {
    if (g == null) {
      return "an empty slot";
    }
    String roce = g.version() == null ? "RoCE GID of unknown version" : "RoCE v" + g.version() + " GID";
    return switch (g.kind()) {
      case "link-local" -> "a link-local " + roce;
      case "ipv4" -> "an IPv4-mapped " + roce;
      default -> "an IPv6 " + roce;
    };
  }

  /** NCCL's link-local test (fe80::/64); an empty slot is no GID at all. */
  private static boolean valid(PodFacts.Gid g) {
    return g != null && !g.kind().equals("link-local");
  }

  private static Long strtoll(String value) {
    if (value == null) {
      return null;
    }
    Matcher m = STRTOLL.matcher(value);
    if (!m.find()) {
      return null;
    }
    String digits = m.group(2);
    try {
      long v = digits.startsWith("0x") || digits.startsWith("0X") ? Long.parseLong(digits.substring(2), 16)
          : digits.length() > 1 && digits.startsWith("0") ? Long.parseLong(digits.substring(1), 8)
          : Long.parseLong(digits);
      return m.group(1).equals("-") ? -v : v;
    } catch (NumberFormatException tooLong) {
      return Long.MAX_VALUE; // strtoll clamps, NCCL then keeps its default: no index we can name
    }
  }
}
