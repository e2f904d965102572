package dev.nccltriage.facts;

/** A network interface as NCCL printed it: {@code name:address<port>}. */
public record Iface(String name, String address) {
  public String render() {
    return address == null ? name : name + ":" + address;
  }
}
