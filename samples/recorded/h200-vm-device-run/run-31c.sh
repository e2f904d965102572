#!/bin/bash
# Session 31, third call: torchrun when a rank fails (ChildFailedError), and a collective's timeout under blocking wait.
R=$OUT/r4; mkdir -p $R
cd "$(dirname "$0")"
export MASTER_ADDR=127.0.0.1 NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 PER_RANK_HOSTID=1
# M: torchrun, two local ranks posing as two hosts; rank 1 exits 1 right after init
( DIE_AFTER_INIT=1 PG_TIMEOUT=20 timeout 80 torchrun --standalone --nproc_per_node=2 --tee 3 nccl_one.py > $R/torchrun-rank-dies.log 2>&1; echo "rc=$?" > $R/torchrun-rank-dies.rc ) &
# Q: rank 1 stalls past the timeout with TORCH_NCCL_BLOCKING_WAIT=1 (the main thread raises, not only the watchdog)
for r in 0 1; do ( env WORLD_SIZE=2 TORCH_NCCL_BLOCKING_WAIT=1 PG_TIMEOUT=15 STALL=40 MASTER_PORT=29541 RANK=$r timeout 75 python3 nccl_one.py > $R/blocking-wait-r$r.log 2>&1; echo "rc=$?" > $R/blocking-wait-r$r.rc ) & done
wait
cd $OUT && tar -czf results4.tar.gz r4 && rm -rf r4 && ls -la $OUT
