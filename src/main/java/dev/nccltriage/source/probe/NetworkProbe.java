package dev.nccltriage.source.probe;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.source.probe.parse.IpAddr;
import dev.nccltriage.source.probe.parse.RdmaLink;
import dev.nccltriage.source.probe.parse.RdmaSystem;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/** Steps 3 and 4: which RDMA netdevs live in this netns, and the Pod's interfaces and addresses. */
final class NetworkProbe {
  private static final int MAX_CITED = 256;
  private final HostRoot root;
  private final EvidenceBook book;

  NetworkProbe(HostRoot root, EvidenceBook book) {
    this.root = root;
    this.book = book;
  }

  /** ip -j addr, else ip addr, else Java's interface list. */
  PodFacts.Interfaces interfaces(CommandResult json, Supplier<CommandResult> text, Supplier<CommandResult> builtin) {
    CommandResult used = json;
    String source = "ip -j addr";
    if (!json.ok() || IpAddr.parse(json.stdout()).interfaces().isEmpty()) {
      used = text.get();
      source = "ip addr";
      if (!used.ok()) {
        String why = used.status();
        used = builtin.get();
        source = "java (ip " + why + ")";
      }
    }
    if (!used.ok()) {
      String status = switch (used.status()) {
        case "timeout" -> "timeout";
        case "missing" -> "missing"; // a capture made without any interface listing
        default -> "error";
      };
      return new PodFacts.Interfaces(status, source, List.of());
    }
    List<PodFacts.Iface> out = new ArrayList<>();
    for (IpAddr.Interface i : IpAddr.parse(used.stdout()).interfaces()) {
      List<String> addrs = new ArrayList<>();
      for (IpAddr.Address a : i.addresses()) {
        addrs.add(a.address() + (a.prefixLen() == null ? "" : "/" + a.prefixLen())
            + (a.scope() == null ? "" : " scope " + a.scope()));
      }
      out.add(new PodFacts.Iface(i.name(), i.linkType(), i.state(), i.flags(), addrs));
      String line = i.name() + " <" + String.join(",", i.flags()) + ">" + (i.state() == null ? "" : " state " + i.state())
          + (addrs.isEmpty() ? ", no address" : ": " + String.join(", ", addrs));
      book.add("pod.interfaces", source, line);
      // each interface on its own too: what a finding about it cites (a Pod has a handful; a
      // listing of thousands keeps its first ones)
      if (out.size() <= MAX_CITED) {
        book.add("pod.interface." + i.name(), source, line);
      }
    }
    return new PodFacts.Interfaces(source.startsWith("java") ? "java" : "ok", source, out);
  }

  PodFacts.Rdma rdma(CommandResult linkJson, Supplier<CommandResult> linkText, CommandResult sysJson,
      Supplier<CommandResult> sysText, PodFacts.Hcas hcas, PodFacts.Interfaces ifs) {
    CommandResult link = linkJson.ok() ? linkJson : linkText.get();
    CommandResult sys = sysJson.ok() ? sysJson : sysText.get();
    String status = link.ok() ? "ok" : link.status().equals("timeout") ? "timeout"
        : link.status().equals("missing") ? "missing" : "error";
    if (!link.ok() && !link.status().equals("missing")) {
      String why = (link.stderr() + link.stdout()).strip().lines().findFirst().orElse(link.status());
      book.add("probe.rdma", link.display(), link.status() + ": " + why);
    }
    String mode = null;
    if (sys.ok()) {
      RdmaSystem.Result r = RdmaSystem.parse(sys.stdout());
      if (r.netnsMode() != null && r.netnsMode() != RdmaSystem.NetnsMode.UNKNOWN) {
        mode = r.netnsMode().name().toLowerCase(Locale.ROOT);
        book.add("pod.rdmaNetns", sys.display(), "netns " + mode);
      }
    }
    Set<String> here = new LinkedHashSet<>(root.list("/sys/class/net"));
    ifs.interfaces().forEach(i -> here.add(i.name()));
    List<RdmaLink.Link> links = link.ok() ? RdmaLink.parse(link.stdout()).links() : List.of();
    Set<String> netdevsHere = new LinkedHashSet<>();
    int roceNoNetdev = 0;
    for (PodFacts.Port p : hcas.ports()) {
      // a port whose number did not fit is unknown: it matches no link, not even another unknown one
      String netdev = links.stream().filter(l -> l.dev().equals(p.hca()) && p.port() != null && p.port().equals(l.port()))
          .map(RdmaLink.Link::netdev).filter(n -> n != null).findFirst().orElse(p.netdev());
      if (netdev != null && here.contains(netdev)) {
        netdevsHere.add(netdev);
      } else if ("Ethernet".equals(p.linkLayer())) {
        roceNoNetdev++;
        book.add("pod.rdmaPortsNoNetdev", link.ok() ? link.display() : "/sys/class/infiniband/" + p.hca() + "/device/net",
            p.hca() + "/" + HcaProbe.portText(p.port()) + ": " + (netdev == null ? "no netdev in this netns" : "netdev " + netdev + " not in this netns"));
      }
    }
    for (RdmaLink.Link l : links) {
      book.add("pod.rdmaNetdevs", link.display(), l.dev() + "/" + HcaProbe.portText(l.port()) + " state " + l.state()
          + (l.netdev() == null ? "" : " netdev " + l.netdev()));
    }
    return new PodFacts.Rdma(status, mode, List.copyOf(netdevsHere), roceNoNetdev);
  }
}
