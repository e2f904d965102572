package dev.nccltriage.source.probe;

import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.BuiltinRunner;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.CommandRunner;
import dev.nccltriage.host.DaemonThreads;
import dev.nccltriage.host.HostRoot;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Runs the ladder's probes against one root: the external commands start together (each bounded
 * by the runner's timeout), the file reads run meanwhile, and the results meet in {@link PodFacts}.
 * A probe that fails gives a status, never an exception.
 */
public final class LadderSource {
  static final List<String> IBV_DEVINFO = List.of("ibv_devinfo");
  static final List<String> RDMA_LINK_JSON = List.of("rdma", "-j", "link", "show");
  static final List<String> RDMA_LINK = List.of("rdma", "link", "show");
  static final List<String> RDMA_SYSTEM_JSON = List.of("rdma", "-j", "system", "show");
  static final List<String> RDMA_SYSTEM = List.of("rdma", "system", "show");
  static final List<String> IP_JSON = List.of("ip", "-j", "addr", "show");
  static final List<String> IP = List.of("ip", "addr", "show");
  static final List<String> TOPO = List.of("nvidia-smi", "topo", "-m");
  static final List<String> LDCONFIG = List.of("ldconfig", "-p");

  private final HostRoot root;
  private final CommandRunner runner;
  private final Map<String, String> ownEnv;
  private final Long pid;

  public LadderSource(HostRoot root, CommandRunner runner, Map<String, String> ownEnv, Long pid) {
    this.root = root;
    this.runner = runner;
    this.ownEnv = ownEnv;
    this.pid = pid;
  }

  public PodFacts probe() {
    DaemonThreads threads = new DaemonThreads("probe");
    ExecutorService pool = Executors.newFixedThreadPool(8, threads);
    try {
      CompletableFuture<CommandResult> devinfo = run(pool, IBV_DEVINFO);
      CompletableFuture<CommandResult> linkJson = run(pool, RDMA_LINK_JSON);
      CompletableFuture<CommandResult> sysJson = run(pool, RDMA_SYSTEM_JSON);
      CompletableFuture<CommandResult> ipJson = run(pool, IP_JSON);
      CompletableFuture<CommandResult> topo = run(pool, TOPO);
      CompletableFuture<CommandResult> ldconfig = run(pool, LDCONFIG);
      // show_gids (an MLNX_OFED bash script) prints only the sysfs files GidProbe reads, so a host
      // never runs it; a capture that holds its output (a support bundle, a hand-made capture)
      // stands in for the ports whose sysfs table it lacks
      CompletableFuture<CommandResult> showGids = root.live()
          ? CompletableFuture.completedFuture(CommandResult.missing(GidProbe.SHOW_GIDS)) : run(pool, GidProbe.SHOW_GIDS);
      CompletableFuture<CommandResult> ipText = textFormOf(pool, ipJson, IP);
      CompletableFuture<CommandResult> linkText = textFormOf(pool, linkJson, RDMA_LINK);
      CompletableFuture<CommandResult> sysText = textFormOf(pool, sysJson, RDMA_SYSTEM);
      EvidenceBook book = new EvidenceBook();
      PodFacts.Devices devices = new DeviceProbe(root, book).probe();
      ProcessProbe process = new ProcessProbe(root, book, pid);
      PodFacts.Memlock memlock = process.memlock();
      Map<String, String> env = new java.util.TreeMap<>(process.env(ownEnv, pid));
      String libraryPath = env.remove(ProcessProbe.LIBRARY_PATH);
      PodFacts.Hcas hcas = new HcaProbe(root, book).probe(devices, threads.join(devinfo));
      NetworkProbe net = new NetworkProbe(root, book);
      CommandResult ip = threads.join(ipJson);
      PodFacts.Interfaces ifs = net.interfaces(ip, fallback(threads, IP, ip, ipText),
          () -> runner.run(BuiltinRunner.INTERFACES));
      CommandResult link = threads.join(linkJson);
      CommandResult sys = threads.join(sysJson);
      PodFacts.Rdma rdma = net.rdma(link, fallback(threads, RDMA_LINK, link, linkText), sys,
          fallback(threads, RDMA_SYSTEM, sys, sysText), hcas, ifs);
      PodFacts.GpuDirect gpu = new GpuDirectProbe(root, book).probe(threads.join(topo), hcas);
      PodFacts.Verbs verbs = new VerbsProbe(root, book).probe(threads.join(ldconfig), hcas, libraryPath);
      PodFacts.Gids gids = new GidProbe(root, book).probe(hcas, threads.join(showGids));
      return new PodFacts(devices, hcas, rdma, ifs, memlock, gpu, verbs, gids, env, pid == null ? "this process" : "pid " + pid,
          book.snapshot());
    } finally {
      pool.shutdownNow();
    }
  }

  private CompletableFuture<CommandResult> run(ExecutorService pool, List<String> argv) {
    return CompletableFuture.supplyAsync(() -> runner.run(argv), pool);
  }

  /**
   * The plain-text form, asked only when the JSON form is unusable (an old iproute2 rejects -j);
   * a missing tool or a timeout would only repeat, so those answers stand. A failed JSON form
   * starts its text form at once, beside the other probes: one after another, three hanging text
   * forms would cost three timeouts.
   */
  private CompletableFuture<CommandResult> textFormOf(ExecutorService pool, CompletableFuture<CommandResult> json,
      List<String> argv) {
    return json.thenComposeAsync(
        j -> j.ok() || repeats(j) ? CompletableFuture.completedFuture(null) : run(pool, argv), pool);
  }

  private Supplier<CommandResult> fallback(DaemonThreads threads, List<String> argv, CommandResult json,
      CompletableFuture<CommandResult> started) {
    return () -> {
      CommandResult text = threads.join(started);
      return text != null ? text : repeats(json) ? json : runner.run(argv);
    };
  }

  private static boolean repeats(CommandResult json) {
    return json.status().equals("missing") || json.status().equals("timeout");
  }
}
