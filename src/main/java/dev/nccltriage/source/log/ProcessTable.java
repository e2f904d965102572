package dev.nccltriage.source.log;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the state of the process a line came from by the raw bytes of its host name and its pid,
 * without allocating on a hit: interleaved logs of a thousand ranks look up a process per line.
 */
final class ProcessTable {
  private byte[][] hosts = new byte[64][];
  private long[] pids = new long[64];
  private ProcessState[] states = new ProcessState[64];
  private final List<ProcessState> inOrder = new ArrayList<>();
  private final java.util.Map<String, HostEvidence> hostEvidence = new java.util.LinkedHashMap<>();
  private static final byte[] NO_HOST = new byte[0];

  ProcessState get(byte[] b, int hs, int he, long pid, boolean glued) {
    int h = hash(b, hs, he, pid);
    int mask = states.length - 1;
    int i = h & mask;
    while (states[i] != null) {
      if (pids[i] == pid && equal(hosts[i], b, hs, he)) {
        return states[i];
      }
      i = (i + 1) & mask;
    }
    byte[] host = hs < 0 ? NO_HOST : java.util.Arrays.copyOfRange(b, hs, he);
    String name = hs < 0 ? null : new String(host, StandardCharsets.UTF_8);
    ProcessState s = new ProcessState(name, pid, glued, evidence(name));
    hosts[i] = host;
    pids[i] = pid;
    states[i] = s;
    inOrder.add(s);
    if (inOrder.size() * 2 > states.length) {
      grow();
    }
    return s;
  }

  /** The evidence lists of a host (null: lines without a host prefix). */
  HostEvidence evidence(String host) {
    return hostEvidence.computeIfAbsent(host == null ? "" : host, k -> new HostEvidence());
  }

  java.util.Map<String, HostEvidence> hosts() {
    return hostEvidence;
  }

  List<ProcessState> all() {
    return inOrder;
  }

  private void grow() {
    byte[][] oh = hosts;
    long[] op = pids;
    ProcessState[] os = states;
    hosts = new byte[os.length * 2][];
    pids = new long[os.length * 2];
    states = new ProcessState[os.length * 2];
    int mask = states.length - 1;
    for (int j = 0; j < os.length; j++) {
      if (os[j] == null) {
        continue;
      }
      int i = hash(oh[j], 0, oh[j].length, op[j]) & mask;
      while (states[i] != null) {
        i = (i + 1) & mask;
      }
      hosts[i] = oh[j];
      pids[i] = op[j];
      states[i] = os[j];
    }
  }

  private static int hash(byte[] b, int hs, int he, long pid) {
    int h = (int) (pid * 0x9E3779B9L);
    for (int i = hs; i < he; i++) {
      h = h * 31 + b[i];
    }
    return h ^ (h >>> 16);
  }

  private static boolean equal(byte[] host, byte[] b, int hs, int he) {
    if (hs < 0) {
      return host.length == 0;
    }
    return host.length == he - hs && Bytes.equal(b, hs, host, host.length);
  }
}
