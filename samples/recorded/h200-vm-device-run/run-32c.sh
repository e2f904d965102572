#!/bin/bash
# Session 32, fourth call: rendezvous failures as Kubernetes jobs meet them. torchrun's c10d
# rendezvous waiting for a second node that never joins; its endpoint unreachable; plain
# init_process_group with a MASTER_ADDR that does not resolve (a headless Service not yet in DNS).
R=$OUT/r8; mkdir -p $R
cd "$(dirname "$0")"
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1
# J: two nodes expected, one joins
( timeout 100 torchrun --nnodes=2 --nproc_per_node=1 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:29581 --rdzv-conf=join_timeout=20 --max-restarts=0 nccl_one.py > $R/rdzv-join-timeout.log 2>&1; echo "rc=$?" > $R/rdzv-join-timeout.rc ) &
# K: the rendezvous endpoint does not answer (a TEST-NET-1 address)
( timeout 100 torchrun --nnodes=2 --nproc_per_node=1 --rdzv-backend=c10d --rdzv-endpoint=192.0.2.99:29582 --rdzv-conf=read_timeout=15,join_timeout=20 --max-restarts=0 nccl_one.py > $R/rdzv-endpoint-unreachable.log 2>&1; echo "rc=$?" > $R/rdzv-endpoint-unreachable.rc ) &
# L: MASTER_ADDR names no host
( env RANK=1 WORLD_SIZE=2 MASTER_ADDR=trainer-master-0.trainer.default.svc.cluster.local MASTER_PORT=29583 PG_TIMEOUT=20 timeout 90 python3 nccl_one.py > $R/master-addr-unresolved.log 2>&1; echo "rc=$?" > $R/master-addr-unresolved.rc ) &
wait
cd $OUT && tar -czf results8.tar.gz r8 && rm -rf r8 && ls -la $OUT
