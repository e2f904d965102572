package dev.nccltriage.facts;


/** A network interface as NCCL printed it: {@code name:address<port>}. */
public record Iface(String name, String address) {
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
    return address != null && address.length() >= 3 && address.regionMatches(true, 0, "fe", 0, 2)
        && "89abAB".indexOf(address.charAt(2)) >= 0;
  }

  /** IPv4, IPv6 link-local, IPv6, or unknown when NCCL printed no address. */
  public String family() {
    if (address == null || address.isEmpty()) {
      return "unknown";
    }
    return address.indexOf(':') < 0 ? "IPv4" : isLinkLocal() ? "IPv6 link-local" : "IPv6";
  }
}
