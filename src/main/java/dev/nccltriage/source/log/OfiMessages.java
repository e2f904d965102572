package dev.nccltriage.source.log;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * aws-ofi-nccl's "NET/OFI ..." lines: the libfabric provider it selected (tcp instead of efa means
 * the container has no EFA device), GPUDirect RDMA it turned off itself, and its failures.
 */
final class OfiMessages {
  private static final Pattern OFI_PROVIDER = Pattern.compile("^NET/OFI Selected [Pp]rovider is ([^\\s,]+)");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final ErrorMessages errors;

  OfiMessages(LogAccumulator acc, EvidenceSlot slot, ErrorMessages errors) {
    this.acc = acc;
    this.slot = slot;
    this.errors = errors;
  }

  /** aws-ofi-nccl's own lines: the provider it picked, GDR it turned off, its failures. */
  boolean parse(ProcessState p, String msg) {
    p.ofiSeen = true;
    Matcher m = OFI_PROVIDER.matcher(msg);
    if (m.find()) {
      if (p.ofiProvider == null) {
        p.ofiProvider = m.group(1);
      }
      slot.record(acc.ofiProvider.computeIfAbsent(m.group(1), k -> new dev.nccltriage.evidence.EvidenceList()));
      return true;
    }
    if (msg.contains("disabling GDR") || msg.contains("GDR disabled")) {
      slot.record(acc.gdr(false, "plugin", null, null).evidence);
      return true;
    }
    return errors.ofi(p, msg);
  }
}
