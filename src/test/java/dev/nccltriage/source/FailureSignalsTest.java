package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.LogFacts;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whether a log says the job failed ({@code signals().failed()}), how many WARN lines it holds
 * ({@code warnings()}) and which error signatures it names ({@code errors()}).
 *
 * <p>Why: "healthy" must never be the verdict of a job that failed, and a job must not be called
 * failed for the init-time probes NCCL recovers from (no libibverbs, an HCA it cannot open: it goes
 * on with the next transport). The failure can be told by NCCL itself (a WARN, an error unwind
 * {@code file:line -> N}, spec §1.7), or by the program around it (nccl-tests, PyTorch, a crash);
 * the error kind and detail are what the lints in rules/lints-errors.yaml match on. The hosts,
 * addresses and pids below are invented; only the line shapes come from real logs.
 */
class FailureSignalsTest {
  private static final String INFO = "gpu-h1:4021:4090 [0] NCCL INFO ";
  private static final String HOST = "gpu-h1:4021:4090 [0] ";

  /** A little of a healthy init before the line under test, so the log is not only that line. */
  private static LogFacts withInit(String... lines) {
    StringBuilder b = new StringBuilder();
    b.append(INFO).append("Bootstrap : Using eth0:10.20.30.41<0>\n");
    b.append(INFO).append("NET/Plugin : No plugin found (libnccl-net.so), using internal implementation\n");
    for (String l : lines) {
      b.append(l).append('\n');
    }
    return parse(b.toString());
  }

  private static ErrorSignature error(LogFacts f, String kind) {
    return f.errors().stream().filter(e -> e.kind().equals(kind)).findFirst()
        .orElseThrow(() -> new AssertionError("no error of kind " + kind + " in "
            + f.errors().stream().map(ErrorSignature::kind).toList()));
  }

  private static List<String> texts(List<Evidence> ev) {
    return ev.stream().map(Evidence::text).toList();
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class ErrorUnwinds {
    @Test
    void netIbUnwindWithSystemErrorIsAFailure() {
      String line = INFO + "transport/net_ib.cc:1133 -> 2";
      LogFacts f = withInit(line);
      assertThat(f.signals().failed()).isTrue();
      assertThat(texts(f.evidenceFor("failures"))).containsExactly(line);
    }

    @Test
    void netIbUnwindIsRecordedAsNcclSystemErrorWithItsResultCode() {
      LogFacts f = withInit(INFO + "transport/net_ib.cc:1133 -> 2");
      ErrorSignature e = error(f, "nccl_system_error");
      assertThat(e.detail()).isEqualTo("ncclResult 2 (ncclSystemError)");
      assertThat(e.count()).isEqualTo(1);
      assertThat(e.hosts()).containsExactly("gpu-h1");
    }

    @Test
    void unwindOf230WithFunctionNameIsAFailure() {
      LogFacts f = withInit(INFO + "init.cc:1832 (ncclCommInitRankFunc) -> 2");
      assertThat(f.signals().failed()).isTrue();
      assertThat(error(f, "nccl_system_error").detail()).isEqualTo("ncclResult 2 (ncclSystemError)");
    }

    @Test
    void unwindOfAsyncThreadIsAFailure() {
      LogFacts f = withInit(INFO + "group.cc:64 -> 2 [Async thread]");
      assertThat(f.signals().failed()).isTrue();
      assertThat(error(f, "nccl_system_error").detail()).isEqualTo("ncclResult 2 (ncclSystemError)");
    }

    @Test
    void unwindOfSuccessIsNotAFailure() {
      LogFacts f = withInit(INFO + "transport/net_ib.cc:1133 -> 0");
      assertThat(f.signals().failed()).isFalse();
      assertThat(f.errors()).isEmpty();
    }

    @Test
    void unwindOfInProgressIsNotAFailure() {
      // ncclInProgress (7): a non-blocking init still running, not an error
      LogFacts f = withInit(INFO + "init.cc:1832 (ncclCommInitRankFunc) -> 7");
      assertThat(f.signals().failed()).isFalse();
      assertThat(f.errors()).isEmpty();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class RecoverableWarnings {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
        "misc/ibvwrap.cc:212 NCCL WARN Call to ibv_open_device failed",
        "transport/net_ib.cc:148 NCCL WARN NET/IB : Unable to open device mlx5_0",
        "transport/net_ib.cc:199 NCCL WARN NET/IB : No IP interface found."})
    void probeNcclRecoversFromIsNotAFailure(String warn) {
      LogFacts f = withInit(HOST + warn, INFO + "NET/Socket : Using [0]eth0:10.20.30.41<0>",
          INFO + "Using network Socket");
      assertThat(f.signals().failed()).as("failed").isFalse();
      assertThat(f.evidenceFor("failures")).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
        "misc/ibvwrap.cc:212 NCCL WARN Call to ibv_open_device failed",
        "transport/net_ib.cc:148 NCCL WARN NET/IB : Unable to open device mlx5_0",
        "transport/net_ib.cc:199 NCCL WARN NET/IB : No IP interface found."})
    void probeNcclRecoversFromIsStillCountedAsAWarning(String warn) {
      LogFacts f = withInit(HOST + warn, INFO + "NET/Socket : Using [0]eth0:10.20.30.41<0>",
          INFO + "Using network Socket");
      assertThat(f.signals().warnings()).isEqualTo(1);
      assertThat(texts(f.evidenceFor("warnings"))).containsExactly(HOST + warn);
    }

    @Test
    void libibverbsMissingIsRecordedWithTheLibraryName() {
      LogFacts f = withInit(HOST + "misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]");
      assertThat(error(f, "libibverbs_missing").detail()).isEqualTo("libibverbs.so[.1]");
    }

    @Test
    void unopenableDeviceIsRecordedWithTheDeviceName() {
      LogFacts f = withInit(HOST + "transport/net_ib.cc:148 NCCL WARN NET/IB : Unable to open device mlx5_0");
      assertThat(error(f, "ib_device_unusable").detail()).isEqualTo("mlx5_0");
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class FailingWarnings {
    /** A WARN after which the job does not go on, the error kind it is and the detail kept. */
    static Stream<Arguments> failingWarnings() {
      return Stream.of(
          arguments("include/socket.h:390 NCCL WARN Connect to 10.9.8.7<21724> failed : Connection refused",
              "connect_failed", "Connection refused"),
          // misc/socket.cc once its retries are spent (2.28.9, recorded), without the address
          // (earlier 2.2x) and with errno (2.12+)
          arguments("misc/socket.cc:583 NCCL WARN socketPollConnect: connect to 192.0.2.2<34773> returned Connection "
              + "refused, exceeded error retry count after 35 attempts", "connect_failed", "Connection refused"),
          arguments("misc/socket.cc:566 NCCL WARN socketPollConnect: connect returned Connection timed out, exceeded "
              + "error retry count (35)", "connect_failed", "Connection timed out"),
          arguments("misc/socket.cc:474 NCCL WARN socketPollConnect: Connect to 10.1.2.3<40123> returned 113(No route "
              + "to host) errno 113(No route to host)", "connect_failed", "No route to host"),
          arguments("proxy.cc:1234 NCCL WARN Proxy Call to rank 0 failed (Connect)", "connect_failed",
              "proxy connect to rank 0"),
          arguments("proxy.cc:1503 NCCL WARN [Proxy Service 3] Failed to execute operation Connect from rank 3, "
              + "retcode 6", "connect_failed", "proxy connect"),
          arguments("enqueue.cc:1021 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime "
              + "version'", "cuda_failure", "CUDA driver version is insufficient for CUDA runtime version"),
          arguments("init.cc:1580 NCCL WARN Invalid rank requested : 9/8", "invalid_rank", "9/8"),
          arguments("init.cc:904 NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 60",
              "duplicate_gpu", "ranks 0 and 1 on CUDA device 60"),
          arguments("init.cc:342 NCCL WARN Duplicate GPU detected : rank 3 and rank 11 both on CUDA device 1b000",
              "duplicate_gpu", "ranks 3 and 11 on CUDA device 1b000"),
          // /dev/shm too small: misc/shmutils.cc (2.28.9, recorded; before 2.2x without the error),
          // the SYSCHECK macro's text of older releases
          arguments("misc/shmutils.cc:87 NCCL WARN Error: failed to extend /dev/shm/nccl-IsmtU6 to 34210180 bytes, "
              + "error: No space left on device (28)", "shm_alloc", "No space left on device (28)"),
          arguments("misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-IsmtU6 "
              + "(size 34210176), error: No space left on device (28)", "shm_alloc", "No space left on device (28)"),
          arguments("include/shm.h:28 NCCL WARN Error: failed to extend /dev/shm/nccl-Tk2Ugm to 9637892 bytes",
              "shm_alloc", null),
          arguments("include/shm.h:48 NCCL WARN Call to posix_fallocate failed : No space left on device",
              "shm_alloc", "No space left on device"));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("failingWarnings")
    void aWarnTheJobDoesNotGoOnAfterIsAFailureWithItsErrorKind(String warn, String kind, String detail) {
      LogFacts f = withInit(HOST + warn);
      assertThat(f.signals().failed()).isTrue();
      assertThat(f.signals().warnings()).isEqualTo(1);
      assertThat(texts(f.evidenceFor("failures"))).containsExactly(HOST + warn);
      ErrorSignature e = error(f, kind);
      assertThat(e.detail()).isEqualTo(detail);
      assertThat(texts(e.evidence())).containsExactly(HOST + warn);
    }

    @Test
    void completionErrorOf220IsAFailureWithItsStatus() {
      LogFacts f = withInit(HOST + "transport/net_ib.cc:1456 NCCL WARN NET/IB : Got completion from peer "
          + "10.0.0.2<45678> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 "
          + "remoteGids::ffff:10.0.0.2");
      assertThat(f.signals().failed()).isTrue();
      ErrorSignature e = error(f, "completion_error");
      assertThat(e.status()).isEqualTo(12);
    }

    @Test
    void completionErrorOf229WithSymbolicStatusKeepsTheNumber() {
      LogFacts f = withInit(HOST + "transport/net_ib/cq.cc:210 NCCL WARN NET/IB: Got completion from peer "
          + "10.0.0.2<45678> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_RECV(128) vendor_err=129 "
          + "localGid ::ffff:10.0.0.1 remoteGids ::ffff:10.0.0.2 hca mlx5_0");
      assertThat(f.signals().failed()).isTrue();
      assertThat(error(f, "completion_error").status()).isEqualTo(12);
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class LinesAroundNccl {
    /** What nccl-tests, PyTorch and the OS print when the job around NCCL fails. */
    static Stream<String> failureLines() {
      return Stream.of(
          "gpu-h1: Test NCCL failure common.cu:788 'unhandled system error'",
          "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, "
              + "unhandled system error, NCCL version 2.14.3",
          "Segmentation fault (core dumped)",
          "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, "
              + "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600026 milliseconds before timing out.",
          "torch.distributed.DistBackendError: [2] failed to run collective, ncclRemoteError: A call "
              + "failed possibly due to a network error or a remote process exiting prematurely.",
          // the last line of a framework's uncaught exception when a rank fails, with no NCCL line
          "torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving ncclUniqueId "
              + "from [0] via c10d key-value store by key '0', but store->get('0') got error: Failed to recv",
          "[rank3]: torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 3/4 "
              + "clients joined.",
          "torch.distributed.DistNetworkError: The client socket has timed out after 1800s while trying to "
              + "connect to (trainer-master-0, 29500).",
          "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
          "horovod.common.exceptions.HorovodInternalError: ncclAllReduce failed: unhandled system error",
          "cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_UNHANDLED_CUDA_ERROR: unhandled cuda error",
          // before PyTorch 2.1 the same failures were RuntimeErrors
          "RuntimeError: NCCL communicator was aborted on rank 3.",
          "RuntimeError: [1] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value "
              + "store by key '0', but store->get('0') got error: Connection reset by peer",
          "RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: "
              + "store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:30:00)",
          "RuntimeError: connect() timed out. Original timeout was 1800000 ms.",
          "[rank1]: RuntimeError: Socket Timeout",
          // Open MPI when a rank aborts; glog/absl after a FATAL line (XLA, TensorFlow)
          "MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD",
          // (glog prints "*** Check failure stack trace: ***"; text after it keeps this test's exact
          // evidence comparison: a line wrapped in "***" is shown without them, as markdown emphasis)
          "*** Check failure stack trace: ***   (glog's own words)",
          // JAX
          "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:297: NCCL "
              + "operation ncclGroupEnd() failed: unhandled system error",
          // any exception that PyTorch's distributed excepthook prints (an uncaught one: the rank ends)
          "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 400.00 GiB. GPU 0 has a total "
              + "capacity of 139.80 GiB of which 135.81 GiB is free.",
          "[rank7]: ValueError: too many values to unpack (expected 2)",
          "[rank3]: Exception: checkpoint directory /ckpt is not writable",
          // a rank out of GPU memory, also without PyTorch's excepthook (before 2.2, a rank not yet in a
          // process group), before 1.13 as a RuntimeError, and JAX's
          "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity)",
          "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity)",
          "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.",
          // accelerate's and DeepSpeed's launchers when a rank fails
          "subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train.py']' returned non-zero exit status 1.",
          "[2024-05-01 10:00:00,123] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', "
              + "'--local_rank=1'] exits with return code = 1",
          // launchers when a rank dies: Open MPI 4 (orterun) and 5 (prterun), Slurm, torchrun's agent
          "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).",
          "prterun noticed that process rank 3 with PID 4242 on node gpu-2 exited on signal 11 (Segmentation fault).",
          "mpirun detected that one or more processes exited with non-zero status, thus causing",
          "mpirun has exited due to process rank 1 with PID 0 on",
          "srun: error: gpu-node-3: task 5: Exited with exit code 1",
          "srun: error: gpu-node-3: tasks 0-3: Killed",
          "slurmstepd: error: Detected 1 oom_kill event in StepId=12345.0. Some of the step tasks have been OOM Killed.",
          "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES",
          "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)",
          // the same after a collector's wrappers
          "2024-05-01T10:00:00.123456789Z srun: error: gpu-node-3: task 0: Out Of Memory",
          "E1204 17:46:59.007000 481 torch/distributed/elastic/multiprocessing/api.py:986] failed (exitcode: -9) "
              + "local_rank: 1 (pid: 643) of binary: /opt/torch/.venv/bin/python",
          // Open MPI's errmgr when a rank exited non-zero; libstdc++'s terminate handler (then abort())
          "Primary job  terminated normally, but 1 process returned",
          "terminate called after throwing an instance of 'c10::DistBackendError'",
          "terminate called without an active exception",
          // MPICH's MPI_Abort, Open MPI's lost daemon, a data-loader worker's signal, Hydra's failed task
          "application called MPI_Abort(MPI_COMM_WORLD, 1) - process 0",
          "ORTE has lost communication with a remote daemon.",
          "ERROR: Unexpected segmentation fault encountered in worker.",
          "Error executing job with overrides: ['trainer.devices=8']",
          // a logger's FATAL line (glog, absl, c10; TensorFlow's after its timestamp), then abort()
          "F1205 01:02:03.456789 4242 nccl_utils.cc:297] NCCL operation ncclAllReduce failed",
          "[rank0]:[F1205 01:02:03.456789 ProcessGroupNCCL.cpp:1234] boom",
          "2024-12-05 01:02:03.456789: F tensorflow/core/kernels/nccl_ops.cc:100] Non-OK-status: status",
          // any exception quoting NCCL's error text
          "tensorflow.python.framework.errors_impl.InternalError: ncclCommInitRank failed: unhandled system error",
          // a CUDA error (PyTorch's RuntimeError before 2.8, AcceleratorError after)
          "RuntimeError: CUDA error: an illegal memory access was encountered",
          "torch.AcceleratorError: CUDA error: an illegal memory access was encountered",
          // Ray: a task's failure re-raised in its caller, Ray Train's run failed
          "ray.exceptions.RayTaskError(DistBackendError): ray::_RayTrainWorker__execute.get_next() (pid=4521, ip=10.0.3.7)",
          "ray.train.base_trainer.TrainingFailedError: The Ray Train run failed.",
          "ray.exceptions.RayTaskError(RuntimeError): ray::RayTrainWorker._RayTrainWorker__execute() (pid=4521, ip=10.0.3.7) "
              + "Timed out initializing process group in store based barrier on rank: 0, for key: store_based_barrier_key:1",
          // torchrun's agent got a signal (the Pod deleted or evicted)
          "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4242 got signal: 15",
          // PyTorch's NCCL process group's error lines (c10 logging, level E), 2.4+ and before
          "[rank0]:[E1204 17:46:59.007000 481 ProcessGroupNCCL.cpp:1316] [PG 0 (default_pg) Rank 0] Heartbeat monitor timed "
              + "out! Process will be terminated after dumping debug info. workMetaList_.size()=1",
          "[E ProcessGroupNCCL.cpp:475] [Rank 1] Some NCCL operations have failed or timed out.",
          // no GPU, a driver older than the image's CUDA
          "RuntimeError: No CUDA GPUs are available",
          "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).",
          // the kernel's OOM killer, pasted from dmesg -T
          "[Mon May  1 10:00:00 2024] Memory cgroup out of memory: Killed process 4242 (python3) total-vm:123456kB, "
              + "anon-rss:654321kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:1234kB oom_score_adj:999");
    }

    @ParameterizedTest
    @MethodSource("failureLines")
    void aFailurePrintedAroundNcclIsAFailure(String line) {
      LogFacts f = withInit(line);
      assertThat(f.signals().failed()).isTrue();
      assertThat(texts(f.evidenceFor("failures"))).containsExactly(line);
    }

    /**
     * A line that ends in key="value" is another program's line, not a logfmt record (whose
     * every field is key=value): its own text is read, not the quoted value's.
     */
    @ParameterizedTest
    @MethodSource("failureLines")
    void aFailureThatEndsInAQuotedValueIsAFailure(String line) {
      String quoted = line + " hint=\"check the network\"";
      LogFacts f = withInit(quoted);
      assertThat(f.signals().failed()).isTrue();
      assertThat(texts(f.evidenceFor("failures"))).containsExactly(quoted);
    }

    /** A launcher's report that a rank was killed (SIGKILL, its cgroup's OOM killer) names the kill. */
    @ParameterizedTest
    @ValueSource(strings = {"srun: error: gpu-node-3: tasks 0-3: Killed", "srun: error: gpu-node-3: task 0: Out Of Memory",
        "slurmstepd: error: Detected 1 oom_kill event in StepId=12345.0. Some of the step tasks have been OOM Killed.",
        "=   KILLED BY SIGNAL: 9 (Killed)", "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)",
        "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).",
        "subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train.py']' died with <Signals.SIGKILL: 9>.",
        "[launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py'] exits with return code = -9",
        // the shells: bash (a script's or bash -c's), dash (sh -c)
        "/bin/bash: line 1:  4242 Killed                  python train.py --epochs 3",
        "./run.sh: line 12: 77 Killed                  torchrun --nproc-per-node 8 train.py", "Killed",
        // the kernel's OOM killer (4.19+, and before)
        "Out of memory: Killed process 4242 (python3) total-vm:123456kB, anon-rss:654321kB, file-rss:0kB",
        "[12345.678901] Killed process 4242 (python) total-vm:123456kB, anon-rss:654321kB, file-rss:0kB",
        "command terminated with exit code 137"})
    void aLaunchersReportOfAKillIsARankKilled(String line) {
      LogFacts f = withInit(line);
      assertThat(texts(f.evidenceFor("rankKilled"))).as(line).containsExactly(line);
    }

    /** A rank's GPU out of memory is named, with or without PyTorch's excepthook, and JAX's. */
    @ParameterizedTest
    @ValueSource(strings = {"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity)",
        "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 400.00 GiB.",
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity)",
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.",
        "RuntimeError: CUDA error: out of memory"})
    void aGpuOutOfMemoryIsNamed(String line) {
      LogFacts f = withInit(line);
      assertThat(texts(f.evidenceFor("gpuOutOfMemory"))).as(line).containsExactly(line);
    }

    private static final String GAI = "[W1204 18:19:15.054375607 socket.cpp:764] [c10d] The IPv6 network addresses of "
        + "(trainer-master-0.trainer.default.svc.cluster.local, 29583) cannot be retrieved (gai error: -3 - Temporary "
        + "failure in name resolution).";

    /** c10d's warning that the store's name did not resolve is named; alone it is no failure (a Service published late). */
    @ParameterizedTest
    @ValueSource(strings = {GAI, "[rank1]:" + GAI, "2024-05-01T10:00:00.123456789Z " + GAI})
    void anUnresolvedStoreNameIsNamedButIsNoFailure(String line) {
      LogFacts f = withInit(line);
      assertThat(texts(f.evidenceFor("rendezvousUnresolved"))).as(line).containsExactly(line);
      assertThat(f.signals().failed()).as(line).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"[I1204 18:19:15.054375607 socket.cpp:764] [c10d] x cannot be retrieved (gai error: -3 - y).",
        "see the gai error: handbook", "[E1204 socket.cpp:1] cannot be retrieved (gai error: -2 - x)", "[rank1]: cannot be retrieved (gai error: -2)"})
    void otherLinesOfTheWordsAreNoUnresolvedStore(String line) {
      assertThat(withInit(line).evidenceFor("rendezvousUnresolved")).as(line).isEmpty();
    }

    /**
     * A plain traceback's exception (no excepthook's tag) is evidence of a possible end, no failure:
     * a handler that printed it leaves the same lines. After a collector's wrapper, in a paste's
     * quoting, with NCCL's lines of other threads between its lines.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "[pod/trainer-0/pytorch] ", "2024-05-01T10:00:00.123456789Z stderr F ", "> "})
    void aPlainTracebacksExceptionIsNamedButIsNoFailure(String wrapper) {
      LogFacts f = withInit(wrapper + "Traceback (most recent call last):",
          wrapper + "  File \"/workspace/train.py\", line 60, in main",
          INFO + "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
          wrapper + "    batch = next(it)",
          wrapper + "ValueError: too many values to unpack (expected 2)");
      assertThat(texts(f.evidenceFor("pythonException"))).as(wrapper)
          .containsExactly(wrapper + "ValueError: too many values to unpack (expected 2)");
      assertThat(f.signals().failed()).as(wrapper).isFalse();
    }

    /** A traceback whose exception is a failure by itself is that failure, and no doubt beside it. */
    @ParameterizedTest
    @ValueSource(strings = {"torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1, unhandled system error",
        "RuntimeError: NCCL communicator was aborted on rank 3."})
    void aTracebackOfAFailingExceptionIsAFailure(String exception) {
      LogFacts f = withInit("Traceback (most recent call last):", "  File \"train.py\", line 1, in f", exception);
      assertThat(f.signals().failed()).as(exception).isTrue();
      assertThat(f.evidenceFor("pythonException")).as(exception).isEmpty();
    }

    /** A framework's error that the process found no GPU, or a driver older than the image's CUDA, is named. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
      "RuntimeError: No CUDA GPUs are available|noGpu",
      "RuntimeError: CUDA error: no CUDA-capable device is detected|noGpu",
      "[rank0]: torch.AcceleratorError: CUDA error: no CUDA-capable device is detected|noGpu",
      "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver|driverTooOld",
      "torch.AcceleratorError: CUDA error: CUDA driver version is insufficient for CUDA runtime version|driverTooOld"})
    void aGpuTheProcessCouldNotUseIsNamed(String line, String key) {
      LogFacts f = withInit(line);
      assertThat(texts(f.evidenceFor(key))).as(line).containsExactly(line);
      assertThat(f.signals().failed()).as(line).isTrue();
    }

    /**
     * A marker before or after an "NCCL " that is no envelope (a class named ...NCCL, a framework's
     * version) is found, on a line that follows another program's line (searched for both in one
     * pass) and on one that follows NCCL's (searched one after the other).
     */
    @ParameterizedTest
    @ValueSource(strings = {"Segmentation fault in ProcessGroupNCCL shutdown",
        "ProcessGroupNCCL initialization options: size: 2 ... Segmentation fault (core dumped)",
        "[rank0]: ProcessGroupNCCL comm abort; NCCL failed? no: torch.distributed.DistBackendError: boom",
        "NCCL x NCCL y NCCL z SIGSEGV"})
    void aMarkerAroundAnNcclThatIsNoEnvelopeIsFound(String line) {
      assertThat(withInit("step 1 loss 0.5", line).signals().failed()).as("after another line: " + line).isTrue();
      assertThat(withInit(INFO + "Using network IB", line).signals().failed()).as("after NCCL's: " + line).isTrue();
    }

    /** A launcher's report of another end is a failure, not a kill. */
    @ParameterizedTest
    @ValueSource(strings = {"srun: error: gpu-node-3: task 1: Aborted (core dumped)", "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES",
        // dash's strsignal() of a command another signal ended, alone on its line; kubectl exec's report
        "Aborted", "Terminated", "command terminated with exit code 1",
        // bash's report of a command SIGTERM, SIGABRT, SIGBUS (a Pod's /dev/shm full), SIGFPE or SIGILL ended
        "/bin/bash: line 1:  4242 Terminated              torchrun --nproc-per-node 8 train.py",
        "./entrypoint.sh: line 9:    77 Aborted                 python train.py",
        "/bin/bash: line 1:    31 Bus error               python -m torch.distributed.run train.py",
        "run.sh: line 4: 1234 Floating point exception python train.py",
        "run.sh: line 4: 1234 Illegal instruction     python train.py",
        "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Terminated (signal 15)",
        // (its evidence is shown without the trailing stars, as markdown emphasis)
        "slurmstepd: error: *** JOB 12345 ON gpu-node-3 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***"})
    void aLaunchersReportOfAnotherEndIsNoKill(String line) {
      LogFacts f = withInit(line);
      assertThat(f.signals().failed()).as(line).isTrue();
      assertThat(f.evidenceFor("rankKilled")).as(line).isEmpty();
    }

    /** An exception raised without a message: Python prints its name alone. */
    @ParameterizedTest
    @ValueSource(strings = {"torch.distributed.DistError", "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
        "[rank0]: torch.distributed.DistNetworkError\r", "[default1]:[rank1]: AssertionError"})
    void aFrameworksExceptionNamedAloneIsAFailure(String line) {
      LogFacts f = withInit(line);
      assertThat(f.signals().failed()).as(line).isTrue();
    }

    /** Other exceptions' names, and those names where no exception is raised, say nothing of the job. */
    @ParameterizedTest
    @ValueSource(strings = {
      "ValueError: invalid literal for int() with base 10: 'x'",
      "metrics: NodeDistError: 0.12 MeanDistError: 0.08",
      "retrying after DistNetworkError (attempt 1 of 3)",
      "handler registered for torch.distributed.DistStoreError and DistBackendError.",
      "UserWarning: NcclErrors are retried by the launcher",
      "Error: Dist",
      "handled RuntimeErrors: 0 (NCCL retries: 0)",
      "MyRuntimeError: NCCL tuning table loaded",
      // a rank's tag before something that is not the exception's name, and texts near the launchers'
      "[rank0]: step 100: no ValueError: 0",
      "Exception: upload failed, retrying in 5 s",
      "[rank0]: Exceptions so far: 0",
      "[rank0]:[W1204 17:46:53.946111270 ProcessGroupNCCL.cpp:1575] Warning: WARNING: destroy_process_group() was not called",
      "rank0: ValueError: bad config (handled, using defaults)",
      "child exited normally; exit code 0",
      "the file does not exist, exiting with status 0",
      "failed (exit code 1) retrying",
      // a launcher's other lines, and its report's words where it does not print them
      "srun: error: slurm_receive_msg: Socket timed out on send/recv operation",
      "srun: gpu-node-3: task 5: Completed",
      "=   PID 4242 RUNNING AT gpu-node-3",
      "step 100: srun: error: gpu-node-3: task 5: Killed",
      "Killed 3 stale workers",
      "reaper: line 5: 3 Killedx",
      "Killed: 0",
      "Bus error rate: 0.01",
      "reaper: line 5: 3 Bus errors",
      "Illegal instruction count: 0",
      "[launch.py:321] ['python', 'train.py'] exits with return code = 0",
      "exits with return code = ",
      // out of memory where no exception is raised, or another's name
      "warning: CUDA out of memory, retrying with batch size 16",
      "MyOutOfMemoryError: cache full",
      "OutOfMemoryErrors caught: 0",
      "RuntimeError: out of memory",
      // near the new reports' words
      "Terminated 3 idle workers",
      "Aborted: 0 jobs",
      "terminate called by the user",
      "Primary job  terminated normally, but 0 processes returned",
      "Found 8 GPUs: x.cc:2] ok",
      "E1205 01:02:03.456789 4242 nccl_utils.cc:297] an error, logged",
      "the unhandled system error counter is 0",
      "application called MPI_Init",
      "Error executing job",
      "RayTaskError(ValueError): bad input",
      "RayTaskError(RuntimeError): the checkpoint is missing",
      "caught ray.exceptions.RayTaskError(DistBackendError) and retried",
      "MySignalException: x",
      "RuntimeError: CUDA errors are retried: 0",
      "Killed process list: none",
      "step 9: line 1: 42 Terminatedness",
      "Aborted: 0, Terminated: 0",
      "[I1204 17:46:59.007000 481 ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] ProcessGroupNCCL initialization options",
      "[W1204 17:46:59.007000 481 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed",
      "[E1204 17:46:59.007000 481 socket.cpp:1316] [c10d] a socket error",
      "[Error] ProcessGroupNCCL.cpp:1 is fine",
      "warning: No CUDA GPUs are available, running on CPU",
      "command terminated with exit code 0",
      "Killed processes 3 (python)"
    })
    void otherExceptionsAndMentionsAreNoFailure(String line) {
      LogFacts f = withInit(line);
      assertThat(f.signals().failed()).as(line).isFalse();
    }

    @Test
    void ordinaryApplicationOutputIsNotAFailure() {
      LogFacts f = withInit("INFO: Started server process [4411]", "Epoch 1 loss 0.25", "Epoch 2 loss 0.19",
          INFO + "Using network Socket");
      assertThat(f.signals().failed()).isFalse();
      assertThat(f.signals().warnings()).isZero();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class NumbersTooLarge {
    private static final String HUGE_STATUS = HOST + "transport/net_ib.cc:1456 NCCL WARN NET/IB : Got completion "
        + "from peer 10.0.0.2<45678> with status=4294967296 opcode=0 len=0 vendor err 129 (Recv)";
    private static final String HUGE_UNWIND = INFO + "transport/net_ib.cc:1133 -> 99999999999";

    @Test
    void completionStatusBeyondIntDoesNotThrow() {
      AtomicReference<LogFacts> f = new AtomicReference<>();
      assertThatCode(() -> f.set(parse(HUGE_STATUS + "\n"))).doesNotThrowAnyException();
      assertThat(f.get().ncclLines()).isEqualTo(1);
    }

    @Test
    void completionStatusBeyondIntKeepsTheLineAsACompletionErrorWithoutStatus() {
      LogFacts f = parse(HUGE_STATUS + "\n");
      ErrorSignature e = error(f, "completion_error");
      assertThat(e.status()).isNull();
      assertThat(texts(e.evidence())).containsExactly(HUGE_STATUS);
      assertThat(f.signals().failed()).isTrue();
    }

    @Test
    void unwindResultBeyondIntDoesNotThrowAndTheLineIsKept() {
      AtomicReference<LogFacts> f = new AtomicReference<>();
      assertThatCode(() -> f.set(parse(HUGE_UNWIND + "\n"))).doesNotThrowAnyException();
      assertThat(f.get().ncclLines()).isEqualTo(1);
      assertThat(f.get().inputs()).singleElement().satisfies(i -> assertThat(i.unplacedLines()).isZero());
    }
  }
}
