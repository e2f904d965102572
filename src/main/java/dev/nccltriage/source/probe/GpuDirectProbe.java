package dev.nccltriage.source.probe;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.FileRead;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.source.probe.parse.GpuInformation;
import dev.nccltriage.source.probe.parse.KernelVersion;
import dev.nccltriage.source.probe.parse.NvidiaDriverVersion;
import dev.nccltriage.source.probe.parse.PeerMem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Step 6: the GPUDirect RDMA prerequisites as the container sees the node: nvidia_peermem loaded
 * and registered with ib_core, legacy nv_peer_mem, kernel and NVIDIA module flavor (DMA-BUF), the
 * GPUs and their models, and the GPU-NIC paths of nvidia-smi topo -m.
 */
final class GpuDirectProbe {
  private final HostRoot root;
  private final EvidenceBook book;

  GpuDirectProbe(HostRoot root, EvidenceBook book) {
    this.root = root;
    this.book = book;
  }

  PodFacts.GpuDirect probe(CommandResult topo, PodFacts.Hcas hcas) {
    FileRead modules = root.read("/proc/modules");
    PeerMem.Result mods = modules.ok() ? PeerMem.parse(modules.text()) : null;
    boolean peermemDir = root.exists("/sys/module/nvidia_peermem");
    Boolean peermem = peermemDir || mods != null && mods.nvidiaPeermem() ? Boolean.TRUE
        : mods != null || root.exists("/sys/module") ? Boolean.FALSE : null;
    if (peermem != null) {
      book.add("pod.peermemLoaded", peermemDir ? "/sys/module/nvidia_peermem" : "/proc/modules",
          "nvidia_peermem " + (peermem ? "loaded" : "not loaded"));
    }
    boolean registered = root.exists("/sys/kernel/mm/memory_peers/nv_mem/version")
        || root.exists("/sys/kernel/mm/memory_peers/nvidia-peermem/version");
    Boolean reg = registered ? Boolean.TRUE : peermem == null ? null : Boolean.FALSE;
    if (reg != null) {
      book.add("pod.peermemRegistered", "/sys/kernel/mm/memory_peers/nv_mem/version", registered ? "present" : "missing");
    }
    Boolean nvPeerMem = root.exists("/sys/module/nv_peer_mem") || mods != null && mods.nvPeerMem() ? Boolean.TRUE
        : peermem == null ? null : Boolean.FALSE;
    FileRead os = root.read("/proc/sys/kernel/osrelease");
    KernelVersion.Result kernel = os.ok() ? KernelVersion.parse(os.text()) : null;
    if (kernel != null && kernel.found()) {
      book.add("pod.kernel", "/proc/sys/kernel/osrelease", kernel.raw());
    }
    FileRead nv = root.read("/proc/driver/nvidia/version");
    NvidiaDriverVersion.Result driver = nv.ok() ? NvidiaDriverVersion.parse(nv.text()) : null;
    String flavor = driver == null || driver.flavor() == null ? null : driver.flavor().name().toLowerCase(Locale.ROOT);
    if (driver != null && driver.nvrmLine() != null) {
      book.add("pod.nvidiaModule", "/proc/driver/nvidia/version", driver.nvrmLine());
    }
    List<String> gpuDirs = root.list("/proc/driver/nvidia/gpus");
    List<String> models = new ArrayList<>();
    for (String bus : gpuDirs) {
      String info = "/proc/driver/nvidia/gpus/" + bus + "/information";
      FileRead f = root.read(info);
      String model = f.ok() ? GpuInformation.model(f.text()) : null;
      if (model != null && !models.contains(model)) {
        models.add(model);
        book.add("pod.gpuModels", info, "Model: " + model);
      }
    }
    Integer gpus = !gpuDirs.isEmpty() ? Integer.valueOf(gpuDirs.size())
        : (int) root.list("/dev").stream().filter(n -> n.matches("nvidia\\d+")).count();
    book.add("pod.gpus", gpuDirs.isEmpty() ? "/dev/nvidia*" : "/proc/driver/nvidia/gpus", gpus + " GPU(s)");
    Topology.Worst worst = Topology.worst(topo, hcas.usable());
    if (worst != null) {
      book.add("pod.gpuNicWorst", "nvidia-smi topo -m", worst.description());
    }
    String status = !modules.ok() && !nv.ok() && !os.ok() ? "error" : "ok";
    return new PodFacts.GpuDirect(status, peermem, reg, nvPeerMem, kernel != null && kernel.found() ? kernel.raw() : null,
        flavor, driver == null ? null : driver.driverVersion(), gpus, models, worst == null ? null : worst.relation(),
        topo.status());
  }
}
