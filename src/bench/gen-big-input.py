#!/usr/bin/env python3
"""Write a large input for `nccl-triage lint` or `bw` on stdout, to measure their memory.

  gen-big-input.py list SIZE_MIB   # `kubectl get -A -o yaml` shape: one `kind: List` document
  gen-big-input.py docs SIZE_MIB   # the same objects as `---` documents
  gen-big-input.py bw SIZE_MIB     # all_reduce_perf output of a job with many ranks, NCCL INFO lines
                                   # interleaved, the size table at the end

Every Job requests GPUs and RDMA without IPC_LOCK or a secondary network, so each one fires lints:
the report must stay bounded however many there are. Deterministic for a given size.
"""
import sys

JOB = """\
- apiVersion: batch/v1
  kind: Job
  metadata:
    name: train-{i}
    namespace: team-{ns}
  spec:
    parallelism: 2
    template:
      metadata:
        labels:
          app: train-{i}
      spec:
        containers:
        - name: trainer
          image: nvcr.io/nvidia/pytorch:24.05-py3
          env:
          - name: NCCL_DEBUG
            value: INFO
          - name: NCCL_IB_HCA
            value: mlx5_0,mlx5_1
          resources:
            limits:
              nvidia.com/gpu: "8"
              rdma/hca: "1"
          securityContext:
            runAsUser: 1000
"""


def out(s):
    sys.stdout.write(s)


def manifests(limit, as_list):
    written = 0
    i = 0
    if as_list:
        out("apiVersion: v1\nitems:\n")
    while written < limit:
        doc = JOB.format(i=i, ns=i % 97)
        if not as_list:
            # a document of its own: the list item's dash and indentation go
            doc = "---\n" + "\n".join(l[2:] for l in doc.splitlines()) + "\n"
        out(doc)
        written += len(doc)
        i += 1
    if as_list:
        out('kind: List\nmetadata:\n  resourceVersion: ""\n')


def bw(limit):
    nodes, per = 2048, 8
    out("# nccl-tests version 2.17.6 nccl-headers=22703 nccl-library=22703\n")
    out("# Collective test starting: all_reduce_perf\n")
    out("# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20"
        " agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n")
    written = 0
    rank = 0
    while written < limit // 3 and rank < nodes * per:
        line = "#  Rank %5d Group  0 Pid %6d on node-%04d device  %d [0000:18:00] NVIDIA H100 80GB HBM3\n" % (
            rank, 4000 + rank % per, rank // per, rank % per)
        out(line)
        written += len(line)
        rank += 1
    n = 0
    while written < limit - 8192:
        r = n % max(rank, 1)
        line = "node-%04d:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA\n" % (
            r // per, 4000 + r % per, 4100 + r % per, r % per, n % 32, r, r % per, (r + per) % max(rank, 1),
            r % per, r % per)
        out(line)
        written += len(line)
        n += 1
    out("#\n#       size         count      type   redop    root     time   algbw   busbw  #wrong"
        "     time   algbw   busbw  #wrong\n")
    size = 8
    while size <= 8589934592:
        out("%12d  %12d     float     sum      -1   %8.2f  %6.2f  %6.2f       0   %8.2f  %6.2f  %6.2f       0\n" % (
            size, size // 4, 100.0, 1.0, 180.0, 100.0, 1.0, 180.0))
        size *= 2
    out("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 120.5\n#\n")


def main():
    what, mib = sys.argv[1], int(sys.argv[2])
    limit = mib << 20
    if what == "list":
        manifests(limit, True)
    elif what == "docs":
        manifests(limit, False)
    elif what == "bw":
        bw(limit)
    else:
        sys.exit("usage: gen-big-input.py list|docs|bw SIZE_MIB")


if __name__ == "__main__":
    main()
