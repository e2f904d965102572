package dev.nccltriage.cli;

import dev.nccltriage.facts.Expectations;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/** Options shared by check and preflight: where to look, how long to wait, what to expect. */
final class LadderOptions {
  Path root;
  Path capture;
  int timeout = 5;
  Long pid;
  Integer expectHcas;
  String expectIface;
  Boolean expectGdr;
  String minMemlock;
  Path expectations;
  final CommonOptions common = new CommonOptions();

  /** Adds these options, and the common ones, to a command's model. */
  CommandSpec addTo(CommandSpec spec) {
    spec.addOption(Specs.option(Path.class, root, v -> root = v, "--root").paramLabel("DIR")
        .description("Read the host through DIR (a capture folder) instead of /; commands are answered from the capture.")
        .build());
    spec.addOption(Specs.option(Path.class, capture, v -> capture = v, "--capture").paramLabel("FILE.tar.gz|DIR")
        .description("Replay a capture (archive or folder) made by `nccl-triage capture`.").build());
    spec.addOption(Specs.timeout(timeout, v -> timeout = v));
    spec.addOption(Specs.option(Long.class, pid, v -> pid = v, "--pid").paramLabel("PID")
        .description("Judge memlock, capabilities and NCCL_* of the training process PID instead of this one.").build());
    spec.addOption(Specs.option(Integer.class, expectHcas, v -> expectHcas = v, "--expect-hcas").paramLabel("N")
        .description("HCA ports the Pod should have.").build());
    spec.addOption(Specs.option(String.class, expectIface, v -> expectIface = v, "--expect-iface").paramLabel("NAME")
        .description("Interface (e.g. net1) that must exist with an address.").build());
    spec.addOption(Specs.option(Boolean.class, expectGdr, v -> expectGdr = v, "--expect-gdr")
        .description("GPUDirect RDMA must be possible.").build());
    spec.addOption(Specs.option(String.class, minMemlock, v -> minMemlock = v, "--min-memlock").paramLabel("SIZE")
        .description("Minimum locked-memory limit (e.g. 1G, unlimited) unless CAP_IPC_LOCK.").build());
    spec.addOption(Specs.option(Path.class, expectations, v -> expectations = v, "--expectations").paramLabel("FILE")
        .description("YAML with hcas, iface, gdr, minMemlock; flags win over it.").build());
    return common.addTo(spec);
  }

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
