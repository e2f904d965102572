#!/bin/bash
# Second device check: more real NCCL 2.28.9 logs (all subsystems, torchrun prefixes, failures) and check --pid on a live rank.
R=$OUT/r; mkdir -p $R
trap 'cd $OUT && tar -czf results2.tar.gz r && rm -rf r' EXIT
cd "$(dirname "$0")"  # run.sh, nccl_one.py and the bundle beside it
mkdir -p /tmp/nt && tar -xzf nccl-triage-0.1.0-linux-x64.tar.gz -C /tmp/nt
NT=/tmp/nt/nccl-triage-0.1.0-linux-x64/bin/nccl-triage
export MASTER_ADDR=127.0.0.1 NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 WORLD_SIZE=2 PER_RANK_HOSTID=1
two() { # name port [env...]: two ranks posing as two hosts, each its own log
  local n=$1 p=$2; shift 2
  for r in 0 1; do env "$@" MASTER_PORT=$p RANK=$r timeout 75 python3 nccl_one.py > $R/$n-r$r.log 2>&1 & done; wait
}
# A: every subsystem, and check --pid/--log on rank 0 while it holds after init
( for r in 0 1; do env NCCL_DEBUG_SUBSYS=ALL HOLD=12 MASTER_PORT=29521 RANK=$r timeout 75 python3 nccl_one.py > $R/subsys-all-r$r.log 2>&1 & done
  for i in $(seq 60); do [ -s /tmp/hold-0 ] && break; sleep 0.5; done; sleep 1
  P=$(cat /tmp/hold-0); ( time timeout 60 $NT check --pid $P --log $R/subsys-all-r0.log -o json ) > $R/check-pid.json 2> $R/check-pid.stderr; echo "rc=$?" >> $R/check-pid.stderr
  timeout 60 $NT capture --pid $P -o $R/capture-pid.tar.gz > $R/capture-pid.txt 2>&1; echo "rc=$?" >> $R/capture-pid.txt
  wait )
# B: torchrun's own prefixes (--tee 3), two local ranks posing as two hosts
timeout 90 torchrun --standalone --nproc_per_node=2 --tee 3 nccl_one.py > $R/torchrun-tee.log 2>&1; echo "rc=$?" >> $R/torchrun-tee.log
# C: NCCL_SOCKET_IFNAME names an interface the host lacks
two socket-ifname-missing 29523 NCCL_SOCKET_IFNAME=net1 PG_TIMEOUT=30
# D: the IB transport forced where there is no HCA
two net-ib-forced 29524 NCCL_NET=IB PG_TIMEOUT=30
# E: a peer dies after init; the survivor's all_reduce fails
two peer-died 29525 DIE_AFTER_INIT=1 PG_TIMEOUT=20
ls -la $R
