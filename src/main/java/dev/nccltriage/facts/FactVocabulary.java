package dev.nccltriage.facts;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The closed vocabulary rules may name. Adding a fact means adding it here, with its type and a
 * sentence saying what it means; `nccl-triage rules --facts` prints this table.
 */
public final class FactVocabulary {
  public record Entry(String name, FactType type, String meaning) {}

  private static final Pattern ENV = Pattern.compile("^env\\.NCCL_[A-Z0-9_]+$");
  private static final Map<String, Entry> FIXED = build(
      e("log.ncclLines", FactType.NUMBER, "number of lines recognised as NCCL output"),
      e("log.ncclVersion", FactType.VERSION, "lowest NCCL version the log shows"),
      e("job.nodes", FactType.NUMBER, "nodes in the job (comm line nNodes, else distinct hosts, else ranks over localRanks)"),
      e("job.singleNode", FactType.BOOL, "the whole job runs on one node (from evidence only; unknown when the log does not show it)"),
      e("job.ranks", FactType.NUMBER, "ranks in the job (nranks, else processes seen)"),
      e("job.localGpus", FactType.NUMBER, "GPUs per node (localRanks, else distinct devices on a host)"),
      e("net.transport", FactType.TEXT, "network NCCL used: IB, Socket, a plugin name, or mixed"),
      e("net.rdma", FactType.BOOL, "the network NCCL used moves data with RDMA (all nodes)"),
      e("net.mixed", FactType.BOOL, "nodes disagree on the network"),
      e("net.usesNetwork", FactType.BOOL, "inter-node traffic exists (network channels, or more than one node)"),
      e("net.channels", FactType.NUMBER, "network channel connections logged"),
      e("net.oobInterface", FactType.TEXT, "interface of the IB out-of-band handshake (; OOB if:addr)"),
      e("net.oobAddress", FactType.TEXT, "address of the IB out-of-band interface"),
      e("net.bootstrapInterface", FactType.TEXT, "interface NCCL bootstrap used"),
      e("net.socketInterfaces", FactType.LIST, "interfaces the Socket transport listed"),
      e("ib.noDevice", FactType.BOOL, "NCCL printed NET/IB : No device found"),
      e("ib.initLogged", FactType.BOOL, "the log has any NET/IB line (the IB transport was initialised)"),
      e("ib.hcaPorts", FactType.NUMBER, "distinct HCA ports NCCL listed across the job"),
      e("ib.hcaPortsMin", FactType.NUMBER, "fewest HCA ports any process listed"),
      e("ib.hcaPerGpu", FactType.NUMBER, "ib.hcaPortsMin divided by job.localGpus"),
      e("ib.hcaDeficit", FactType.NUMBER, "expect.hcas minus ib.hcaPortsMin (when --expect-hcas is given)"),
      e("ib.hcaNames", FactType.LIST, "HCA names NCCL listed"),
      e("ib.linkLayers", FactType.LIST, "link layers of the listed ports (IB, RoCE)"),
      e("ib.mixedLinkLayers", FactType.BOOL, "the listed ports mix InfiniBand and RoCE"),
      e("gdr.channels", FactType.TEXT, "GPUDirect RDMA over network channels: all, some, none"),
      e("gdr.receiveChannels", FactType.TEXT, "GPUDirect RDMA over receive-side network channels: all, some, none"),
      e("gdr.noModule", FactType.BOOL, "NCCL logged GDR disabled for lack of a peer-memory module"),
      e("gdr.nicDisabled", FactType.BOOL, "NCCL logged GDR disabled for an HCA (no peer memory, no DMA-BUF)"),
      e("gdr.distanceDisabled", FactType.BOOL, "NCCL logged GDR disabled because the GPU-NIC path is too long"),
      e("gdr.enabledLogged", FactType.BOOL, "NCCL logged a GDR Enabled decision"),
      e("gdr.ringsFlag", FactType.NUMBER, "GDR flag of 'Connected all rings, use ring PXN n GDR n' (2.24+)"),
      e("gdr.dmabufAvailable", FactType.BOOL, "NCCL printed DMA-BUF is available on a GPU"),
      e("plugin.loaded", FactType.LIST, "external net plugins NCCL loaded"),
      e("plugin.ofiProviders", FactType.LIST, "libfabric providers aws-ofi-nccl selected (efa, tcp, ...)"),
      e("plugin.providerRdma", FactType.BOOL, "the libfabric providers aws-ofi-nccl selected move data with RDMA (efa, verbs) rather than TCP"),
      e("gdr.pluginDisabled", FactType.BOOL, "the net plugin logged that it turned GPUDirect RDMA off"),
      e("gdr.logged", FactType.TEXT, "GPUDirect RDMA by NCCL's own decision lines: none (every logged decision disabled) or some"),
      e("log.noGpu", FactType.BOOL, "a framework's error says the process found no GPU (PyTorch's 'No CUDA GPUs are available', CUDA's 'no CUDA-capable device is detected')"),
      e("log.driverTooOld", FactType.BOOL, "a framework's error says the node's GPU driver is older than the image's CUDA ('CUDA driver version is insufficient for CUDA runtime version', PyTorch's 'The NVIDIA driver on your system is too old')"),
      e("log.pythonException", FactType.BOOL, "a Python traceback ends in an exception's line with no [rankN]: tag (uncaught, the process ended; or printed by a handler: the lines do not tell); behind a wrapper no table knows, its first line is the evidence; alone, not a failure"),
      e("rendezvous.unresolved", FactType.BOOL, "c10d could not resolve the rendezvous store's host name (its warning 'cannot be retrieved (gai error: ...)'); alone, not a failure"),
      e("rendezvous.connect", FactType.BOOL, "a rank could not connect to PyTorch's rendezvous store (MASTER_ADDR:MASTER_PORT, torchrun's --rdzv-endpoint)"),
      e("rendezvous.clients", FactType.BOOL, "PyTorch's rendezvous timed out waiting for ranks or nodes that never joined (waiting for clients, RendezvousTimeoutError)"),
      e("rendezvous.lost", FactType.BOOL, "a rank lost PyTorch's rendezvous store while waiting for NCCL's unique id from rank 0"),
      e("log.collectiveTimeout", FactType.BOOL, "PyTorch's watchdog timed out a collective (Watchdog caught collective operation timeout)"),
      e("log.gpuOutOfMemory", FactType.BOOL, "a rank failed out of GPU memory (PyTorch's CUDA out of memory)"),
      e("log.rankKilled", FactType.BOOL, "a rank died of SIGKILL, as its launcher reports it (torchrun's exitcode -9, mpirun's or Hydra's signal 9, srun's Killed or Out Of Memory, slurmstepd's oom_kill event, a shell's Killed, a CalledProcessError's SIGKILL, DeepSpeed's return code -9, the kernel's OOM killer's Killed process)"),
      e("log.shmExhausted", FactType.BOOL, "a rank failed for want of /dev/shm: PyTorch could not allocate shared memory (its data-loader workers)"),
      e("log.failed", FactType.BOOL, "the log shows the job failing: a WARN that is not a recoverable probe, an error unwind, a crash, a failed collective, an uncaught exception or a launcher's report of a rank's end"),
      e("net.initLogged", FactType.BOOL, "a process's network init is in the log (Bootstrap, NET/Plugin, NET/Socket or NET/IB lines, or its version line)"),
      e("log.warnings", FactType.NUMBER, "NCCL WARN lines in the log"),
      e("log.kubernetes", FactType.BOOL, "the log shows a Pod (kubectl's [pod/...] prefix, operator Pod names, Multus net1); unknown otherwise"),
      e("log.container", FactType.BOOL, "the log shows a container (a Pod, or docker's 12-hex container-id host names); unknown otherwise"),
      e("log.versionsDiffer", FactType.BOOL, "processes printed different NCCL versions"),
      e("net.rdmaSeen", FactType.BOOL, "the log shows RDMA hardware or an RDMA transport (HCAs, IB/RDMA plugin, verbs errors, IPoIB); unknown otherwise"),
      e("net.linkLocal", FactType.BOOL, "NCCL listed an interface with an IPv6 link-local (fe80::/10) address for bootstrap, OOB or sockets"),
      e("net.sharedBootstrapAddress", FactType.TEXT, "an address several hosts bootstrapped on (a container bridge's: unreachable between nodes)"),
      e("net.loopback", FactType.BOOL, "NCCL listed a loopback interface (lo, 127.x) for bootstrap, OOB or sockets"),
      e("error.completionStatus", FactType.LIST, "status numbers of IB completion errors"),
      e("expect.hcas", FactType.NUMBER, "HCA ports expected per node (--expect-hcas)"),
      e("expect.iface", FactType.TEXT, "interface NCCL should use for sockets and OOB (--expect-iface)"),
      e("expect.gdr", FactType.BOOL, "GPUDirect RDMA is expected (--expect-gdr)"),
      e("expect.memlockBytes", FactType.NUMBER, "minimum locked-memory limit in bytes (--min-memlock)"),
      e("probe.devices", FactType.TEXT, "how step 1 (/dev/infiniband) went: ok, error, timeout, skipped"),
      e("probe.hcas", FactType.TEXT, "how step 2 went: ok (ibv_devinfo), sysfs (fallback), error, timeout"),
      e("probe.rdma", FactType.TEXT, "how step 3 (rdma link/system) went: ok, missing, error, timeout"),
      e("probe.interfaces", FactType.TEXT, "how step 4 went: ok (ip), java (fallback), error, timeout"),
      e("probe.hcasRead", FactType.TEXT, "what step 2's ports were read with: ibv_devinfo, or sysfs (and why)"),
      e("probe.interfacesRead", FactType.TEXT, "what step 4's interfaces were read with: ip -j addr, ip addr, java"),
      e("probe.memlock", FactType.TEXT, "how step 5 went: ok, error"),
      e("probe.gpudirect", FactType.TEXT, "how step 6 went: ok, error"),
      e("probe.log", FactType.TEXT, "how step 7 went: ok, skipped (no --log), error"),
      e("pod.devInfiniband", FactType.BOOL, "/dev/infiniband exists in the container"),
      e("pod.devInfinibandEmpty", FactType.BOOL, "/dev/infiniband holds no device (as a person answered guide; check counts pod.uverbs)"),
      e("pod.uverbs", FactType.NUMBER, "uverbsN devices in /dev/infiniband"),
      e("pod.uverbsOpenable", FactType.NUMBER, "uverbsN devices this process can open read-write"),
      e("pod.uverbsUnopenable", FactType.NUMBER, "uverbs devices in /dev/infiniband this process cannot open"),
      e("pod.uverbsNames", FactType.LIST, "HCAs behind the uverbs devices (from sysfs ibdev)"),
      e("pod.rdmaCm", FactType.BOOL, "/dev/infiniband/rdma_cm exists"),
      e("pod.hcas", FactType.NUMBER, "HCAs usable in the container (with a uverbs device when known)"),
      e("pod.hcasOnNode", FactType.NUMBER, "HCAs sysfs shows (all of the node's, whatever was allocated)"),
      e("pod.rdmaNicsOnNode", FactType.NUMBER, "RDMA NIC functions on the node's PCI bus (InfiniBand class, NVIDIA/Mellanox network, AWS EFA), read when /sys/class/infiniband is empty; unknown when the bus cannot be read"),
      e("pod.rdmaHardware", FactType.BOOL, "the node shows RDMA hardware: uverbs in the container, HCAs in /sys/class/infiniband, RDMA NICs on its PCI bus or an exclusive RDMA netns; false when none and the PCI bus shows no RDMA NIC"),
      e("pod.hcaNames", FactType.LIST, "names of the usable HCAs"),
      e("pod.hcasNotAllocated", FactType.NUMBER, "HCAs sysfs shows on the node that the container has no uverbs device for"),
      e("probe.verbs", FactType.TEXT, "how the user-space verbs lookup went: ok (ldconfig -p or a library folder read), missing, error, timeout"),
      e("pod.libibverbs", FactType.TEXT, "path of libibverbs.so.1 as the dynamic loader finds it (ldconfig -p, then the usual library folders), or absent; unknown when neither could be read"),
      e("pod.verbsProviders", FactType.LIST, "verbs providers in the image (mlx5, efa...: lib<name>-rdmav<N>.so plugins, lib<name>.so.1)"),
      e("pod.verbsProvidersMissing", FactType.LIST, "providers the usable HCAs' drivers need (mlx5_* HCAs: mlx5, efa_*: efa) that the image lacks"),
      e("pod.ports", FactType.NUMBER, "ports of the usable HCAs"),
      e("pod.portsActive", FactType.NUMBER, "ports in state ACTIVE (unknown when none is and a port's state could not be read)"),
      e("pod.hcaDeficit", FactType.NUMBER, "expected HCA ports minus those this container has (--expect-hcas)"),
      e("pod.portsSelectedActive", FactType.NUMBER, "ACTIVE ports of usable HCAs that the job's NCCL_IB_HCA selects (all when unset)"),
      e("pod.portsAnyActive", FactType.BOOL, "at least one HCA port is ACTIVE (as a person answered guide; check counts pod.portsActive)"),
      e("pod.linkLayers", FactType.LIST, "link layers of the usable ports (InfiniBand, Ethernet)"),
      e("pod.minRateGbps", FactType.NUMBER, "lowest rate of an active port, Gb/s"),
      e("pod.rdmaNetns", FactType.TEXT, "rdma system netns mode: shared or exclusive"),
      e("pod.rdmaNetdevs", FactType.LIST, "netdevs of the usable RDMA ports present in this netns"),
      e("pod.rdmaPortsNoNetdev", FactType.NUMBER, "RoCE ports whose netdev is not in this netns"),
      e("pod.interfaces", FactType.LIST, "interfaces in the Pod's netns"),
      e("pod.secondaryInterfaces", FactType.LIST, "non-overlay interfaces with an IPv4/IPv6 address (net1, ib0, the RoCE netdev)"),
      e("pod.oobPredicted", FactType.TEXT, "the interface NCCL will pick for bootstrap and the IB handshake (NCCL_SOCKET_IFNAME applied to the Pod's interfaces, else NCCL's own order), \"none\" when none qualifies"),
      e("pod.oobOverlay", FactType.BOOL, "pod.oobPredicted is the overlay (eth0, a CNI interface) or lo"),
      e("pod.secondaryDown", FactType.LIST, "secondary interfaces and RDMA netdevs whose link is down, with the state (\"net1 (DOWN, NO-CARRIER)\")"),
      e("pod.rdmaNetdevsNoAddress", FactType.LIST, "netdevs of RDMA ports in this netns without an address"),
      e("probe.gids", FactType.TEXT, "what the RoCE ports' GID tables were read from: sysfs, show_gids (recorded in a capture), unreadable, n/a (no RoCE port)"),
      e("pod.gidWanted", FactType.TEXT, "the GID NCCL looks for: RoCE v2 IPv4-mapped (NCCL_IB_ROCE_VERSION_NUM, NCCL_IB_ADDR_FAMILY change it)"),
      e("pod.gidWantedIndexes", FactType.LIST, "lowest index holding the wanted GID, each distinct one over the RoCE ports NCCL would use (ACTIVE, selected by NCCL_IB_HCA)"),
      e("pod.gidWantedMissing", FactType.LIST, "RoCE ports NCCL would use whose GID table holds no wanted GID (mlx5_2/1)"),
      e("pod.gidIndexSuggested", FactType.TEXT, "the index of the wanted GID when it is the same on every RoCE port that has one"),
      e("pod.gidEnvIndexWrong", FactType.LIST, "RoCE ports where the index NCCL_IB_GID_INDEX names holds no wanted GID while another index does"),
      e("pod.gidEnvIndexHolds", FactType.TEXT, "what the NCCL_IB_GID_INDEX index holds on those ports (a link-local RoCE v2 GID, an empty slot...)"),
      e("pod.gidDefaultWrong", FactType.LIST, "with NCCL_IB_GID_INDEX unset: RoCE ports whose index 0 (NCCL before 2.21) holds no wanted GID while another index does"),
      e("pod.gidDefaultHolds", FactType.TEXT, "what index 0 holds on those ports"),
      e("pod.gidSummary", FactType.TEXT, "the RoCE GID tables for people: where the wanted GID is and what the index NCCL uses holds"),
      e("pod.memlockBytes", FactType.NUMBER, "Max locked memory (soft) of the process that registers memory; -1 = unlimited"),
      e("pod.ipcLock", FactType.BOOL, "CAP_IPC_LOCK is in the effective capabilities of that process"),
      e("pod.peermemLoaded", FactType.BOOL, "the nvidia_peermem module is loaded"),
      e("pod.peermemRegistered", FactType.BOOL, "a peer-memory client is registered with ib_core (memory_peers/nv_mem)"),
      e("pod.nvPeerMem", FactType.BOOL, "the legacy nv_peer_mem module is loaded"),
      e("pod.kernel", FactType.VERSION, "kernel version"),
      e("pod.nvidiaModule", FactType.TEXT, "NVIDIA kernel module flavor: open or proprietary"),
      e("pod.dmabufPossible", FactType.BOOL, "kernel >= 5.12 and the open NVIDIA module: DMA-BUF can replace peermem"),
      e("pod.gpus", FactType.NUMBER, "GPUs visible in the container"),
      e("pod.gpuNicWorst", FactType.TEXT, "worst path from a GPU to its nearest NIC (nvidia-smi topo -m: PIX, PXB, PHB, NODE, SYS)"),
      e("pod.gpuNicPath", FactType.TEXT, "pod.gpuNicWorst as step 6 shows it: with the NVLink-C2C route when pod.gpuNicC2c"),
      e("pod.gpuModels", FactType.LIST, "the GPUs' models (/proc/driver/nvidia/gpus/*/information)"),
      e("pod.gpuNicC2c", FactType.BOOL, "the worst GPU-NIC path (PHB, NODE) runs over NVLink-C2C to the GPU's own Grace CPU (GH200, GB200): NCCL's P2C path"),
      e("pod.ibHcaMatches", FactType.BOOL, "NCCL_IB_HCA selects at least one usable HCA"),
      e("pod.ibHcaExcludes", FactType.BOOL, "NCCL_IB_HCA leaves out at least one usable HCA"),
      e("pod.memlock", FactType.TEXT, "the memlock limit for people: unlimited, or bytes with a unit"),
      e("pod.socketIfnameMatches", FactType.BOOL, "NCCL_SOCKET_IFNAME matches an interface of the Pod"),
      e("pod.secondaryCount", FactType.NUMBER, "number of pod.secondaryInterfaces"),
      e("pod.memlockDeficit", FactType.NUMBER, "expect.memlockBytes minus the limit (unlimited counts as enough)"),
      e("pod.expectedIfacePresent", FactType.BOOL, "the --expect-iface interface exists with an address"),
      e("k8s.kind", FactType.TEXT, "lint: kind of the manifest object holding this pod template"),
      e("k8s.pods", FactType.NUMBER, "lint: pods the object runs, all templates (product of replicas/parallelism/size above each)"),
      e("k8s.gpuRequested", FactType.BOOL, "lint: a container of the template requests nvidia.com/gpu"),
      e("k8s.rdmaResources", FactType.LIST, "lint: RDMA resources requested (rdma/*, nvidia.com/hostdev, mellanox.com/*, *sriov*, *rdma*, --rdma-resource)"),
      e("k8s.rdmaRequested", FactType.BOOL, "lint: k8s.rdmaResources is not empty"),
      e("k8s.ipcLock", FactType.BOOL, "lint: every container requesting RDMA (else GPUs) adds IPC_LOCK (or is privileged)"),
      e("k8s.multusAnnotation", FactType.TEXT, "lint: the k8s.v1.cni.cncf.io/networks annotation of the template"),
      e("k8s.multusAnnotated", FactType.BOOL, "lint: the template has a k8s.v1.cni.cncf.io/networks annotation"),
      e("k8s.multusMalformed", FactType.BOOL, "lint: the annotation is neither a comma list of [ns/]name[@iface] nor a JSON list"),
      e("k8s.hostNetwork", FactType.BOOL, "lint: spec.hostNetwork is true"),
      e("k8s.socketIfname", FactType.TEXT, "lint: NCCL_SOCKET_IFNAME of the template's containers"),
      e("k8s.devShm", FactType.BOOL, "lint: a Memory emptyDir is mounted at /dev/shm"),
      e("k8s.devShmSized", FactType.BOOL, "lint: that /dev/shm emptyDir has a sizeLimit"),
      e("k8s.ncclDebug", FactType.TEXT, "lint: NCCL_DEBUG of the template's containers, 'unset' when absent"),
      e("log.present", FactType.BOOL, "an NCCL log was given (--log)"),
      e("bw.collective", FactType.TEXT, "nccl-tests collective (all_reduce, all_gather, ...): preamble, else file name, else columns"),
      e("bw.busbw", FactType.NUMBER, "large-message busbw, GB/s: mean over sizes >= 256 MB of the better of out-of-place/in-place; the maximum when no size reaches 256 MB"),
      e("bw.peakBusbw", FactType.NUMBER, "highest busbw of any size, GB/s"),
      e("bw.avgBusbw", FactType.NUMBER, "the '# Avg bus bandwidth' line, GB/s (mean over all sizes)"),
      e("bw.expected", FactType.NUMBER, "what the node's NICs carry, GB/s: HCAs x rate (Gb/s) / 8; unknown without a rate"),
      e("bw.hcas", FactType.NUMBER, "HCA ports per node used for bw.expected (--hcas, else the log's count)"),
      e("bw.rateGbps", FactType.NUMBER, "per-port rate in Gb/s (--rate)"),
      e("bw.ratio", FactType.NUMBER, "bw.busbw / bw.expected"),
      e("bw.nodes", FactType.NUMBER, "distinct hosts of the '# Rank' lines"),
      e("bw.ranks", FactType.NUMBER, "ranks of the '# Rank' lines"),
      e("bw.singleNode", FactType.BOOL, "every rank on one host: the network is not exercised"),
      e("bw.maxBytes", FactType.NUMBER, "largest message size measured, bytes"),
      e("bw.rows", FactType.NUMBER, "size rows read"),
      e("bw.wrong", FactType.BOOL, "a #wrong column is above 0, or out-of-bounds values were reported"),
      e("env.NCCL_*", FactType.TEXT, "an NCCL variable NCCL echoed (X set by environment to Y)"),
      e("error.<kind>", FactType.BOOL, "NCCL logged this error signature (kinds: "
          + String.join(", ", Arrays.stream(ErrorKind.values()).map(ErrorKind::id).toList()) + ")"),
      e("error.<kind>.detail", FactType.TEXT, "errno text or device name of the first such error"));

  private FactVocabulary() {}

  private static Entry e(String name, FactType type, String meaning) {
    return new Entry(name, type, meaning);
  }

  private static Map<String, Entry> build(Entry... entries) {
    Map<String, Entry> m = new LinkedHashMap<>();
    for (Entry x : entries) {
      m.put(x.name(), x);
    }
    return Collections.unmodifiableMap(m);
  }

  public static Map<String, Entry> entries() {
    return FIXED;
  }

  public static boolean isKnown(String name) {
    return type(name) != null;
  }

  public static FactType type(String name) {
    Entry e = FIXED.get(name);
    if (e != null && !name.contains("*") && !name.contains("<")) {
      return e.type();
    }
    if (ENV.matcher(name).matches()) {
      return FactType.TEXT;
    }
    if (name.startsWith("error.")) {
      String rest = name.substring(6);
      boolean detail = rest.endsWith(".detail");
      String kind = detail ? rest.substring(0, rest.length() - 7) : rest;
      for (ErrorKind k : ErrorKind.values()) {
        if (k.id().equals(kind)) {
          return detail ? FactType.TEXT : FactType.BOOL;
        }
      }
    }
    return null;
  }
}
