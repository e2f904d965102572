package dev.nccltriage.source.probe;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.FileRead;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.source.probe.parse.RoceGids;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The GID tables of the RoCE ports (link layer Ethernet) of the usable HCAs, from
 * {@code /sys/class/infiniband/<hca>/ports/<n>/gids/<i>} with {@code gid_attrs/types/<i>} and
 * {@code gid_attrs/ndevs/<i>}; where sysfs has no table for a port, from {@code show_gids} output
 * recorded in a capture. Which index NCCL will use is for the facts to say, not this probe.
 */
final class GidProbe {
  static final List<String> SHOW_GIDS = List.of("show_gids");
  /**
   * mlx5 RoCE tables have 255 or 256 entries, and NCCL scans all of them; a table is read up to its
   * first missing index, so these bound only a capture made to be hostile.
   */
  static final int MAX_INDEX = 256;
  static final int MAX_READS = 8192;

  private final HostRoot root;
  private final EvidenceBook book;

  GidProbe(HostRoot root, EvidenceBook book) {
    this.root = root;
    this.book = book;
  }

  /** {@code showGids} is the recorded show_gids output, or a missing result. */
  PodFacts.Gids probe(PodFacts.Hcas hcas, CommandResult showGids) {
    List<RoceGids.Row> rows = showGids.ok() ? RoceGids.parseShowGids(showGids.stdout()).rows() : List.of();
    List<PodFacts.PortGids> ports = new ArrayList<>();
    int budget = MAX_READS;
    for (PodFacts.Port p : hcas.ports()) {
      if (p.port() == null || p.linkLayer() == null || !p.linkLayer().toLowerCase(Locale.ROOT).equals("ethernet")) {
        continue;
      }
      List<PodFacts.Gid> gids = new ArrayList<>();
      String base = "/sys/class/infiniband/" + p.hca() + "/ports/" + p.port() + "/";
      boolean readable = false;
      for (int i = 0; i < MAX_INDEX && budget > 0; i++, budget--) {
        FileRead g = root.read(base + "gids/" + i);
        if (g.status().equals("missing")) {
          break; // past the end of the table (or no table at all)
        }
        RoceGids.Gid gid = g.ok() ? RoceGids.parseGid(g.text()) : null;
        readable |= g.ok();
        if (gid == null || gid.kind() == RoceGids.Kind.EMPTY) {
          continue; // the kernel refuses (EINVAL) the attributes of an empty slot: not read
        }
        FileRead type = root.read(base + "gid_attrs/types/" + i);
        FileRead ndev = root.read(base + "gid_attrs/ndevs/" + i);
        gids.add(new PodFacts.Gid(i, gid.text(), kind(gid.kind()), gid.ipv4(),
            type.ok() ? RoceGids.parseType(type.text()) : null, ndev.ok() ? RoceGids.parseNdev(ndev.text()) : null));
      }
      String source = "sysfs";
      if (!readable) {
        gids.clear();
        for (RoceGids.Row r : rows) {
          if (r.dev().equals(p.hca()) && r.port() == p.port() && r.gid().kind() != RoceGids.Kind.EMPTY
              && gids.stream().noneMatch(x -> x.index() == r.index())) {
            gids.add(new PodFacts.Gid(r.index(), r.gid().text(), kind(r.gid().kind()), r.gid().ipv4(), r.version(),
                r.netdev()));
          }
        }
        gids.sort((a, b) -> Integer.compare(a.index(), b.index()));
        source = gids.isEmpty() ? "unreadable" : "show_gids";
      }
      ports.add(new PodFacts.PortGids(p.hca(), p.port(), source, gids));
      book.add("pod.gids", source.equals("show_gids") ? "show_gids" : base + "gids", p.hca() + " port " + p.port() + ": " + (source.equals("unreadable") ? "no GID table readable"
              : gids.size() + " GID(s) in use"));
    }
    String status = ports.isEmpty() ? "n/a"
        : ports.stream().allMatch(x -> x.source().equals("unreadable")) ? "unreadable" : "ok";
    return new PodFacts.Gids(status, ports);
  }

  private static String kind(RoceGids.Kind k) {
    return switch (k) {
      case LINK_LOCAL -> "link-local";
      case IPV4 -> "ipv4";
      case IPV6 -> "ipv6";
      case EMPTY -> "empty";
    };
  }
}
