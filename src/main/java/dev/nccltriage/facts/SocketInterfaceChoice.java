package dev.nccltriage.facts;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The interface NCCL's {@code ncclFindInterfaces(..., 1)} will pick for bootstrap and the IB
 * out-of-band handshake, predicted from the container's interfaces (nccl-log-spec §6.2): with
 * {@code NCCL_SOCKET_IFNAME} (honoured only when longer than one character) the first interface it
 * selects; unset, the first {@code ib*} interface, else the first that is not {@code docker*} or
 * {@code lo}, then {@code docker*}, then {@code lo}. getifaddrs lists IPv4 addresses before IPv6
 * ones, so an interface with IPv4 is found first unless {@code NCCL_SOCKET_FAMILY} says AF_INET6.
 * Interfaces are taken in the order the system listed them (ifindex order, as getifaddrs).
 */
public final class SocketInterfaceChoice {
  /** The interface, its first address of the family found, and how NCCL came to it. */
  public record Pick(String name, String address, String how) {}

  private SocketInterfaceChoice() {}

  public static Optional<Pick> predict(String socketIfname, String socketFamily, List<PodFacts.Iface> interfaces) {
    if (socketIfname != null && socketIfname.strip().length() > 1) {
      NcclNameFilter filter = NcclNameFilter.parse(socketIfname);
      return first(interfaces, i -> filter.selects(i.name()), socketFamily, "NCCL_SOCKET_IFNAME=" + socketIfname.strip());
    }
    Optional<Pick> ib = first(interfaces, i -> i.name().startsWith("ib"), socketFamily, "automatic: the first ib* interface");
    if (ib.isPresent()) {
      return ib;
    }
    Optional<Pick> other = first(interfaces, i -> !i.name().startsWith("docker") && !i.name().startsWith("lo"),
        socketFamily, "automatic: no ib* interface, so the first one that is not docker* or lo");
    if (other.isPresent()) {
      return other;
    }
    Optional<Pick> docker = first(interfaces, i -> i.name().startsWith("docker"), socketFamily, "automatic: docker*");
    return docker.isPresent() ? docker : first(interfaces, i -> i.name().startsWith("lo"), socketFamily, "automatic: lo");
  }

  private static Optional<Pick> first(List<PodFacts.Iface> interfaces, Predicate<PodFacts.Iface> selected,
      String family, String how) {
    boolean v6Only = "AF_INET6".equals(family);
    boolean v4Only = "AF_INET".equals(family);
    if (!v6Only) {
      for (PodFacts.Iface i : interfaces) {
        Optional<String> a = address(i, false);
        if (selected.test(i) && a.isPresent()) {
          return Optional.of(new Pick(i.name(), a.get(), how));
        }
      }
    }
    if (!v4Only) {
      for (PodFacts.Iface i : interfaces) {
        Optional<String> a = address(i, true);
        if (selected.test(i) && a.isPresent()) {
          return Optional.of(new Pick(i.name(), a.get(), how));
        }
      }
    }
    return Optional.empty();
  }

  /** The interface's first IPv4 (or IPv6, not loopback) address, without prefix or scope. */
  private static Optional<String> address(PodFacts.Iface i, boolean v6) {
    return i.addresses().stream()
        .map(a -> a.split("[/ ]", 2)[0])
        .filter(a -> v6 ? a.contains(":") && !a.equals("::1") : a.contains(".") && !a.contains(":"))
        .findFirst();
  }
}
