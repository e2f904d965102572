package dev.nccltriage.facts;

import java.util.ArrayList;
import java.util.List;

/**
 * NCCL's list filters (NCCL_IB_HCA, NCCL_SOCKET_IFNAME): comma-separated names, prefix match
 * unless the list starts with '=' (exact), and a leading '^' turns it into an exclusion list
 * ('^' before '='). IB entries may carry ':port' (and 2.30 rail fields), ignored here.
 */
public final class NcclNameFilter {
  private final boolean exclude;
  private final boolean exact;
  private final List<String> names;

  private NcclNameFilter(boolean exclude, boolean exact, List<String> names) {
    this.exclude = exclude;
    this.exact = exact;
    this.names = names;
  }

  public static NcclNameFilter parse(String value) {
    String v = value.strip();
    boolean exclude = v.startsWith("^");
    if (exclude) {
      v = v.substring(1);
    }
    boolean exact = v.startsWith("=");
    if (exact) {
      v = v.substring(1);
    }
    List<String> names = new ArrayList<>();
    for (String part : v.split(",")) {
      String name = part.strip();
      int colon = name.indexOf(':');
      if (colon >= 0) {
        name = name.substring(0, colon);
      }
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return new NcclNameFilter(exclude, exact, names);
  }

  /** Whether NCCL would select {@code candidate}. */
  public boolean selects(String candidate) {
    boolean listed = names.stream().anyMatch(n -> exact ? candidate.equals(n) : candidate.startsWith(n));
    return exclude != listed;
  }

  public boolean selectsAny(List<String> candidates) {
    return candidates.stream().anyMatch(this::selects);
  }
}
