package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.List;

/**
 * A GPUDirect RDMA decision NCCL logged. {@code reason} is {@code no-module} (the NIC side found no
 * peer-memory module), {@code nic} (the NIC advertises no GDR support), {@code distance} (the
 * GPU-NIC path is longer than the allowed level), {@code plugin} (the net plugin turned it off) or
 * {@code enabled}.
 */
public record GdrDecision(
    boolean enabled,
    String reason,
    Integer distance,
    Integer threshold,
    long count,
    List<Evidence> evidence) {}
