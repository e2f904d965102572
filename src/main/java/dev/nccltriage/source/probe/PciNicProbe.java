package dev.nccltriage.source.probe;

import dev.nccltriage.host.FileRead;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.source.probe.parse.PciFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * The RDMA NICs on the node's PCI bus. /sys/bus/pci is not namespaced, so a Pod sees every function
 * of its node, allocated or not: where /sys/class/infiniband is empty (the node has no HCA, or the
 * Pod's RDMA netns is exclusive and it got none) this tells the two apart.
 */
final class PciNicProbe {
  static final String DEVICES = "/sys/bus/pci/devices";
  // a PCI domain holds at most 65536 functions; a real node has a few hundred
  private static final int MAX_FUNCTIONS = 4096;
  private final HostRoot root;
  private final EvidenceBook book;

  PciNicProbe(HostRoot root, EvidenceBook book) {
    this.root = root;
    this.book = book;
  }

  /** "address (what)" of each RDMA NIC function; null when no function's class could be read. */
  List<String> probe() {
    List<String> functions = root.list(DEVICES);
    List<String> nics = new ArrayList<>();
    int classesRead = 0;
    for (String f : functions.subList(0, Math.min(functions.size(), MAX_FUNCTIONS))) {
      String base = DEVICES + "/" + f + "/";
      FileRead cls = root.read(base + "class");
      Integer pciClass = cls.ok() ? PciFunction.hex(cls.text()) : null;
      if (pciClass == null) {
        continue;
      }
      classesRead++;
      if (!PciFunction.network(pciClass)) {
        continue;
      }
      FileRead vendor = root.read(base + "vendor");
      FileRead device = root.read(base + "device");
      String what = PciFunction.rdmaNic(pciClass, vendor.ok() ? PciFunction.hex(vendor.text()) : null,
          device.ok() ? PciFunction.hex(device.text()) : null);
      if (what != null) {
        nics.add(f + " (" + what + ")");
        book.add("pod.rdmaNicsOnNode", base + "class",
            f + ": class " + cls.text().strip() + (vendor.ok() ? ", vendor " + vendor.text().strip() : "") + ": " + what);
      }
    }
    if (classesRead == 0) {
      return null;
    }
    if (nics.isEmpty()) {
      book.add("pod.rdmaNicsOnNode", DEVICES, "none of " + classesRead
          + " PCI functions is an InfiniBand controller, an NVIDIA/Mellanox network controller or an AWS EFA");
    }
    return List.copyOf(nics);
  }
}
