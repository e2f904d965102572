package dev.nccltriage.facts;

import java.util.List;

/**
 * One entry of NCCL's {@code NET/IB : Using} list: a device port with its link layer, or a merged
 * (virtual) device made of several ports (2.20+ NIC fusion), listed in {@code merged}.
 */
public record Hca(int index, String name, int port, String linkLayer, List<Hca> merged) {
  public Hca {
    merged = merged == null ? List.of() : List.copyOf(merged);
  }

  /** Physical ports behind this entry: itself, or the ports it merges. */
  public List<Hca> ports() {
    return merged.isEmpty() ? List.of(this) : merged;
  }
}
