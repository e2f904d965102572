package dev.nccltriage.source.probe.parse;

/**
 * The identity files of a PCI function in sysfs, {@code /sys/bus/pci/devices/<addr>/{class,vendor,device}},
 * as the kernel prints them ({@code drivers/pci/pci-sysfs.c}: {@code "0x%06x\n"} for the class,
 * {@code "0x%04x\n"} for vendor and device), and which of them are RDMA NICs. Never throws.
 */
public final class PciFunction {
  private static final int NETWORK_CLASS = 0x02;
  private static final int INFINIBAND_SUBCLASS = 0x0207;
  private static final int MELLANOX = 0x15b3;
  private static final int AMAZON = 0x1d0f;
  // EFA's device ids are 0xefa0..0xefa3 so far; Amazon's ENA (no RDMA) is 0xec20, 0xec21, 0x0ec2, 0x1ec2
  private static final int EFA_MASK = 0xfff0;
  private static final int EFA = 0xefa0;

  private PciFunction() {}

  /** A sysfs hex value ({@code 0x15b3}, with or without 0x, blanks around it) that fits an int, or null. */
  public static Integer hex(String text) {
    Long v = Text.hexToLong(text);
    return v == null || v > Integer.MAX_VALUE ? null : (int) (long) v;
  }

  /** A network controller (class 0x02xxxx): the only functions whose vendor is worth reading. */
  public static boolean network(int pciClass) {
    return pciClass >>> 16 == NETWORK_CLASS;
  }

  /**
   * What RDMA NIC a network function is, or null when it is none this tool knows: an InfiniBand
   * controller of any vendor, an NVIDIA (Mellanox) ConnectX or BlueField network function (every
   * one since ConnectX-3 does RoCE or InfiniBand), or an AWS EFA. {@code device} may be null when
   * it could not be read. Other vendors' RDMA NICs (Broadcom, Intel E810, Microsoft MANA) are
   * sold as plain NICs too, so their vendor alone says nothing.
   */
  public static String rdmaNic(int pciClass, Integer vendor, Integer device) {
    if (pciClass >>> 8 == INFINIBAND_SUBCLASS) {
      return "InfiniBand controller";
    }
    if (!network(pciClass) || vendor == null) {
      return null;
    }
    if (vendor == MELLANOX) {
      return "NVIDIA/Mellanox network controller";
    }
    if (vendor == AMAZON && device != null && (device & EFA_MASK) == EFA) {
      return "AWS EFA";
    }
    return null;
  }
}
