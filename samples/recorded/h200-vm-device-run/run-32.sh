#!/bin/bash
# Session 32: launchers' failure texts (Open MPI: a rank's non-zero exit, a rank killed by a signal,
# an NCCL job under mpirun whose rank is killed after init), torchrun with a rank SIGKILLed, and a
# CUDA out-of-memory error after a healthy NCCL init (one rank alone; two ranks, rank 0 then times out).
R=$OUT/r6; mkdir -p $R
cd "$(dirname "$0")"
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1
M="mpirun --allow-run-as-root --oversubscribe"
# A: rank 1 exits 3 after a barrier, without MPI_Abort
( timeout 60 $M -np 2 python3 -c "from mpi4py import MPI; import sys; c=MPI.COMM_WORLD; c.Barrier(); print('rank', c.Get_rank(), 'done', flush=True); sys.exit(3 if c.Get_rank()==1 else 0)" > $R/mpi-exit3.log 2>&1; echo "rc=$?" > $R/mpi-exit3.rc ) &
# B: rank 1 SIGKILLs itself while rank 0 waits in a barrier
( timeout 60 $M -np 2 python3 -c "from mpi4py import MPI; import os, signal, time; c=MPI.COMM_WORLD; print('rank', c.Get_rank(), flush=True); (os.kill(os.getpid(), signal.SIGKILL) if c.Get_rank()==1 else c.Barrier())" > $R/mpi-sigkill.log 2>&1; echo "rc=$?" > $R/mpi-sigkill.rc ) &
# C: an NCCL job (two ranks posing as two hosts) under mpirun; rank 1 SIGKILLed after init
( timeout 90 $M -np 2 -x NCCL_DEBUG -x PYTHONUNBUFFERED -x MASTER_ADDR -x MASTER_PORT=29561 -x PER_RANK_HOSTID=1 -x KILL_AFTER_INIT=1 -x PG_TIMEOUT=20 python3 nccl_one.py > $R/mpi-nccl-killed.log 2>&1; echo "rc=$?" > $R/mpi-nccl-killed.rc ) &
# D: torchrun, rank 1 SIGKILLed after init
( PER_RANK_HOSTID=1 KILL_AFTER_INIT=1 PG_TIMEOUT=20 timeout 90 torchrun --standalone --nproc_per_node=2 --tee 3 nccl_one.py > $R/torchrun-sigkill.log 2>&1; echo "rc=$?" > $R/torchrun-sigkill.rc ) &
# E: one rank, CUDA out of memory after init
( env RANK=0 WORLD_SIZE=1 MASTER_PORT=29562 OOM_AFTER_INIT=1 timeout 60 python3 nccl_one.py > $R/oom-1rank.log 2>&1; echo "rc=$?" > $R/oom-1rank.rc ) &
# F: two ranks posing as two hosts, rank 1 out of memory after init; rank 0 waits in its all_reduce
for r in 0 1; do ( env RANK=$r WORLD_SIZE=2 MASTER_PORT=29563 PER_RANK_HOSTID=1 OOM_AFTER_INIT=1 PG_TIMEOUT=15 timeout 75 python3 nccl_one.py > $R/oom-2ranks-r$r.log 2>&1; echo "rc=$?" > $R/oom-2ranks-r$r.rc ) & done
wait
cd $OUT && tar -czf results6.tar.gz r6 && rm -rf r6 && ls -la $OUT
