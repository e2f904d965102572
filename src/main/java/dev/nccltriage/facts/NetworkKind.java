package dev.nccltriage.facts;

import java.util.Collection;
import java.util.Locale;

/**
 * Whether a network NCCL names moves data with RDMA. Internal "IB" (InfiniBand and RoCE) and the
 * RDMA plugins (HPC-X IBext, UCX, aws-ofi-nccl on EFA, Google gIB) do; "Socket" and the TCP-based
 * plugins (GPUDirect-TCPX, FasTrak) do not; an unknown plugin is unknown.
 */
public final class NetworkKind {
  private NetworkKind() {}

  public static Boolean rdma(String network) {
    if (network == null) {
      return null;
    }
    String n = network.toLowerCase(Locale.ROOT);
    if (n.equals("socket") || n.contains("tcpx") || n.contains("fastrak")) {
      return false;
    }
    if (n.equals("ib") || n.startsWith("ibext") || n.contains("ucx") || n.contains("libfabric")
        || n.contains("ofi") || n.equals("gib") || n.startsWith("ib")) {
      return true;
    }
    return null;
  }

  /** RDMA only if every network in use is; false as soon as one is not. */
  public static Boolean rdma(Collection<String> networks) {
    if (networks.isEmpty()) {
      return null;
    }
    boolean unknown = false;
    for (String n : networks) {
      Boolean r = rdma(n);
      if (Boolean.FALSE.equals(r)) {
        return false;
      }
      unknown |= r == null;
    }
    return unknown ? null : true;
  }

  /** libfabric providers: efa, verbs, cxi, psm*, opx move data with RDMA; tcp, sockets, udp, shm do not. */
  public static Boolean providerRdma(String provider) {
    if (provider == null) {
      return null;
    }
    String p = provider.toLowerCase(Locale.ROOT);
    if (p.contains("tcp") || p.contains("sockets") || p.contains("udp") || p.equals("shm")) {
      return false;
    }
    if (p.contains("efa") || p.contains("verbs") || p.contains("cxi") || p.contains("psm") || p.contains("opx")) {
      return true;
    }
    return null;
  }
}
