#!/bin/bash
# Session 31, second call: more failing jobs, all at once on their own ports (one GPU, small tensors).
R=$OUT/r3; mkdir -p $R
cd "$(dirname "$0")"
export MASTER_ADDR=127.0.0.1 NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 WORLD_SIZE=2 PER_RANK_HOSTID=1
one() { local n=$1 r=$2 p=$3; shift 3; env "$@" MASTER_PORT=$p RANK=$r timeout 80 python3 nccl_one.py > $R/$n-r$r.log 2>&1; echo "rc=$?" > $R/$n-r$r.rc; }
# F: rank 1 stalls past the process group's timeout: rank 0's watchdog
one watchdog 0 29531 PG_TIMEOUT=15 STALL=45 & one watchdog 1 29531 PG_TIMEOUT=15 STALL=45 &
# G: WARN-only (NCCL_DEBUG=WARN) of NCCL_NET=IB without an HCA
one warn-only-net-ib 0 29532 NCCL_DEBUG=WARN NCCL_NET=IB PG_TIMEOUT=30 & one warn-only-net-ib 1 29532 NCCL_DEBUG=WARN NCCL_NET=IB PG_TIMEOUT=30 &
# H: NCCL_SOCKET_IFNAME excludes eth*: loopback between the two "hosts"
one socket-ifname-lo 0 29533 NCCL_SOCKET_IFNAME=^eth PG_TIMEOUT=40 & one socket-ifname-lo 1 29533 NCCL_SOCKET_IFNAME=^eth PG_TIMEOUT=40 &
# K: rank 1 never starts (a Pod not scheduled): rank 0 waits for clients at the store
one store-waits 0 29534 PG_TIMEOUT=20 &
# L: rank 1 whose MASTER_ADDR:PORT has nobody listening: the client socket times out
one store-unreachable 1 29599 PG_TIMEOUT=20 &
wait
nvidia-smi -q | grep -i -A3 "Product Name\|Fabric" | head -20 > $R/smi.txt
cd $OUT && tar -czf results3.tar.gz r3 && rm -rf r3 && ls -la $OUT
