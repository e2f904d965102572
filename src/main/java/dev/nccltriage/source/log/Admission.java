package dev.nccltriage.source.log;

import dev.nccltriage.facts.NetworkKind;
import java.util.Arrays;

/**
 * The lines of a host outside the sample count without a host, so the one node on sockets among
 * thousands on IB would vanish into them (and its socket channels, counted with the others' GDR
 * ones, would blame the wrong layer). Such a line is parsed into a state of its own first; if it
 * shows something wrong, as NCCL prints it by design (a WARN, an error signature, a failure, IB
 * without a device or without libibverbs, a failed net plugin, a non-RDMA network, socket
 * interfaces, a network channel without /GDRDMA), the host is admitted to the table and the line
 * is its own; otherwise it joins the no-host state as before.
 */
final class Admission {
  private final LogAccumulator acc;
  private final EvidenceSlot line;
  private ProcessState probe;
  private ProcessState folded;
  private long warnings;
  private long failures;
  private long errors;

  Admission(LogAccumulator acc, EvidenceSlot line) {
    this.acc = acc;
    this.line = line;
  }

  /** The state to parse a line of host b[hs, he) into, whose lines count in {@code folded}. */
  ProcessState begin(ProcessState folded, byte[] b, int hs, int he, long pid, boolean glued) {
    byte[] name = Arrays.copyOfRange(b, hs, he);
    this.folded = folded;
    // no evidence budget: the host's or the no-host state's applies when the line is settled
    probe = new ProcessState(pid, glued, new HostEvidence(Bytes.text(name, 0, name.length), name, null));
    warnings = acc.warnings.count();
    failures = acc.failures.count();
    errors = acc.errorLines;
    return probe;
  }

  /** Settles the line parsed since {@link #begin}: into the admitted host, else the no-host state. */
  void end() {
    if (probe == null) {
      return;
    }
    ProcessState p = probe;
    probe = null;
    boolean wrong = acc.warnings.count() > warnings || acc.failures.count() > failures || acc.errorLines > errors
        || showsFallback(p);
    byte[] name = p.evidence.bytes;
    ProcessState into = wrong ? acc.processes.admit(name, 0, name.length, p.pid, p.hostOnlyAfterOtherBytes) : null;
    if (into == null) {
      into = folded;
    }
    into.merge(p);
    into.evidence.settle(p.evidence, line);
  }

  /**
   * Whether a process's lines showed something wrong: a host outside the sample with such a
   * process is admitted whenever the sample is drawn (a line of it before the sample shrank, or
   * in another part of the file, counts as one after).
   */
  static boolean showsWrong(ProcessState p) {
    return p.wrongLine || showsFallback(p);
  }

  /** What one line put in a fresh state that NCCL prints only when it did not get the fast path. */
  static boolean showsFallback(ProcessState p) {
    if (p.ibNoDeviceSeen || p.hcaListEmpty || p.ibFailed || p.noVerbs || p.ofiFailed || p.ibRuntimeError
        || p.socketListed || p.socketIfaces != null) {
      return true;
    }
    if (notRdma(p.network) || notRdma(p.nicDistanceNet) || notRdma(p.gdrHcaNet)
        || Boolean.FALSE.equals(NetworkKind.providerRdma(p.ofiProvider))) {
      return true;
    }
    for (ChannelCounter c = p.firstNetChannel(); c != null; c = c.next) {
      if (notRdma(c.network) || c.sendGdr + c.receiveGdr < c.total()) {
        return true;
      }
    }
    return false;
  }

  private static boolean notRdma(String network) {
    return Boolean.FALSE.equals(NetworkKind.rdma(network));
  }
}
