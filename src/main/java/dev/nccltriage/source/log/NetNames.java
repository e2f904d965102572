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
  private final List<byte[]> bytes = new ArrayList<>();
  private final List<String> names = new ArrayList<>();

  String of(byte[] b, int from, int to) {
    int n = to - from;
    for (int k = 0; k < names.size(); k++) {
      byte[] known = bytes.get(k);
      if (known.length == n && Bytes.equal(b, from, known, n)) {
        return names.get(k);
      }
    }
    String name = Bytes.text(b, from, to);
    if (names.size() < LIMIT) {
      bytes.add(Arrays.copyOfRange(b, from, to));
      names.add(name);
    }
    return name;
  }
}
