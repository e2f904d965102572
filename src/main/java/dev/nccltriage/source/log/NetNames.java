package dev.nccltriage.source.log;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Interns network names ("IB", "Socket", "AWS Libfabric") so the per-line path allocates nothing
 * for a repeated name, and so each name is one String: ProcessState.channels compares by identity.
 */
final class NetNames {
  private static final int LIMIT = 32; // a log names a handful; garbage must not grow the list
  /**
   * Every new name past the first {@link #LIMIT}: one name, so that a process's channels by network
   * stay a short list (a garbled log of 100000 distinct "networks" made that list, searched per
   * line, 100000 long: 94 s for 6.7 MB). No real log names more than a handful.
   */
  static final String MORE = "(more networks)";
  /** Longer than any network NCCL or a plugin names (IB, Socket, AWS Libfabric, IBext_v8): cut there. */
  static final int MAX_NAME = 64;
  private final List<byte[]> bytes = new ArrayList<>();
  private final List<String> names = new ArrayList<>();

  /**
   * The name in b[from, to); one past {@link #MAX_NAME} bytes is cut there and ends with "…" (a
   * garbled or hostile line's "network" must not become a 60 KB key of the report).
   */
  String of(byte[] b, int from, int to) {
    boolean cut = to - from > MAX_NAME;
    int n = cut ? MAX_NAME : to - from;
    int key = cut ? n + 1 : n; // a cut name's key is one longer than any whole name's
    for (int k = 0; k < names.size(); k++) {
      byte[] known = bytes.get(k);
      if (known.length == key && Bytes.equal(b, from, known, n)) {
        return names.get(k);
      }
    }
    if (names.size() >= LIMIT) {
      return MORE;
    }
    String name = cut ? Bytes.text(b, from, from + n) + "…" : Bytes.text(b, from, to);
    bytes.add(Arrays.copyOfRange(b, from, from + key)); // a cut name's extra byte is never compared
    names.add(name);
    return name;
  }
}
