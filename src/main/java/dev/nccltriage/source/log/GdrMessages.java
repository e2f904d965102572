package dev.nccltriage.source.log;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL's GPUDirect RDMA decision lines (spec §4.4, §8.1): per HCA (2.7-2.12 "(no module)", 2.13+
 * "NET/<name> : ... for HCA"), per GPU/HCA pair ("distance d > t"), and the IBext plugin's. Kept
 * by reason for the facts and by host and HCA (or pair) for "none" or "some".
 */
final class GdrMessages {
  private static final Pattern GDR_NO_MODULE =
      Pattern.compile("GPU Direct RDMA Disabled for HCA \\d+ '[^']*' \\(no module\\)");
  private static final Pattern GDR_NIC =
      Pattern.compile("^NET/(.+?) ?: GPU Direct RDMA (Enabled|Disabled) for HCA \\d+ '[^']*'$");
  private static final Pattern GDR_HCA_KEY = Pattern.compile("for HCA \\d+ '([^']*)");
  private static final Pattern GDR_PAIR_KEY = Pattern.compile("RDMA (?:Enabled|Disabled) for (.*?)[(,] ?distance");
  private static final Pattern GDR_DISTANCE =
      Pattern.compile("GPU Direct RDMA (Enabled|Disabled) for .*?[(,] ?distance (\\d+) (<=|>=|>|<) (\\d+)");
  private static final Pattern GDR_PLUGIN =
      Pattern.compile("GPU Direct RDMA \\((?:nvidia-peermem|DMABUF)\\) enabled for HCA");

  private final LogAccumulator acc;
  private final EvidenceSlot slot;

  GdrMessages(LogAccumulator acc, EvidenceSlot slot) {
    this.acc = acc;
    this.slot = slot;
  }

  /** A GPUDirect RDMA decision; per-HCA and per-pair keys are per host (nodes decide apart). */
  boolean parse(ProcessState p, String msg) {
    String host = p.host == null ? "" : p.host + "/";
    Matcher hca = GDR_HCA_KEY.matcher(msg);
    String key = hca.find() ? host + hca.group(1) : null;
    if (GDR_NO_MODULE.matcher(msg).find()) {
      slot.record(acc.gdr(false, "no-module", null, null).evidence);
      acc.seeGdr(acc.gdrHcas, key, false);
      return true;
    }
    Matcher m = GDR_DISTANCE.matcher(msg);
    if (m.find()) {
      boolean enabled = m.group(1).equals("Enabled");
      slot.record(acc.gdr(enabled, enabled ? "enabled" : "distance",
          Bytes.intOrNull(m.group(2)), Bytes.intOrNull(m.group(4))).evidence);
      Matcher pair = GDR_PAIR_KEY.matcher(msg);
      String text = pair.find() ? pair.group(1).strip() : msg;
      // "GPU 7000 / HCA 0", 2.29 "GPU/0-7000 (rank 0) - NET/0-1": the GPU before the separator
      int cut = text.indexOf(" / ");
      cut = cut >= 0 ? cut : text.indexOf(" - ");
      acc.seeGdr(acc.gdrPairs, host + (cut >= 0 ? text.substring(0, cut) : text) + "|" + text, enabled);
      return true;
    }
    if ((m = GDR_NIC.matcher(msg)).find()) {
      if (Boolean.FALSE.equals(dev.nccltriage.facts.NetworkKind.rdma(m.group(1).strip()))) {
        return true; // "NET/Socket : ... for HCA 0 'eth0'": the socket transport's, nothing about RDMA
      }
      boolean enabled = m.group(2).equals("Enabled");
      slot.record(acc.gdr(enabled, enabled ? "enabled" : "nic", null, null).evidence);
      acc.seeGdr(acc.gdrHcas, key, enabled);
      return true;
    }
    if (GDR_PLUGIN.matcher(msg).find()) {
      slot.record(acc.gdr(true, "enabled", null, null).evidence);
      acc.seeGdr(acc.gdrHcas, key, true);
      return true;
    }
    return false;
  }
}
