#!/bin/bash
# Device check for nccl-triage: check/capture on a real GPU host and real NCCL_DEBUG=INFO logs.
R=$OUT/r; mkdir -p $R
trap 'cd $OUT && tar -czf results.tar.gz r && rm -rf r' EXIT
cd "$(dirname "$0")"
mkdir -p /tmp/nt && tar -xzf nccl-triage-0.1.0-linux-x64.tar.gz -C /tmp/nt
NT=/tmp/nt/nccl-triage-0.1.0-linux-x64/bin/nccl-triage
chmod -R a+rX /tmp/nt
{ date -u; uname -a; cat /proc/version; id; nvidia-smi; nvidia-smi topo -m; ls -la /dev/infiniband /sys/class/infiniband /sys/class/net;
  ip -br addr || cat /proc/net/dev; grep -E 'Cap|Uid' /proc/self/status; ulimit -l; ls /sys/module | grep -E -i 'nvidia|ib_|mlx|rdma';
  cat /proc/driver/nvidia/version; ls /proc/driver/nvidia/gpus; which ibv_devinfo rdma ip lspci; env | grep -E '^(NCCL|CUDA|NVIDIA)'; nproc; } > $R/env.txt 2>&1
$NT --version > $R/version.txt 2>&1
( time timeout 60 $NT check ) > $R/check-root.txt 2>&1; echo "rc=$?" >> $R/check-root.txt
timeout 60 $NT check -o json > $R/check-root.json 2> $R/check-root.json.stderr; echo "rc=$?" >> $R/check-root.json.stderr
timeout 90 $NT capture -o $R/capture-root.tar.gz > $R/capture-root.txt 2>&1; echo "rc=$?" >> $R/capture-root.txt
U="setpriv --reuid=65534 --regid=65534 --clear-groups"
command -v setpriv >/dev/null || U="runuser -u nobody --"
( $U env HOME=/tmp timeout 60 $NT check -o json ) > $R/check-nobody.json 2> $R/check-nobody.stderr; echo "rc=$? via $U" >> $R/check-nobody.stderr
( $U env HOME=/tmp timeout 90 $NT capture -o /tmp/cap-nobody.tar.gz ) > $R/capture-nobody.txt 2>&1; echo "rc=$?" >> $R/capture-nobody.txt; cp /tmp/cap-nobody.tar.gz $R/ 2>/dev/null
export MASTER_ADDR=127.0.0.1 NCCL_DEBUG=INFO PYTHONUNBUFFERED=1
# 1: one rank
MASTER_PORT=29511 RANK=0 WORLD_SIZE=1 timeout 120 python3 nccl_one.py > $R/nccl-1rank.log 2>&1; echo "rc=$?" > $R/nccl-1rank.rc
# 2: two ranks on one GPU posing as two hosts (NCCL_HOSTID per rank): the net transport between them
for r in 0 1; do MASTER_PORT=29512 RANK=$r WORLD_SIZE=2 PER_RANK_HOSTID=1 timeout 150 python3 nccl_one.py > $R/nccl-2host-r$r.log 2>&1 & done; wait
# 3: two ranks, one GPU, one host: NCCL refuses (duplicate GPU), a real failing log
for r in 0 1; do MASTER_PORT=29513 RANK=$r WORLD_SIZE=2 timeout 90 python3 nccl_one.py > $R/nccl-dupgpu-r$r.log 2>&1 & done; wait
date -u >> $R/env.txt
