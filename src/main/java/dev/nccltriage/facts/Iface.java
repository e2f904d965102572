package dev.nccltriage.facts;

import java.util.Objects;

/**
 * A network interface as NCCL printed it: {@code name:address<port>}. A name or address past
 * {@link #MAX} characters (Linux names have at most 15, an IPv6 address with its zone under 64) is
 * not one: it is cut there, with an ellipsis, so that a hostile line's 60 KB "interface" does not
 * travel whole into every fact, difference and report that names it.
 */
public record Iface(String name, String address) {
  public static final int MAX = 64;

  public Iface {
    name = cut(name);
    address = cut(address);
  }

  private static String cut(String s) {
    return s == null || s.length() <= MAX ? s : s.substring(0, MAX - 1) + "…";
  }

  // Written out, as the record's own would be (same hash): see Evidence#equals.
  @Override
  public boolean equals(Object o) {
    return o instanceof Iface f && Objects.equals(name, f.name) && Objects.equals(address, f.address);
  }

  @Override
  public int hashCode() {
    return 31 * Objects.hashCode(name) + Objects.hashCode(address);
  }

  public String render() {
    return address == null ? name : name + ":" + address;
  }

  /** lo, or a 127.x / ::1 address. */
  public boolean isLoopback() {
    String a = address == null ? "" : address;
    return name.equals("lo") || a.startsWith("127.") || a.equals("::1");
  }

  /** An IPv6 link-local address (fe80::/10): it does not route between nodes. */
  public boolean isLinkLocal() {
    // fe80::/10 in any case, without a lower-cased copy (the log parser asks per line)
    if (address == null || address.length() < 3) {
      return false;
    }
    char f = address.charAt(0);
    char e = address.charAt(1);
    return (f == 'f' || f == 'F') && (e == 'e' || e == 'E') && "89abAB".indexOf(address.charAt(2)) >= 0;
  }

  /** IPv4, IPv6 link-local, IPv6, or unknown when NCCL printed no address. */
  public String family() {
    if (address == null || address.isEmpty()) {
      return "unknown";
    }
    return address.indexOf(':') < 0 ? "IPv4" : isLinkLocal() ? "IPv6 link-local" : "IPv6";
  }
}
