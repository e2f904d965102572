package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** PyTorch's failure texts (c10d's socket.cpp, TCPStore.cpp, ProcessGroupNCCL.cpp) and their kinds. */
class FrameworkFailuresTest {
  @ParameterizedTest(name = "{1}: {0}")
  @CsvSource(delimiter = '|', value = {
    "torch.distributed.DistNetworkError: The client socket has timed out after 20000ms while trying to connect to (127.0.0.1, 29599).|1",
    "[rank3]: torch.distributed.DistNetworkError: The client socket has failed to connect to (trainer-master-0, 29500).|1",
    "torch.distributed.DistStoreError: Timed out after 21 seconds waiting for clients. 1/2 clients joined.|2",
    "torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Failed to recv|3",
    "[rank0]:[E1204 15:15:03.177 ProcessGroupNCCL.cpp:689] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 15072 milliseconds before timing out.|4",
    // PyTorch before 2.1: RuntimeErrors
    "RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:30:00)|2",
    "RuntimeError: connect() timed out. Original timeout was 1800000 ms.|1",
    "RuntimeError: [1] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer|3",
    // torchrun's c10d rendezvous (recorded): its endpoint unreachable, the second node never joining
    "torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (192.0.2.99, 29582). The client socket has failed to connect to 0.0.0.0:7357 (errno: 113 - No route to host).|1",
    "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.|1",
    "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError|2",
    // a rank out of GPU memory (torch.OutOfMemoryError; a RuntimeError before 1.13), a rank SIGKILLed
    "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 400.00 GiB. GPU 0 has a total capacity of 139.80 GiB|5",
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity)|5",
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.|5",
    "E1204 17:46:59.007000 481 torch/distributed/elastic/multiprocessing/api.py:986] failed (exitcode: -9) local_rank: 1 (pid: 643) of binary: /opt/torch/.venv/bin/python|6",
    "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).|6",
    "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9.|6",
    "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 90.|0",
    "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 11 (Segmentation fault).|0",
    "failed (exitcode: -90) local_rank: 1 (pid: 643)|0",
    "subprocess.CalledProcessError: Command '['python', 'train.py']' died with <Signals.SIGKILL: 9>.|6",
    // a shell as the rank: it exits 128 + 9 when SIGKILL ends its child (as kubectl exec's 137)
    "subprocess.CalledProcessError: Command '['bash', 'train.sh']' returned non-zero exit status 137.|6",
    "subprocess.CalledProcessError: Command '['bash', 'train.sh']' returned non-zero exit status 137|6",
    "subprocess.CalledProcessError: Command '['bash', 'train.sh']' returned non-zero exit status 1370.|0",
    "subprocess.CalledProcessError: Command '['bash', 'train.sh']' returned non-zero exit status 13.|0",
    "failed (exitcode: 137) local_rank: 0 (pid: 1234) of binary: /bin/bash|6",
    "failed (exitcode: 1371) local_rank: 0 (pid: 1234) of binary: /bin/bash|0",
    "['bash', 'run.sh'] exits with return code = 137|6",
    "['bash', 'run.sh'] exits with return code = 1370|0",
    "['python', 'train.py'] exits with return code = -9|6",
    "['python', 'train.py'] exits with return code = -90|0",
    "failed (exitcode: 1) local_rank: 1 (pid: 643) of binary: /usr/bin/python|0",
    // /dev/shm too small for PyTorch's shared tensors (libshm; the data loader's workers)
    "[rank0]: RuntimeError: unable to allocate shared memory(shm) for file </torch_632_419042823_0>: Resource temporarily unavailable (11)|7",
    "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.|7",
    // failures that say nothing of the rendezvous or a collective's timeout
    "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3780, remote process exited or there was a network error|0",
    "Segmentation fault (core dumped)|0",
    "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: false, code: -98, name: EADDRINUSE|0"
  })
  void kindOfAFailureLine(String line, int kind) {
    byte[] padded = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
    assertThat(FrameworkFailures.kind(padded, 2, padded.length - 2)).isEqualTo(kind);
  }
  /** glog's, absl's and c10's FATAL line (then abort()), TensorFlow's after its timestamp; the other levels are not. */
  @ParameterizedTest(name = "{1}: {0}")
  @CsvSource(delimiter = '|', value = {
    "F1205 01:02:03.456789 4242 nccl_utils.cc:297] NCCL operation ncclAllReduce failed|true",
    "F1205 01:02:03.456789    42 some_file.cc:12] Check failed: x == y (1 vs. 2)|true",
    "F1205 01:02:03.456789 4242 a/b/c.cc:1]|true",
    "F tensorflow/core/kernels/nccl_ops.cc:100] Non-OK-status: status|true",
    "[F1205 01:02:03.456789 ProcessGroupNCCL.cpp:1234] boom|true",
    "E1205 01:02:03.456789 4242 nccl_utils.cc:297] an error, logged|false",
    "W1205 01:02:03.456789 4242 nccl_utils.cc:297] a warning|false",
    "F125 01:02:03.456789 4242 x.cc:2] three digits|false",
    "F12345 01:02:03.456789 4242 x.cc:2] five digits|false",
    "Found 8 GPUs on node-01: [0] x.cc:2] y|false",
    "F1205 01:02:03.456789 4242 x.cc] no line number|false",
    "F1205 01:02:03.456789 4242 x.cc:12]x glued|false",
    "F1205 no bracket at all|false",
    "F |false",
    "F|false"
  })
  void aFatalLogLine(String line, boolean fatal) {
    byte[] padded = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
    byte[] exact = line.getBytes(StandardCharsets.UTF_8);
    int w = exact.length > 0 && exact[0] == '[' ? FrameworkFailures.logLevelAt(exact, 0, exact.length) : 0;
    assertThat(FrameworkFailures.fatalLine(exact, w, exact.length)).as(line).isEqualTo(fatal);
    if (!line.endsWith("]")) { // (padding after a closing bracket would be the message)
      assertThat(FrameworkFailures.fatalLine(padded, w + 2, padded.length - 2)).as(line).isEqualTo(fatal);
    }
  }
}
