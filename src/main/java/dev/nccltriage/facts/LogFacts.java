package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.List;
import java.util.Map;

/**
 * Everything the NCCL log of one job established, with the lines that established it. Values are
 * null where the log does not say.
 */
public record LogFacts(
    List<InputStats> inputs,
    long ncclLines,
    List<String> ncclVersions,
    Integer ranks,
    int processes,
    Integer nodes,
    String nodesFrom,
    Boolean singleNode,
    Integer localGpus,
    String transport,
    Boolean rdma,
    Map<String, Integer> transportNodes,
    List<Hca> hcas,
    Integer hcaPorts,
    Integer hcaPortsMin,
    boolean relaxedOrdering,
    List<String> linkLayers,
    Iface oob,
    List<String> oobInterfaces,
    Iface bootstrap,
    List<Iface> socketInterfaces,
    ChannelStats netChannels,
    long localChannels,
    String gdr,
    Integer ringsGdr,
    boolean dmabufAvailable,
    List<GdrDecision> gdrDecisions,
    Map<String, String> env,
    Map<String, List<String>> envConflicts,
    List<ErrorSignature> errors,
    List<String> netPlugins,
    boolean ibNoDevice,
    boolean ibLogged,
    List<NodeFacts> nodeDetails,
    List<Difference> differs,
    LogSignals signals,
    Map<String, List<Evidence>> evidence,
    LeftOut leftOut) {
  /** Per-node entries a report lists; {@link #leftOut} says how many nodes there were. */
  public static final int NODES_LISTED = 64;

  public List<Evidence> evidenceFor(String key) {
    return evidence.getOrDefault(key, List.of());
  }
}
