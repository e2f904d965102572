package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A healthy job's log with a failing end, under every wrapper a collector, launcher or paste puts
 * before its lines, shows the failure: never a healthy-looking log for a job that failed. The ends
 * are what programs print by their formats (Python's traceback module, PyTorch's watchdog and
 * agent, libstdc++'s terminate handler, the launchers, the shells, glog), the wrappers are applied to
 * every line, as the tools apply them.
 */
class FailureTailsTest {
  private static final Map<String, List<String>> TAILS = new LinkedHashMap<>();

  static {
    TAILS.put("nccl error", List.of("Traceback (most recent call last):", "  File \"train.py\", line 88, in <module>",
        "    dist.all_reduce(t)",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, "
            + "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"));
    TAILS.put("watchdog", List.of("[rank3]:[E1201 10:00:00.123456 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught "
        + "collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600123 "
        + "milliseconds before timing out."));
    TAILS.put("terminate", List.of("terminate called without an active exception"));
    TAILS.put("segfault", List.of("Segmentation fault (core dumped)"));
    TAILS.put("torchrun", List.of("[0]:", "  exitcode  : -9 (pid: 1234)",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "));
    TAILS.put("srun", List.of("srun: error: node-1: tasks 0-7: Killed"));
    TAILS.put("slurmstepd", List.of("slurmstepd: error: *** JOB 1234 ON node-1 CANCELLED AT 2026-12-01T10:00:00 ***"));
    TAILS.put("mpirun", List.of("mpirun noticed that process rank 2 with PID 1234 on node node-1 exited on signal 9 (Killed)."));
    TAILS.put("open mpi", List.of("Primary job  terminated normally, but 1 process returned"));
    TAILS.put("hydra", List.of("=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES", "=   KILLED BY SIGNAL: 9 (Killed)"));
    TAILS.put("dash", List.of("Killed"));
    TAILS.put("dash, a bus error", List.of("Bus error"));
    TAILS.put("kubectl exec", List.of("command terminated with exit code 137"));
    TAILS.put("glog", List.of("F1201 10:00:00.123456  1234 logging.cc:42] Check failed: x == y (1 vs. 2)"));
    TAILS.put("gpu oom", List.of("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."));
    TAILS.put("plain traceback", List.of("Traceback (most recent call last):", "  File \"train.py\", line 3, in <module>",
        "    main()", "ValueError: bad config"));
  }

  private static final Map<String, UnaryOperator<String>> WRAPPERS = new LinkedHashMap<>();

  static {
    WRAPPERS.put("bare", l -> l);
    WRAPPERS.put("kubectl --prefix", l -> "[pod/trainer-0/pytorch] " + l);
    WRAPPERS.put("kubectl --timestamps", l -> "2026-12-01T10:00:00.123456789Z " + l);
    WRAPPERS.put("torchrun", l -> "[default0]:" + l);
    WRAPPERS.put("srun -l", l -> "0: " + l);
    WRAPPERS.put("syslog", l -> "Dec  1 10:00:00 node-1 python[123]: " + l);
    WRAPPERS.put("CRI", l -> "2026-12-01T10:00:00.123456789Z stdout F " + l);
    WRAPPERS.put("stern", l -> "trainer-worker-0 pytorch " + l);
    WRAPPERS.put("compose", l -> "trainer-1  | " + l);
    WRAPPERS.put("grep -H", l -> "logs/worker-0.log:" + l);
    WRAPPERS.put("pdsh", l -> "node-1: " + l);
    WRAPPERS.put("stern --timestamps",
        l -> "trainer-worker-0 pytorch 2026-12-01T10:00:00." + String.format("%09d", Math.floorMod(l.hashCode(), 1000000000)) + "Z " + l);
  }

  @Test
  void aFailingEndShowsUnderEveryWrapper() throws Exception {
    List<String> sample = Files.readAllLines(Logs.SAMPLES.resolve("01-healthy-ib-gdr-2.21.5.log"));
    WRAPPERS.forEach((wrapperName, wrap) -> {
      StringBuilder healthy = new StringBuilder();
      sample.forEach(l -> healthy.append(wrap.apply(l)).append('\n'));
      assertThat(shown(Logs.parse(healthy.toString()))).as(wrapperName + ": the healthy sample").isFalse();
      TAILS.forEach((tailName, tail) -> {
        StringBuilder log = new StringBuilder(healthy);
        tail.forEach(l -> log.append(wrap.apply(l)).append('\n'));
        assertThat(shown(Logs.parse(log.toString()))).as(wrapperName + ": " + tailName).isTrue();
      });
    });
  }

  /** A failure, or a traceback's exception (a doubt: INCONCLUSIVE, never HEALTHY). */
  private static boolean shown(LogFacts f) {
    return f.signals().failed() || !f.evidenceFor("pythonException").isEmpty();
  }
}
