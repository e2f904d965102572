package dev.nccltriage.source.log;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL's GPUDirect RDMA decision lines (spec §4.4, §8.1): per HCA (2.7-2.12 "(no module)", 2.13+
 * "NET/<name> : ... for HCA"), per GPU/HCA pair ("distance d > t"), and the IBext plugin's. Kept
 * by reason for the facts and by host and HCA (or pair) for "none" or "some".
 */
final class GdrMessages {
  // Gaps between literal parts are bounded ({0,256}): NCCL prints a few words there, and an
  // unbounded one is scanned to the end of the text from every occurrence of the literal before
  // it (quadratic in a hostile line that repeats it).
  private static final Pattern GDR_NO_MODULE =
      Pattern.compile("GPU Direct RDMA Disabled for HCA \\d+ '[^']{0,256}' \\(no module\\)");
  private static final Pattern GDR_NIC =
      Pattern.compile("^NET/(.+?) ?: GPU Direct RDMA (Enabled|Disabled) for HCA \\d+ '[^']*'$");
  private static final Pattern GDR_HCA_KEY = Pattern.compile("for HCA \\d+ '([^']*)");
  private static final Pattern GDR_PAIR_KEY = Pattern.compile("RDMA (?:Enabled|Disabled) for (.{0,256}?)[(,] ?distance");
  private static final Pattern GDR_DISTANCE =
      Pattern.compile("GPU Direct RDMA (Enabled|Disabled) for .{0,256}?[(,] ?distance (\\d+) (<=|>=|>|<) (\\d+)");
  private static final Pattern GDR_PLUGIN =
      Pattern.compile("GPU Direct RDMA \\((?:nvidia-peermem|DMABUF)\\) enabled for HCA");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;

  GdrMessages(LogAccumulator acc, EvidenceSlot slot) {
    this.acc = acc;
    this.slot = slot;
  }

  private static final int NONE = 0;
  private static final int NO_MODULE = 1;
  private static final int DISTANCE = 2;
  private static final int SOCKET = 3;
  private static final int NIC = 4;
  private static final int PLUGIN = 5;
  private static final int MEMO = 4096;

  /** What a decision line says, from its text alone; the host is added per line. */
  private static final class Decision {
    final int kind;
    final String hca;
    final boolean enabled;
    final Integer distance;
    final Integer threshold;
    final String pair;
    LogAccumulator.GdrAcc counted; // the entry of this parser's accumulator, once looked up

    Decision(int kind, String hca, boolean enabled, Integer distance, Integer threshold, String pair) {
      this.kind = kind;
      this.hca = hca;
      this.enabled = enabled;
      this.distance = distance;
      this.threshold = threshold;
      this.pair = pair;
    }

    LogAccumulator.GdrAcc in(LogAccumulator acc, String reason) {
      if (counted == null) {
        counted = acc.gdr(enabled, reason, distance, threshold);
      }
      return counted;
    }
  }

  private final TextMemo<Decision> seen = new TextMemo<>(MEMO, GdrMessages::decide);

  /**
   * A GPUDirect RDMA decision; per-HCA and per-pair keys are per host (nodes decide apart).
   * {@code msg} is the text kept in {@code kept} at {@code at}.
   */
  boolean parse(ProcessState p, MessageTexts kept, int at, String msg) {
    // every process prints its HCAs' lines: the expressions run once per text
    Decision d = seen.get(kept, at, msg);
    // a decision is a function of the text, its key of the host and the text: a host's repeat
    // of a text changes nothing in the per-host maps (seeGdr is idempotent), only the counts
    boolean fresh = d.kind != NONE && d.kind != SOCKET && p.evidence.firstDecision(d);
    String host = !fresh ? null : p.host == null ? "" : p.host + "/";
    String key = d.hca == null || !fresh ? null : host + d.hca;
    switch (d.kind) {
      case NO_MODULE -> {
        slot.record(d.in(acc, "no-module").evidence);
        acc.seeGdr(acc.gdrHcas, key, false);
        return true;
      }
      case DISTANCE -> {
        slot.record(d.in(acc, d.enabled ? "enabled" : "distance").evidence);
        if (fresh) {
          acc.seeGdr(acc.gdrPairs, host + d.pair, d.enabled);
        }
        return true;
      }
      case SOCKET -> {
        return true;
      }
      case NIC -> {
        slot.record(d.in(acc, d.enabled ? "enabled" : "nic").evidence);
        acc.seeGdr(acc.gdrHcas, key, d.enabled);
        return true;
      }
      case PLUGIN -> {
        slot.record(d.in(acc, "enabled").evidence);
        acc.seeGdr(acc.gdrHcas, key, true);
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  private static Decision decide(String msg) {
    Matcher hca = GDR_HCA_KEY.matcher(msg);
    String hcaName = hca.find() ? hca.group(1) : null;
    if (GDR_NO_MODULE.matcher(msg).find()) {
      return new Decision(NO_MODULE, hcaName, false, null, null, null);
    }
    Matcher m = GDR_DISTANCE.matcher(msg);
    if (m.find()) {
      boolean enabled = m.group(1).equals("Enabled");
      Matcher pair = GDR_PAIR_KEY.matcher(msg);
      String text = pair.find() ? pair.group(1).strip() : msg;
      // "GPU 7000 / HCA 0", 2.29 "GPU/0-7000 (rank 0) - NET/0-1": the GPU before the separator
      int cut = text.indexOf(" / ");
      cut = cut >= 0 ? cut : text.indexOf(" - ");
      return new Decision(DISTANCE, hcaName, enabled, Bytes.intOrNull(m.group(2)), Bytes.intOrNull(m.group(4)),
          (cut >= 0 ? text.substring(0, cut) : text) + "|" + text);
    }
    if ((m = GDR_NIC.matcher(msg)).find()) {
      if (Boolean.FALSE.equals(dev.nccltriage.facts.NetworkKind.rdma(m.group(1).strip()))) {
        // "NET/Socket : ... for HCA 0 'eth0'": the socket transport's, nothing about RDMA
        return new Decision(SOCKET, hcaName, false, null, null, null);
      }
      return new Decision(NIC, hcaName, m.group(2).equals("Enabled"), null, null, null);
    }
    if (GDR_PLUGIN.matcher(msg).find()) {
      return new Decision(PLUGIN, hcaName, true, null, null, null);
    }
    return new Decision(NONE, hcaName, false, null, null, null);
  }
}
