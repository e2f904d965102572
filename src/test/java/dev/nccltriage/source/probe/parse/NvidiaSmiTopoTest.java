package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.NvidiaSmiTopo.Closest;
import dev.nccltriage.source.probe.parse.NvidiaSmiTopo.Gpu;
import dev.nccltriage.source.probe.parse.NvidiaSmiTopo.Nic;
import dev.nccltriage.source.probe.parse.NvidiaSmiTopo.Result;
import java.util.List;
import org.junit.jupiter.api.Test;

class NvidiaSmiTopoTest {

  private static Result sample(String name) {
    return NvidiaSmiTopo.parse(Fixtures.read("nvidia-smi-topo/" + name));
  }

  @Test
  void topoMp14NicsGpuNumaId() {
    Result r = sample("deepep-60-topo-mp-14nic-gpu-numa-id");
    assertThat(r.columns()).hasSize(22);
    assertThat(r.gpus()).extracting(Gpu::label).containsExactly(
        "GPU0", "GPU1", "GPU2", "GPU3", "GPU4", "GPU5", "GPU6", "GPU7");
    assertThat(r.nics()).hasSize(14).allMatch(n -> n.ibdev() == null); // no NIC legend pasted
    assertThat(r.gpus().get(0)).isEqualTo(new Gpu("GPU0", 0, "0-47,96-143", "0", "N/A"));
    assertThat(r.gpus().get(5).cpuAffinity()).isNull(); // no row for GPU5 in the excerpt
    assertThat(r.relation("GPU0", "GPU1")).isEqualTo("NODE"); // -mp: PCIe only
    assertThat(r.relation("GPU3", "NIC7")).isEqualTo("PIX");
    assertThat(r.closestNic("GPU2")).isEqualTo(new Closest("GPU2", "NIC2", null, "PIX", List.of("NIC2")));
    assertThat(r.closestNic("GPU3").nic()).isEqualTo("NIC7");
    assertThat(r.closestNic("GPU4")).isNull();
  }

  @Test
  void oldDriverMlx5ColumnNoNumaAffinityWithLegend() {
    Result r = sample("dlperf-v100-driver-440-mlx5-column-bridges-legend");
    assertThat(r.nics()).containsExactly(new Nic("mlx5_0", "mlx5_0"));
    assertThat(r.gpus()).hasSize(8);
    assertThat(r.gpus().get(4)).isEqualTo(new Gpu("GPU4", 4, "12-23,36-47", null, null));
    assertThat(r.relation("GPU0", "GPU3")).isEqualTo("NV2");
    assertThat(r.relation("GPU2", "mlx5_0")).isEqualTo("PIX");
    assertThat(r.relation("mlx5_0", "GPU7")).isEqualTo("SYS");
    assertThat(r.closestNic("GPU0").relation()).isEqualTo("NODE");
    assertThat(r.closestNic("GPU3")).isEqualTo(
        new Closest("GPU3", "mlx5_0", "mlx5_0", "PIX", List.of("mlx5_0")));
    assertThat(r.legend()).containsEntry("X", "Self").containsKey("NV#")
        .containsEntry("PIX", "Connection traversing at most a single PCIe bridge");
  }

  @Test
  void h100SixNicsRowsOnly() {
    Result r = sample("nccl-1737-h100-6nic-gpu-numa-id-rows");
    assertThat(r.nics()).extracting(Nic::label)
        .containsExactly("NIC0", "NIC1", "NIC2", "NIC3", "NIC4", "NIC5");
    assertThat(r.relation("GPU1", "GPU0")).isEqualTo("NV18");
    assertThat(r.closestNic("GPU0").nic()).isEqualTo("NIC0");
    assertThat(r.closestNic("GPU1").relation()).isEqualTo("NODE");
    assertThat(r.closestNic("GPU1").tied()).containsExactly("NIC0", "NIC1", "NIC2", "NIC3");
    assertThat(r.closestNic("GPU2").nic()).isEqualTo("NIC1");
    assertThat(r.gpus().get(2).gpuNumaId()).isEqualTo("N/A");
  }

  @Test
  void a100OldFormat18Mlx5ColumnsWithNumaAffinity() {
    Result r = sample("nccl-707-a100-old-format-mlx5-columns-numa-affinity");
    assertThat(r.nics()).hasSize(18);
    assertThat(r.nics().get(17)).isEqualTo(new Nic("mlx5_17", "mlx5_17"));
    assertThat(r.gpus().get(0)).isEqualTo(new Gpu("GPU0", 0, "0-47,96-143", "0", null));
    assertThat(r.closestNic("GPU0")).isEqualTo(new Closest("GPU0", "mlx5_4", "mlx5_4", "PXB",
        List.of("mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7")));
    assertThat(r.closestNic("GPU2").nic()).isEqualTo("mlx5_0");
  }

  @Test
  void h800NineNicsRailAligned() {
    Result r = sample("nccl-933-h800-9nic-nv8-pix-node-sys-rows-only");
    assertThat(r.gpus()).hasSize(8);
    assertThat(r.closestNic("GPU0").nic()).isEqualTo("NIC2");
    assertThat(r.closestNic("GPU4").nic()).isEqualTo("NIC1");
    assertThat(r.closestNic("GPU6").nic()).isEqualTo("NIC5");
    assertThat(r.closest()).hasSize(7).allMatch(c -> c.relation().equals("PIX"));
    assertThat(r.gpus().get(4).numaAffinity()).isEqualTo("1");
    assertThat(r.gpus().get(7).cpuAffinity()).isNull(); // GPU7 row not pasted
  }

  @Test
  void l40sAllSys() {
    Result r = sample("nccl-tests-273-l40s-nic-all-sys");
    assertThat(r.nics()).containsExactly(new Nic("NIC0", null));
    assertThat(r.closest()).hasSize(8).allMatch(c -> c.relation().equals("SYS"));
    assertThat(r.relation("NIC0", "GPU3")).isEqualTo("SYS");
    assertThat(r.gpus().get(7).cpuAffinity()).isEqualTo("90-179");
  }

  @Test
  void completeWithNicLegendAndNicRows() {
    Result r = sample("nccl-tests-320-complete-3gpu-2nic-phb-pix-legend");
    assertThat(r.nics()).containsExactly(new Nic("NIC0", "mlx5_0"), new Nic("NIC1", "mlx5_1"));
    assertThat(r.gpus()).extracting(Gpu::label).containsExactly("GPU0", "GPU1", "GPU2");
    assertThat(r.relation("GPU2", "NIC0")).isEqualTo("PHB");
    assertThat(r.relation("NIC0", "NIC1")).isEqualTo("PIX");
    assertThat(r.closestNic("GPU0")).isEqualTo(
        new Closest("GPU0", "NIC0", "mlx5_0", "NODE", List.of("NIC0", "NIC1")));
    assertThat(r.closestNic("GPU2").relation()).isEqualTo("PHB");
    assertThat(r.gpus().get(0)).isEqualTo(new Gpu("GPU0", 0, "64-71", "1", "N/A"));
    assertThat(r.legend()).hasSize(7);
  }

  @Test
  void oldFormat16GpusTenMlx5() {
    Result r = sample("nccl-tests-78-old-format-mlx5-column-names");
    assertThat(r.gpus()).hasSize(16);
    assertThat(r.nics()).hasSize(10);
    assertThat(r.gpus().get(15).label()).isEqualTo("GPU15");
    assertThat(r.closestNic("GPU0").nic()).isEqualTo("mlx5_0");
    assertThat(r.closestNic("GPU2").nic()).isEqualTo("mlx5_1");
    assertThat(r.gpus().get(0).cpuAffinity()).isEqualTo("0-23,48-71");
  }

  @Test
  void failureProse() {
    Result r = sample("nvsentinel-1485-failed-to-run-topology-matrix-siw");
    assertThat(r.messages()).containsExactly("Failed to run topology matrix");
    assertThat(r.gpus()).isEmpty();
    assertThat(r.nics()).isEmpty();
  }

  @Test
  void nicLegendOnlyNonContiguousIndices() {
    Result r = sample("sglang-6625-nic-legend-noncontiguous-mlx5-index");
    assertThat(r.columns()).isEmpty();
    assertThat(r.nics()).hasSize(18);
    assertThat(r.nics().get(4)).isEqualTo(new Nic("NIC4", "mlx5_6"));
    assertThat(r.nics().get(17)).isEqualTo(new Nic("NIC17", "mlx5_23"));
    assertThat(r.legend()).containsKeys("PHB", "PXB", "PIX", "NV#");
  }

  @Test
  void rawTabSeparatedOutput() {
    String t = "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
        + "GPU0\t X \tNV4\tPXB\t0-15\t0\t\tN/A\n"
        + "GPU1\tNV4\t X \tSYS\t16-31\t1\t\tN/A\n"
        + "NIC0\tPXB\tSYS\t X \n\nLegend:\n\n  X    = Self\n\nNIC Legend:\n\n  NIC0: mlx5_bond_0\n";
    Result r = NvidiaSmiTopo.parse(t);
    assertThat(r.columns()).containsExactly("GPU0", "GPU1", "NIC0");
    assertThat(r.gpus().get(1)).isEqualTo(new Gpu("GPU1", 1, "16-31", "1", "N/A"));
    assertThat(r.closestNic("GPU0")).isEqualTo(
        new Closest("GPU0", "NIC0", "mlx5_bond_0", "PXB", List.of("NIC0")));
    assertThat(r.relation("NIC0", "NIC0")).isEqualTo("X");
  }

  @Test
  void rowsOnlyPasteAnswersNicQuestionsFromTheGpuRows() {
    Result r = sample("nccl-1737-h100-6nic-gpu-numa-id-rows"); // no NIC rows pasted
    assertThat(r.relation("NIC0", "GPU1")).isEqualTo("NODE");
    assertThat(r.relation("NIC0", "GPU9")).isNull(); // neither row nor column of GPU9
    assertThat(r.relation("NIC0", "NIC1")).isNull(); // NIC-NIC cells only live in NIC rows
  }

  @Test
  void nicLookedUpByItsLabel() {
    Result r = sample("sglang-6625-nic-legend-noncontiguous-mlx5-index");
    assertThat(r.nic("NIC4")).isEqualTo(new Nic("NIC4", "mlx5_6"));
    assertThat(r.nic("NIC17").ibdev()).isEqualTo("mlx5_23");
    assertThat(r.nic("NIC18")).isNull();
  }

  @Test
  void headerIsNotReadAsTheRowOfItsFirstGpu() {
    // the GPU0 row is missing from the paste: nothing is known of GPU0 but its GPU1 cell,
    // taken from the GPU1 row (the header line "GPU0 GPU1 GPU2 NIC0 ..." is no GPU0 row)
    String t = Fixtures.read("nvidia-smi-topo/nccl-tests-320-complete-3gpu-2nic-phb-pix-legend")
        .replaceFirst("GPU0     X [^\n]*\n", "");
    Result r = NvidiaSmiTopo.parse(t);
    assertThat(r.closestNic("GPU0")).isNull();
    assertThat(r.relation("GPU0", "GPU1")).isEqualTo("NV4");
    assertThat(r.gpus().get(0)).isEqualTo(new Gpu("GPU0", 0, null, null, null));
    assertThat(r.closestNic("GPU1").relation()).isEqualTo("NODE");
  }

  @Test
  void affinityCellsShortOrExtraInARowAreTolerated() {
    // a terminal cut the GPU0 row after its CPU Affinity; the GPU1 row has a stray cell past
    // the last named column; GPU2's row after them is still read
    String t = "        GPU0    GPU1    GPU2    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
        + "GPU0     X      NV4     NV4     PIX     0-15\n"
        + "GPU1    NV4      X      NV4     SYS     16-31   1               N/A     extra\n"
        + "GPU2    NV4     NV4      X      SYS     16-31   1               N/A\n";
    Result r = NvidiaSmiTopo.parse(t);
    assertThat(r.gpus()).containsExactly(
        new Gpu("GPU0", 0, "0-15", null, null),
        new Gpu("GPU1", 1, "16-31", "1", "N/A"),
        new Gpu("GPU2", 2, "16-31", "1", "N/A"));
  }

  @Test
  void spaceJoinedCellsInsideATabPasteAreSplit() {
    // raw TAB output, edited by hand: two cells of the GPU0 row joined by spaces
    String t = "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\n"
        + "GPU0\t X  NV4\tPXB\t0-15\t0\n"
        + "GPU1\tNV4\t X \tSYS\t16-31\t1\n";
    Result r = NvidiaSmiTopo.parse(t);
    assertThat(r.relation("GPU0", "GPU1")).isEqualTo("NV4");
    assertThat(r.relation("GPU0", "NIC0")).isEqualTo("PXB");
    assertThat(r.gpus().get(0)).isEqualTo(new Gpu("GPU0", 0, "0-15", "0", null));
  }

  @Test
  void unknownTwoWordColumnInRawOutputIsNoDevice() {
    // raw output starts with a TAB: it is still split on TABs, so a multi-word column name that
    // a newer driver might add ends the device columns instead of becoming two NICs
    String t = "\tGPU0\tGPU1\tNIC0\tNew Column\tCPU Affinity\n"
        + "GPU0\t X \tNV4\tPXB\tx\t0-15\n";
    Result r = NvidiaSmiTopo.parse(t);
    assertThat(r.columns()).containsExactly("GPU0", "GPU1", "NIC0");
    assertThat(r.nics()).containsExactly(new Nic("NIC0", null));
  }

  @Test
  void headerAfterTheCommandOnTheSameLine() {
    // the command and the header's leading TAB joined into one line by a paste
    String t = "nvidia-smi topo -m\tGPU0\tGPU1\tNIC0\tCPU Affinity\n"
        + "GPU0\t X \tNV4\tPIX\t0-15\n";
    Result r = NvidiaSmiTopo.parse(t);
    assertThat(r.columns()).containsExactly("GPU0", "GPU1", "NIC0");
    assertThat(r.closestNic("GPU0").relation()).isEqualTo("PIX");
  }

  @Test
  void legendKeysUpToEightCharacters() {
    // a legend key is short (X, NV#, NODE); a longer word before '=' is prose, not legend
    Result r = NvidiaSmiTopo.parse("Legend:\n  NV#12345 = eight\n  NV#123456 = nine\n");
    assertThat(r.legend()).containsOnlyKeys("NV#12345");
  }
}
