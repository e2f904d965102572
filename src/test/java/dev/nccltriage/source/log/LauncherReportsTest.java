package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Launchers' own reports of a rank's abnormal end, by their format strings (Slurm's srun and
 * slurmstepd, MPICH's and Intel MPI's Hydra, Open MPI's errmgr), libstdc++'s terminate handler and
 * dash's: -1 none, 0 a failure of no named kind, 6 killed.
 */
class LauncherReportsTest {
  @ParameterizedTest(name = "{1}: {0}")
  @CsvSource(delimiter = '|', value = {
    // srun: "%s: %s %s: %s%s" (strsignal, core_str), "Exited with exit code %d", "Out Of Memory"
    "srun: error: gpu-node-3: task 5: Killed|6",
    "srun: error: nid[001-004]: tasks 0-3,8: Killed|6",
    "srun: error: gpu-node-3: task 5: Killed |6",
    "srun: error: gpu-node-3: task 0: Out Of Memory|6",
    "srun: error: gpu-node-3: task 1: Segmentation fault (core dumped)|0",
    "srun: error: gpu-node-3: task 1: Aborted (core dumped)|0",
    "srun: error: gpu-node-3: tasks 4-7: Terminated|0",
    "srun: error: gpu-node-3: task 5: Exited with exit code 1|0",
    "srun: error: gpu-node-3: task 5: Killedx|0",
    "srun: error: Node failure on gpu-node-3|0",
    "srun: error: Node failure on |-1",
    // slurmstepd: a job or step cancelled (a hang ends at the time limit so), the cgroup's OOM killer
    "slurmstepd: error: *** JOB 12345 ON node01 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***|0",
    "slurmstepd: error: *** STEP 12345.0 ON node01 CANCELLED AT 2024-01-01T00:00:00 ***|0",
    "slurmstepd: error: Detected 1 oom_kill event in StepId=12345.0. Some of the step tasks have been OOM Killed.|6",
    "slurmstepd: error: Detected 3 oom-kill event(s) in step 12345.batch cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler.|6",
    // Hydra's box and the line after it
    "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES|0",
    "=   KILLED BY SIGNAL: 9 (Killed)|6",
    "=   KILLED BY SIGNAL: 11 (Segmentation fault)|0",
    "=   KILLED BY SIGNAL: 90|0",
    "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)|6",
    "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)|0",
    "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 90)|0",
    // no report of an end: other srun and slurmstepd lines, the box's rule and its other lines
    "srun: error: Unable to create step for job 1234: Requested node configuration is not available|-1",
    "srun: error: slurm_receive_msg: Socket timed out on send/recv operation|-1",
    "srun: error: : task 1: Killed|-1",
    "srun: error: node: task : Killed|-1",
    "srun: error: node: tasks0: Killed|-1",
    "srun: gpu-node-3: task 5: Completed|-1",
    "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.|-1",
    "slurmstepd: error: Detected an oom_kill event|-1",
    "slurmstepd: error: *** the job was fine ***|-1",
    "slurmstepd: info: Detected 1 oom_kill event in StepId=1.0|-1",
    "===================================================================================|-1",
    "=   PID 4242 RUNNING AT gpu-node-3|-1",
    "=BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES|-1",
    "step 100: srun: error: gpu-node-3: task 5: Killed|-1",
    "Your application terminated with the exit string: Killed (signal 9)|-1",
    // Open MPI's errmgr: "%s job %s terminated normally, but %d %s returned"
    "Primary job  terminated normally, but 1 process returned|0",
    "Primary job 4242 terminated normally, but 12 processes returned|0",
    "Primary job  terminated normally, but 0 processes returned|-1",
    "Primary job  terminated normally|-1",
    "Primary job  terminated normally, but |-1",
    "Primary jobs terminated normally, but 1 process returned|-1",
    // libstdc++'s verbose terminate handler, then abort()
    "terminate called after throwing an instance of 'c10::DistBackendError'|0",
    "terminate called after throwing an instance of 'std::bad_alloc'|0",
    "terminate called without an active exception|0",
    "terminate called recursively|0",
    "terminate called by the user|-1",
    "terminate calledafter throwing an instance of 'x'|-1",
    "terminated called after throwing an instance of 'x'|-1",
    // kubectl exec: "command terminated with exit code %d" (137: SIGKILL)
    "command terminated with exit code 137|6",
    "command terminated with exit code 1|0",
    "command terminated with exit code 1370|0",
    "command terminated with exit code 0|-1",
    "command terminated with exit code |-1",
    "command terminated with exit code 1 (retrying)|-1",
    "command terminated normally|-1",
    // MPICH's MPI_Abort, alone or after Intel MPI's "Abort(%d) on node %d (rank %d in comm %d): "
    "application called MPI_Abort(MPI_COMM_WORLD, 1) - process 0|0",
    "application called MPI_Abort(comm=0x84000000, 255) - process 3|0",
    "Abort(1) on node 0 (rank 0 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 1) - process 0|0",
    "Abort(1) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init: Other MPI error|-1",
    "application called MPI_Init|-1",
    "Abort(|-1",
    // Open MPI's errmgr: a daemon lost (ORTE; PRRTE from Open MPI 5)
    "ORTE has lost communication with a remote daemon.|0",
    "PRRTE has lost communication with a remote daemon.|0",
    "ORTE has lost communication with its parent|-1",
    "PRTE has lost communication with a remote daemon.|-1",
    // PyTorch's data-loader workers' signal handlers
    "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).|7",
    "ERROR: Unexpected segmentation fault encountered in worker.|0",
    "ERROR: Unexpected floating-point exception encountered in worker.|0",
    "ERROR: Unexpected bus error encountered in the main process.|-1",
    "ERROR: Unexpected keyword argument|-1",
    // Hydra, when the task function raised
    "Error executing job with overrides: ['trainer.devices=8', 'model=llama']|0",
    "Error executing job with overrides: []|0",
    "Error executing job|-1",
    // dash: strsignal() alone
    "Killed|6",
    "Aborted|0",
    "Terminated|0",
    "Bus error|0",
    "Floating point exception|0",
    "Illegal instruction|0",
    "Bus error on device 3|-1",
    "Illegal instruction set|-1",
    "B|-1",
    "F|-1",
    "I|-1",
    "Aborted (core dumped)|-1",
    "Terminated 3 idle workers|-1",
    "Terminate|-1",
    "Killed by user|-1",
    "s|-1",
    "t|-1",
    "P|-1",
    "c|-1",
    "a|-1",
    "O|-1",
    "E|-1",
    "PR|-1",
    "=|-1"
  })
  void kindOfALine(String line, int kind) {
    byte[] padded = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
    byte[] exact = line.getBytes(StandardCharsets.UTF_8);
    // the line's own end, and inside a longer buffer (nothing read past e)
    assertThat(LauncherReports.kind(exact, 0, exact.length)).as(line).isEqualTo(kind);
    assertThat(LauncherReports.kind(padded, 2, padded.length - 2)).as(line).isEqualTo(kind);
    if (kind != LauncherReports.NONE) {
      // the pair test that lets a line's later words skip kind() passes every report
      assertThat(LauncherReports.mayStart(exact[0], exact[1])).as(line).isTrue();
      // after a wrapper no table knows: found where it starts
      for (String wrapper : new String[] {"trainer-worker-0 pytorch ", "trainer-1  | ", "logs/w.log:", "node-1: ",
          "    12\t", "pod c [1,0]<stdout>:[default0]:"}) {
        byte[] wrapped = (wrapper + line).getBytes(StandardCharsets.UTF_8);
        assertThat(LauncherReports.afterOtherBytes(wrapped, 0, wrapped.length)).as(wrapper + line)
            .isEqualTo(wrapper.length());
      }
    }
  }
}
