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

  private static final String GDR_OFF = new String("gdr off"); // compared by identity
  private static final String OTHER = new String("other");
  private final TextMemo<String> seen = new TextMemo<>(4096, OfiMessages::said);
  // the accumulator's entry for it, once looked up (each lookup builds its key): every process
  // repeats the line
  private LogAccumulator.GdrAcc pluginGdrOff;

  /**
   * aws-ofi-nccl's own lines: the provider it picked, GDR it turned off, its failures. {@code msg}
   * is the text kept in {@code kept} at {@code at}.
   */
  boolean parse(ProcessState p, MessageTexts kept, int at, String msg) {
    p.ofiSeen = true;
    // every process prints the same lines: what a text says is worked out once
    String said = seen.get(kept, at, msg);
    if (said == GDR_OFF) {
      if (pluginGdrOff == null) {
        pluginGdrOff = acc.gdr(false, "plugin", null, null);
      }
      slot.record(pluginGdrOff.evidence);
      return true;
    }
    if (said != OTHER) {
      if (p.ofiProvider == null) {
        p.ofiProvider = said;
      }
      slot.record(acc.ofiProvider(said));
      return true;
    }
    return errors.ofi(p, msg);
  }

  /** The provider a text names, GDR_OFF, or OTHER. */
  private static String said(String msg) {
    Matcher m = OFI_PROVIDER.matcher(msg);
    return m.lookingAt() ? m.group(1) : msg.contains("disabling GDR") || msg.contains("GDR disabled") ? GDR_OFF : OTHER;
  }
}
