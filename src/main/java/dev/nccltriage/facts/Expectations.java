package dev.nccltriage.facts;

/**
 * What a site says its Pods should have, set once (flags or a small YAML file): HCA ports, the
 * interface NCCL should use, GPUDirect RDMA, and a minimum locked-memory limit in bytes.
 */
public record Expectations(Integer hcas, String iface, Boolean gdr, Long minMemlockBytes) {
  public static final Expectations NONE = new Expectations(null, null, null, null);

  /** Flags win over the file. */
  public Expectations over(Expectations file) {
    return new Expectations(hcas != null ? hcas : file.hcas, iface != null ? iface : file.iface,
        gdr != null ? gdr : file.gdr, minMemlockBytes != null ? minMemlockBytes : file.minMemlockBytes);
  }

  /** Parses sizes like 64k, 512M, 1G, unlimited (-1), or plain bytes. */
  public static long parseSize(String s) {
    String t = s.strip().toLowerCase(java.util.Locale.ROOT);
    if (t.equals("unlimited") || t.equals("infinity")) {
      return -1;
    }
    long mult = 1;
    char last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
    if (last == 'b') {
      t = t.substring(0, t.length() - 1);
      last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
    }
    if (last == 'i') {
      t = t.substring(0, t.length() - 1);
      last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
    }
    switch (last) {
      case 'k' -> mult = 1L << 10;
      case 'm' -> mult = 1L << 20;
      case 'g' -> mult = 1L << 30;
      case 't' -> mult = 1L << 40;
      default -> { }
    }
    if (mult > 1) {
      t = t.substring(0, t.length() - 1);
    }
    try {
      long v = Long.parseLong(t.strip());
      if (v < 0) {
        throw new IllegalArgumentException("size must not be negative: " + s);
      }
      return Math.multiplyExact(v, mult);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("not a size (like 64k, 512M, 1G or unlimited): " + s);
    }
  }
}
