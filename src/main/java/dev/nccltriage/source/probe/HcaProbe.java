package dev.nccltriage.source.probe;

import dev.nccltriage.facts.NaturalOrder;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.FileRead;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.source.probe.parse.IbvDevinfo;
import dev.nccltriage.source.probe.parse.SysfsPort;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Step 2: the HCAs the container can use and their ports, from ibv_devinfo, or from
 * /sys/class/infiniband when the tool is absent, fails or times out, and for each usable HCA whose
 * ports its output does not show (cut short, damaged). sysfs lists every HCA of the node; the
 * usable ones are those with a uverbs device in the container.
 */
final class HcaProbe {
  private static final Pattern DIGITS = Pattern.compile("\\d+");
  private final HostRoot root;
  private final EvidenceBook book;

  HcaProbe(HostRoot root, EvidenceBook book) {
    this.root = root;
    this.book = book;
  }

  PodFacts.Hcas probe(PodFacts.Devices devices, CommandResult devinfo) {
    List<String> onNode = root.list("/sys/class/infiniband");
    if (!onNode.isEmpty()) {
      book.add("pod.hcasOnNode", "/sys/class/infiniband", String.join(" ", onNode));
    }
    IbvDevinfo.Result parsed = devinfo.ok() || devinfo.status().equals("failed")
        ? IbvDevinfo.parse(devinfo.stdout() + "\n" + devinfo.stderr()) : null;
    Set<String> usable = new LinkedHashSet<>();
    if (devices.present()) {
      usable.addAll(devices.uverbsHca().values());
      if (usable.isEmpty() && parsed != null) {
        parsed.devices().forEach(d -> usable.add(d.name()));
      }
    }
    String status;
    String source = null;
    List<PodFacts.Port> ports = new ArrayList<>();
    if (parsed != null && parsed.devices().stream().anyMatch(d -> !d.ports().isEmpty())) {
      status = "ok";
      Set<String> described = new LinkedHashSet<>();
      for (IbvDevinfo.Device d : parsed.devices()) {
        if (!devices.present() || !usable.isEmpty() && !usable.contains(d.name()) || d.ports().isEmpty()) {
          continue;
        }
        usable.add(d.name());
        described.add(d.name());
        for (IbvDevinfo.Port p : d.ports()) {
          ports.add(new PodFacts.Port(d.name(), p.port(), shortState(p.state()), p.physState(), p.linkLayer(),
              p.port() == null ? null : rate(d.name(), String.valueOf(p.port())), netdev(d.name())));
          book.add("pod.portsActive", "ibv_devinfo", d.name() + " port " + portText(p.port()) + ": " + p.state()
              + (p.linkLayer() == null ? "" : ", link_layer " + p.linkLayer()));
        }
      }
      // an HCA every HCA has a port: one the output named without any, or did not name (cut short,
      // damaged), is read from sysfs as when ibv_devinfo is absent, not taken for one without ports
      List<String> undescribed = usable.stream().filter(h -> !described.contains(h)).toList();
      if (!undescribed.isEmpty()) {
        book.add("probe.hcas", "ibv_devinfo", "described no port of " + String.join(" ", undescribed)
            + "; those read from /sys/class/infiniband");
        sysfsPorts(undescribed, ports);
        source = "ibv_devinfo, and sysfs for " + undescribed.size() + " HCA(s) it did not describe";
      }
    } else {
      status = switch (devinfo.status()) {
        case "timeout" -> "timeout";
        case "missing" -> "sysfs";
        default -> parsed != null && !parsed.messages().isEmpty() ? "ok" : "sysfs";
      };
      if (devinfo.status().equals("timeout")) {
        book.add("probe.hcas", "ibv_devinfo", timedOut(devinfo) + "; ports read from /sys/class/infiniband");
      } else if (devinfo.status().equals("missing")) {
        book.add("probe.hcas", "ibv_devinfo", "not installed; ports read from /sys/class/infiniband");
      } else if (parsed != null && !parsed.devices().isEmpty()) {
        book.add("probe.hcas", "ibv_devinfo", "named HCAs but described no port (cut short or damaged); "
            + "ports read from /sys/class/infiniband");
      }
      if (parsed != null && !parsed.messages().isEmpty()) {
        book.add("pod.hcas", "ibv_devinfo", parsed.messages().get(0).text());
      }
      sysfsPorts(usable, ports);
    }
    // ibv_devinfo and uverbs numbering list HCAs in the kernel's order; people read them counted
    List<String> names = new ArrayList<>(usable);
    names.sort(NaturalOrder.INSTANCE);
    ports.sort(Comparator.comparing(PodFacts.Port::hca, NaturalOrder.INSTANCE)
        .thenComparing(PodFacts.Port::port, Comparator.nullsLast(Comparator.naturalOrder())));
    if (source == null) {
      source = status.equals("ok") ? "ibv_devinfo" : "sysfs";
    }
    return new PodFacts.Hcas(status, source, List.copyOf(names), onNode,
        ports, onNode.isEmpty() ? new PciNicProbe(root, book).probe() : null);
  }

  /** The ports of those HCAs as /sys/class/infiniband shows them. */
  private void sysfsPorts(java.util.Collection<String> hcas, List<PodFacts.Port> ports) {
    for (String hca : hcas) {
      for (String p : root.list("/sys/class/infiniband/" + hca + "/ports")) {
        String base = "/sys/class/infiniband/" + hca + "/ports/" + p + "/";
        FileRead state = root.read(base + "state");
        FileRead phys = root.read(base + "phys_state");
        FileRead ll = root.read(base + "link_layer");
        SysfsPort.NumName st = state.ok() ? SysfsPort.parseState(state.text()) : null;
        SysfsPort.NumName ph = phys.ok() ? SysfsPort.parsePhysState(phys.text()) : null;
        if (!DIGITS.matcher(p).matches()) {
          continue;
        }
        // a port directory whose number does not fit an int is still a port: its number is unknown (null)
        Integer port = p.length() > 9 ? toInt(p) : Integer.valueOf(p);
        ports.add(new PodFacts.Port(hca, port, st == null ? null : st.name(), ph == null ? null : ph.name(),
            ll.ok() ? SysfsPort.parseLinkLayer(ll.text()) : null, rate(hca, p), netdev(hca)));
        book.add("pod.portsActive", base + "state", hca + " port " + p + ": "
            + (state.ok() ? state.text().strip() : state.status()));
      }
    }
  }

  /** How long a timed-out command ran and was allowed, where known (a capture may not say). */
  static String timedOut(CommandResult r) {
    if (r.limitMillis() > 0) {
      return "timed out after " + r.millis() + " ms (limit " + r.limitMillis() + " ms) and was killed";
    }
    String why = r.stderr().strip().lines().findFirst().orElse("");
    return "timed out (" + (why.isEmpty() ? "how long it ran was not recorded" : why) + ")";
  }

  /** "PORT_ACTIVE" and sysfs "ACTIVE" both become ACTIVE. */
  private static String shortState(String s) {
    return s == null ? null : s.startsWith("PORT_") ? s.substring(5) : s;
  }

  private static Integer toInt(String digits) {
    try {
      return Integer.valueOf(digits);
    } catch (NumberFormatException tooLarge) {
      return null;
    }
  }

  static String portText(Integer port) {
    return port == null ? "?" : port.toString();
  }

  /** {@code port} is the name of the port's directory under ports/. */
  private Double rate(String hca, String port) {
    FileRead r = root.read("/sys/class/infiniband/" + hca + "/ports/" + port + "/rate");
    SysfsPort.Rate rate = r.ok() ? SysfsPort.parseRate(r.text()) : null;
    return rate == null ? null : rate.gbps();
  }

  private String netdev(String hca) {
    List<String> net = root.list("/sys/class/infiniband/" + hca + "/device/net");
    return net.isEmpty() ? null : net.get(0);
  }
}
