package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.List;
import java.util.Map;

/**
 * What the container showed on each rung of the ladder, with where each value was read. The probe
 * statuses say how reading went ({@code ok}, a fallback's name, {@code missing}, {@code error},
 * {@code timeout}, {@code skipped}); they never say whether the values are good.
 */
public record PodFacts(
    Devices devices,
    Hcas hcas,
    Rdma rdma,
    Interfaces interfaces,
    Memlock memlock,
    GpuDirect gpudirect,
    Verbs verbs,
    Gids gids,
    Map<String, String> env,
    String envOf,
    Map<String, List<Evidence>> evidence) {

  /**
   * {@code opens}: per uverbs device, whether it opened read-write ({@code ok}, {@code denied},
   * {@code missing}, {@code error...}), or {@link #UNTRIED} and why (a capture that does not say).
   */
  public record Devices(String status, boolean present, List<String> uverbs, Map<String, String> uverbsHca,
      Map<String, String> opens, boolean rdmaCm, List<String> others) {
    public static final String UNTRIED = "unknown: ";
  }

  /** {@code port} is null when its number did not fit an int: counted, but matched to no other port. */
  public record Port(String hca, Integer port, String state, String physState, String linkLayer, Double rateGbps,
      String netdev) {}

  /**
   * {@code rdmaNicsOnNode}: the RDMA NIC functions on the node's PCI bus ("address (what)"), null
   * when the bus could not be read (unknown is not none).
   */
  public record Hcas(String status, String source, List<String> usable, List<String> onNode, List<Port> ports,
      List<String> rdmaNicsOnNode) {
    public Hcas(String status, String source, List<String> usable, List<String> onNode, List<Port> ports) {
      this(status, source, usable, onNode, ports, null);
    }
  }

  public record Rdma(String status, String netnsMode, List<String> netdevsHere, int rocePortsNoNetdev) {}

  /**
   * {@code state} is the operstate (UP, DOWN, LOWERLAYERDOWN, UNKNOWN...); {@code flags} those of
   * {@code <...>} (UP, LOWER_UP, NO-CARRIER...), empty when the source gave none.
   */
  public record Iface(String name, String linkType, String state, List<String> flags, List<String> addresses) {
    public Iface {
      flags = List.copyOf(flags);
      addresses = List.copyOf(addresses);
    }
  }

  public record Interfaces(String status, String source, List<Iface> interfaces) {}

  public record Memlock(String status, String of, Long softBytes, Boolean ipcLock) {}

  /** {@code gpuModels}: the distinct models of /proc/driver/nvidia/gpus, empty when none could be read. */
  public record GpuDirect(String status, Boolean peermemLoaded, Boolean peermemRegistered, Boolean nvPeerMem,
      String kernel, String nvidiaModule, String driverVersion, Integer gpus, List<String> gpuModels,
      String gpuNicWorst, String topoStatus) {
    public GpuDirect {
      gpuModels = List.copyOf(gpuModels);
    }
  }

  /**
   * The user-space verbs stack of the image, found as the dynamic loader would. {@code libibverbs}
   * is the path of libibverbs.so.1, {@code "absent"} when the loader's cache or a library folder
   * could be read and none had it, null when nothing could be read (unknown is not absent).
   * {@code providers} are the provider names found (mlx5, efa...), null when nothing could be read;
   * {@code missing} those the HCAs' drivers need (mlx5_* HCAs: mlx5) and none was found for, null
   * when the lookup could not be complete. {@code libraryPath} is the process's LD_LIBRARY_PATH,
   * searched first as the loader does (a conda environment's rdma-core lives there), null if unset.
   */
  public record Verbs(String status, String libibverbs, List<String> providers, List<String> missing,
      String libraryPath) {}

  /**
   * One entry of a RoCE port's GID table that is not empty. {@code kind} is {@code link-local}
   * (fe80::/64), {@code ipv4} (IPv4-mapped, {@code ipv4} its address) or {@code ipv6}; {@code version}
   * is the RoCE version (1 or 2) from {@code gid_attrs/types}, null when that could not be read;
   * {@code netdev} the netdev the GID belongs to, null when not known.
   */
  public record Gid(int index, String gid, String kind, String ipv4, Integer version, String netdev) {}

  /**
   * A RoCE port's GID table as read from {@code source}: {@code sysfs}, {@code show_gids} (recorded
   * in a capture), or {@code unreadable} (then {@code gids} is empty and says nothing).
   */
  public record PortGids(String hca, int port, String source, List<Gid> gids) {
    public PortGids {
      gids = List.copyOf(gids);
    }
  }

  /**
   * The GID tables of the usable HCAs' RoCE ports. {@code status}: {@code ok} (at least one table
   * read), {@code unreadable} (RoCE ports, no table readable), {@code n/a} (no RoCE port).
   */
  public record Gids(String status, List<PortGids> ports) {
    public Gids {
      ports = List.copyOf(ports);
    }
  }
}
