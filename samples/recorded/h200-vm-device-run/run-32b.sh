#!/bin/bash
# Session 32, third call: a container's small /dev/shm (a private tmpfs of 1 MiB, as Docker's 64 MiB
# default is for bigger jobs) under a two-"host" NCCL job and under data-loader workers; NCCL's own
# GPU memory failure (NCCL_BUFFSIZE beyond the GPU).
R=$OUT/r7; mkdir -p $R
cd "$(dirname "$0")"
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1 PER_RANK_HOSTID=1 WORLD_SIZE=2 PG_TIMEOUT=20
SMALL="unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs /dev/shm && exec \"\$@\"' x"
# G: the NCCL job with a 1 MiB /dev/shm
for r in 0 1; do ( eval $SMALL env RANK=$r MASTER_PORT=29571 timeout 60 python3 nccl_one.py > $R/shm-small-nccl-r$r.log 2>&1; echo "rc=$?" > $R/shm-small-nccl-r$r.rc ) & done
# H: the same, and data-loader workers after init
for r in 0 1; do ( eval $SMALL env RANK=$r MASTER_PORT=29572 DATALOADER=1 timeout 60 python3 nccl_one.py > $R/shm-small-loader-r$r.log 2>&1; echo "rc=$?" > $R/shm-small-loader-r$r.rc ) & done
# I: NCCL_BUFFSIZE of 64 GiB a channel
for r in 0 1; do ( env RANK=$r MASTER_PORT=29573 NCCL_BUFFSIZE=68719476736 timeout 60 python3 nccl_one.py > $R/buffsize-oom-r$r.log 2>&1; echo "rc=$?" > $R/buffsize-oom-r$r.rc ) & done
( eval $SMALL df -h /dev/shm ) > $R/shm-df.txt 2>&1
wait
cd $OUT && tar -czf results7.tar.gz r7 && rm -rf r7 && ls -la $OUT
