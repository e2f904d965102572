package dev.nccltriage.cli;

import dev.nccltriage.facts.Expectations;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options shared by check, preflight and capture: where to look, how long to wait, what to expect. */
final class LadderOptions {
  @Option(names = "--root", paramLabel = "DIR", description = "Read the host through DIR (a capture folder) instead of /; commands are answered from the capture.")
  Path root;

  @Option(names = "--capture", paramLabel = "FILE.tar.gz|DIR", description = "Replay a capture (archive or folder) made by `nccl-triage capture`.")
  Path capture;

  @Option(names = "--timeout", paramLabel = "SECONDS", description = "Timeout for each external command (default ${DEFAULT-VALUE}); all of them together get twice"
      + " that. A command past it is killed with everything it started.")
  int timeout = 5;

  @Option(names = "--pid", paramLabel = "PID", description = "Judge memlock, capabilities and NCCL_* of the training process PID instead of this one.")
  Long pid;

  @Option(names = "--expect-hcas", paramLabel = "N", description = "HCA ports the Pod should have.")
  Integer expectHcas;

  @Option(names = "--expect-iface", paramLabel = "NAME", description = "Interface (e.g. net1) that must exist with an address.")
  String expectIface;

  @Option(names = "--expect-gdr", description = "GPUDirect RDMA must be possible.")
  Boolean expectGdr;

  @Option(names = "--min-memlock", paramLabel = "SIZE", description = "Minimum locked-memory limit (e.g. 1G, unlimited) unless CAP_IPC_LOCK.")
  String minMemlock;

  @Option(names = "--expectations", paramLabel = "FILE", description = "YAML with hcas, iface, gdr, minMemlock; flags win over it.")
  Path expectations;

  @Mixin CommonOptions common;

  Expectations expectations(Context ctx) {
    if (timeout < 1) {
      throw new NcclTriage.UsageError("--timeout must be at least 1 second");
    }
    if (expectHcas != null && expectHcas < 1) {
      throw new NcclTriage.UsageError("--expect-hcas must be at least 1");
    }
    Long mem;
    try {
      mem = minMemlock == null ? null : Expectations.parseSize(minMemlock);
    } catch (IllegalArgumentException e) {
      throw new NcclTriage.UsageError("--min-memlock: " + e.getMessage());
    }
    Expectations flags = new Expectations(expectHcas, expectIface, expectGdr, mem);
    return expectations == null ? flags : flags.over(ExpectationsFile.read(ctx.cwd().resolve(expectations)));
  }
}
