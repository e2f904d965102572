package dev.nccltriage.source.probe;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CaptureLayout;
import dev.nccltriage.host.FileRead;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.source.probe.parse.ProcLimits;
import dev.nccltriage.source.probe.parse.ProcStatus;
import java.util.Map;
import java.util.TreeMap;

/**
 * Step 5 and the environment: memlock and CAP_IPC_LOCK of the process that registers memory (this
 * one, or the training process given by --pid), its NCCL_* variables and its LD_LIBRARY_PATH
 * (where the loader looks first for libibverbs).
 */
final class ProcessProbe {
  private final HostRoot root;
  private final EvidenceBook book;
  private final String proc;

  ProcessProbe(HostRoot root, EvidenceBook book, Long pid) {
    this.root = root;
    this.book = book;
    this.proc = pid == null ? "/proc/self" : "/proc/" + pid;
  }

  PodFacts.Memlock memlock() {
    FileRead limits = root.read(proc + "/limits");
    FileRead status = root.read(proc + "/status");
    if (!limits.ok() && !status.ok()) {
      return new PodFacts.Memlock(limits.status().equals("missing") ? "missing" : "error", proc, null, null);
    }
    Long soft = null;
    if (limits.ok()) {
      ProcLimits.Result r = ProcLimits.parse(limits.text());
      soft = r.memlockSoftBytes();
      if (r.memlock() != null) {
        book.add("pod.memlockBytes", proc + "/limits", "Max locked memory soft "
            + (soft == null ? "?" : soft == ProcLimits.UNLIMITED ? "unlimited" : soft + " bytes"));
      }
    }
    Boolean ipcLock = null;
    if (status.ok()) {
      ProcStatus.Result r = ProcStatus.parse(status.text());
      ipcLock = r.effectiveIpcLock();
      if (r.capEff() != null) {
        book.add("pod.ipcLock", proc + "/status", String.format("CapEff %016x: CAP_IPC_LOCK (bit 14) %s",
            r.capEff(), ipcLock ? "set" : "not set"));
      }
    }
    return new PodFacts.Memlock("ok", proc, soft, ipcLock);
  }

  static final String LIBRARY_PATH = "LD_LIBRARY_PATH";

  /**
   * NCCL_* and LD_LIBRARY_PATH of the training process: /proc/PID/environ with --pid, else this
   * process's own environment on a live host, else the capture's recorded env file.
   */
  Map<String, String> env(Map<String, String> ownEnv, Long pid) {
    Map<String, String> out = new TreeMap<>();
    if (!root.live()) {
      FileRead f = root.read("/" + CaptureLayout.ENV);
      if (f.ok()) {
        f.text().lines().forEach(l -> put(out, l));
      }
    } else if (pid != null) {
      FileRead f = root.read(proc + "/environ");
      if (f.ok()) {
        for (String kv : f.text().split("\u0000")) {
          put(out, kv);
        }
      }
    } else {
      ownEnv.forEach((k, v) -> {
        if (kept(k)) {
          out.put(k, v);
        }
      });
    }
    String from = pid != null && root.live() ? proc + "/environ" : "environment";
    out.forEach((k, v) -> book.add(k.equals(LIBRARY_PATH) ? "pod.libibverbs" : "env." + k, from, k + "=" + v));
    return out;
  }

  private static boolean kept(String name) {
    return name.startsWith("NCCL_") || name.equals(LIBRARY_PATH);
  }

  private static void put(Map<String, String> out, String kv) {
    int eq = kv.indexOf('=');
    if (eq > 0 && kept(kv.substring(0, eq))) {
      out.put(kv.substring(0, eq), kv.substring(eq + 1).strip());
    }
  }
}
