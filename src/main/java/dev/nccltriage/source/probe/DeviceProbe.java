package dev.nccltriage.source.probe;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.FileRead;
import dev.nccltriage.host.HostRoot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Step 1: what /dev/infiniband holds, which HCA each uverbs serves, and whether it opens. */
final class DeviceProbe {
  /**
   * The uverbs devices read and tried, at most: more than a node has (SR-IOV's virtual functions
   * included), so that a folder of a million files (a damaged or hostile capture) takes a moment,
   * not minutes. The others are counted, not tried: whether they open is unknown.
   */
  static final int MAX_TRIED = 4096;

  private final HostRoot root;
  private final EvidenceBook book;

  DeviceProbe(HostRoot root, EvidenceBook book) {
    this.root = root;
    this.book = book;
  }

  PodFacts.Devices probe() {
    if (!root.isDirectory("/dev/infiniband")) {
      book.add("pod.uverbs", "/dev/infiniband", "missing: the container has no /dev/infiniband");
      return new PodFacts.Devices("ok", false, List.of(), Map.of(), Map.of(), false, List.of());
    }
    List<String> names = root.list("/dev/infiniband");
    List<String> uverbs = new ArrayList<>();
    List<String> others = new ArrayList<>();
    for (String n : names) {
      (n.matches("uverbs\\d+") ? uverbs : others).add(n);
    }
    Map<String, String> hca = new LinkedHashMap<>();
    Map<String, String> opens = new LinkedHashMap<>();
    for (String u : uverbs) {
      if (opens.size() >= MAX_TRIED) {
        opens.put(u, PodFacts.Devices.UNTRIED + "not tried: more than " + MAX_TRIED + " uverbs devices");
        continue;
      }
      FileRead ibdev = root.read("/sys/class/infiniband_verbs/" + u + "/ibdev");
      if (ibdev.ok()) {
        hca.put(u, ibdev.text().strip());
      }
      opens.put(u, root.tryOpen("/dev/infiniband/" + u));
    }
    book.add("pod.uverbs", "/dev/infiniband", names.isEmpty() ? "(empty)" : String.join(" ", names));
    if (!hca.isEmpty()) {
      List<String> pairs = new ArrayList<>();
      hca.forEach((u, h) -> pairs.add(u + "=" + h));
      book.add("pod.uverbsNames", "/sys/class/infiniband_verbs/*/ibdev", String.join(" ", pairs));
    }
    List<String> opened = new ArrayList<>();
    opens.forEach((u, r) -> opened.add(u + ":" + r));
    if (!opened.isEmpty()) {
      book.add("pod.uverbsOpenable", "open(/dev/infiniband/uverbs*, O_RDWR)", String.join(" ", opened));
    }
    return new PodFacts.Devices("ok", true, uverbs, hca, opens, others.contains("rdma_cm"), others);
  }
}
