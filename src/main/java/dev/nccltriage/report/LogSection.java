package dev.nccltriage.report;

import dev.nccltriage.facts.ChannelStats;
import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.GdrDecision;
import dev.nccltriage.facts.Hca;
import dev.nccltriage.facts.Iface;
import dev.nccltriage.facts.LeftOut;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NodeFacts;
import java.util.List;
import java.util.Map;

/** The "log" part of the report: what the NCCL log established, in the JSON field names. */
public record LogSection(
    long ncclLines,
    List<String> ncclVersions,
    boolean failed,
    long warnings,
    Integer ranks,
    Integer nodes,
    String nodesFrom,
    Boolean singleNode,
    Integer localGpus,
    String transport,
    Boolean rdma,
    Map<String, Integer> transportNodes,
    String gdr,
    ChannelStats netChannels,
    long localChannels,
    List<Hca> hcas,
    Integer hcaPorts,
    boolean relaxedOrdering,
    Iface oob,
    List<String> oobInterfaces,
    Iface bootstrap,
    List<Iface> socketInterfaces,
    List<GdrDecision> gdrDecisions,
    Boolean dmabufAvailable,
    Map<String, String> env,
    Map<String, List<String>> envConflicts,
    List<ErrorSignature> errors,
    List<String> netPlugins,
    List<NodeFacts> byNode,
    LeftOut leftOut) {

  public static LogSection of(LogFacts f) {
    List<NodeFacts> nodes = f.nodeDetails();
    return new LogSection(f.ncclLines(), f.ncclVersions(), f.signals().failed(), f.signals().warnings(), f.ranks(), f.nodes(), f.nodesFrom(), f.singleNode(),
        f.localGpus(), f.transport(), f.rdma(), f.transportNodes(), f.gdr(), f.netChannels(), f.localChannels(),
        f.hcas(), f.hcaPorts(), f.relaxedOrdering(), f.oob(), f.oobInterfaces(), f.bootstrap(),
        f.socketInterfaces(), f.gdrDecisions(), f.dmabufAvailable() ? Boolean.TRUE : null, f.env(),
        f.envConflicts(), f.errors(), f.netPlugins(),
        nodes.size() > LogFacts.NODES_LISTED ? nodes.subList(0, LogFacts.NODES_LISTED) : nodes, f.leftOut());
  }
}
