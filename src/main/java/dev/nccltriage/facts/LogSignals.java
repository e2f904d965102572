package dev.nccltriage.facts;

import java.util.List;

/**
 * What the log says about the job beyond the four questions. {@code failed}: a WARN that is not a
 * recoverable probe, an error unwind, a crash, a failed collective, an uncaught exception or a
 * launcher's report of a rank's end; {@code initLogged}: a process's
 * network init is in the log (Bootstrap, NET/Plugin, NET/Socket or NET/IB lines, its version); {@code kubernetes},
 * {@code container} (a Pod, or docker's container-id host names) and {@code rdmaSeen} are true or null (nothing shown is not "no"); {@code gdrLogged}: GPUDirect RDMA
 * as NCCL's own decision lines tell it (none, some; null when they do not say); {@code
 * ofiProviders}: libfabric providers aws-ofi-nccl selected; {@code sharedBootstrapAddress}: an address
 * several hosts bootstrapped on (a container bridge's, unreachable between nodes); {@code frameworkVersion}: the NCCL
 * version a framework printed, when NCCL's own line is absent.
 */
public record LogSignals(
    boolean failed,
    boolean initLogged,
    long warnings,
    Boolean kubernetes,
    Boolean container,
    Boolean rdmaSeen,
    boolean linkLocal,
    boolean loopback,
    String sharedBootstrapAddress,
    String gdrLogged,
    List<String> ofiProviders,
    String frameworkVersion,
    boolean versionsDiffer) {}
