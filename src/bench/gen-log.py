#!/usr/bin/env python3
"""Generate a large, NCCL 2.21.5-shaped NCCL_DEBUG=INFO log for benchmarking `nccl-triage log`.

Shape (see /work/shared/nccl-log-spec.md for the format strings):

* NODES nodes (host `node-%03d`) x RANKS_PER_NODE ranks, one process (pid) per rank, global rank
  R = node * ranks_per_node + local rank, cudaDev = nvmlDev = local rank.
* Each process creates communicators over all ranks, one after another (new `comm 0x...`
  pointers, new `commId`); every `--comms-per-process` communicators the job "restarts"
  (an elastic restart: new pids, so the once-per-process lines are printed again).
* Per process (2.21 behaviour): `Bootstrap : Using`, the `NET/Plugin:` load lines,
  `cudaDriverVersion`, the bare `NCCL version 2.21.5+cuda12.4` line (2.7-2.21 print it to stdout
  without prefix), and the `NET/IB : Using ...` summary (ncclIbInit runs once per process).
* Per communicator: `Using non-device net plugin version 0`, `Using network IB`, `DMA-BUF ...`,
  `ncclCommInitRank ... - Init START`, affinity, `comm ... nRanks ... MNNVL 0`, ring listing
  (rank 0 only, 20 ranks max as dumpLine does in <=2.22), `Trees ...`, proxy thread lines,
  eager (pre-2.22) ring and tree channel lines (P2P/CUMEM/read inside a node,
  NET/IB/<dev>/GDRDMA across nodes), `Connected all rings`, `Connected all trees`, tuner plugin
  lines, `threadThresholds`, channel summary, `comm ... - Init COMPLETE`.
* Application noise: a startup line per rank, a PyTorch-style "created ncclComm_" line per
  communicator and rank, and training-progress lines from rank 0.
* The socket node (`--socket-node`, default 77) has no IB devices in its container:
  `NET/IB : No device found.`, `NET/Socket : Using [0]eth0:10.244.x.y<0>`,
  `Using network Socket`, no DMA-BUF line, and its inter-node channel lines read
  `via NET/Socket/0` (no GDRDMA). Its bootstrap/OOB interface is the overlay eth0.
* Lines of different ranks are interleaved in chunks of 1..12 lines, round-robin over a
  per-communicator shuffled rank order (like a combined multi-rank log).

The output is deterministic for a given set of arguments. Generation stops at the first
communicator boundary at or after --size-mib MiB.

Speed: every rank's per-communicator block is rendered once per process generation as a list of
chunk strings; per communicator only the few chunks that carry comm-specific values (comm
pointer, commId, proxy tids, timestamps) are patched with str.replace, and the interleaved
chunks are joined and written in one large write per communicator.
"""

import argparse
import itertools
import os
import random
import sys
import time

NCCL_VERSION = "2.21.5"
CUDA_VERSION = "12.4"
CUDA_DRIVER = "12040"
NCHANNELS = 16
BUSIDS = ["18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"]
AFFINITY = ["00000000,0000ffff,ffffffff", "ffffffff,ffff0000,00000000"]  # NUMA 0 / NUMA 1

# placeholders patched per communicator
PH_COMM = "\x01"     # this rank's comm pointer
PH_COMMID = "\x02"   # commId, shared by all ranks of a communicator
PH_TS = "\x03"       # glog-style timestamp "MMDD HH:MM:SS.uuuuuu"
PH_TSVC = "\x04"     # tid of [Proxy Service] thread
PH_TUDS = "\x05"     # tid of [Proxy Service UDS] thread
PH_TPRG = "\x06"     # tid of [Proxy Progress] thread
PH_PG = "\x07"       # ProcessGroup index
PLACEHOLDERS = (PH_COMM, PH_COMMID, PH_TS, PH_TSVC, PH_TUDS, PH_TPRG, PH_PG)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="output file ('-' for stdout)")
    p.add_argument("--size-mib", type=float, default=1024, help="target size in MiB (default 1024)")
    p.add_argument("--nodes", type=int, default=128)
    p.add_argument("--ranks-per-node", type=int, default=8)
    p.add_argument("--socket-node", type=int, default=77,
                   help="index of the node that fell back to sockets (-1: none)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--comms-per-process", type=int, default=16,
                   help="communicators per process before an elastic restart (new pids)")
    p.add_argument("--channels", type=int, default=NCHANNELS)
    p.add_argument("--quiet", action="store_true")
    a = p.parse_args(argv)
    if a.nodes < 2:
        p.error("--nodes must be >= 2")
    if not 1 <= a.ranks_per_node <= 8:
        p.error("--ranks-per-node must be 1..8")
    if a.socket_node >= a.nodes:
        p.error("--socket-node must be < --nodes")
    return a


class Topo:
    """Static ring/tree structure of one communicator (identical for every repeat)."""

    def __init__(self, nodes, rpn, nch):
        self.nodes, self.rpn, self.nch = nodes, rpn, nch

    def ring_local_order(self, c):
        s = c % self.rpn
        return [(s + i) % self.rpn for i in range(self.rpn)]

    def node_tree(self, c, n):
        """(parent node or -1, [child nodes]) of node n in the tree of channel c (double binary
        tree: even channels use node order, odd channels the mirrored order)."""
        N = self.nodes
        t = n if c % 2 == 0 else N - 1 - n
        back = (lambda x: x) if c % 2 == 0 else (lambda x: N - 1 - x)
        parent = back((t - 1) // 2) if t > 0 else -1
        kids = [back(k) for k in (2 * t + 1, 2 * t + 2) if k < N]
        return parent, kids

    def tree(self, c, node, l):
        """(up global rank or -1, [down global ranks], up is net?, [down is net?])"""
        rpn = self.rpn
        order = self.ring_local_order(c)
        p = order.index(l)
        R = node * rpn + l
        downs, dnet = [], []
        if p < rpn - 1:
            downs.append(node * rpn + order[p + 1]); dnet.append(False)
        if p > 0:
            up, upnet = node * rpn + order[p - 1], False
        else:
            parent, kids = self.node_tree(c, node)
            up, upnet = (parent * rpn + order[0], True) if parent >= 0 else (-1, False)
            for k in kids:
                downs.append(k * rpn + order[0]); dnet.append(True)
        return R, up, downs, upnet, dnet


def rank_lines(a, topo, node, l, pid, first, net_kind, bootstrap_if, ib_oob, sock_if, rng):
    """Lines (without newline) of one rank for one communicator; `first` adds the
    once-per-process lines. Comm-specific values are placeholders."""
    rpn, N, nch = a.ranks_per_node, a.nodes, a.channels
    host = "node-%03d" % node
    R = node * rpn + l
    nranks = N * rpn
    main = "%s:%d:%d [%d] NCCL INFO " % (host, pid, pid, l)
    svc = "%s:%d:%s [%d] NCCL INFO " % (host, pid, PH_TSVC, l)
    uds = "%s:%d:%s [%d] NCCL INFO " % (host, pid, PH_TUDS, l)
    prg = "%s:%d:%s [%d] NCCL INFO " % (host, pid, PH_TPRG, l)
    ib = net_kind == "IB"
    out = []
    A = out.append
    if first:
        A("[rank%d] %s: local_rank=%d world_size=%d device=cuda:%d backend=nccl" % (R, host, l, nranks, l))
        A(main + "Bootstrap : Using %s" % bootstrap_if)
        A(main + "NET/Plugin: No plugin found (libnccl-net.so)")
        A(main + "NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: "
                 "No such file or directory : when loading libnccl-net.so")
        A(main + "NET/Plugin: Using internal network plugin.")
        A(main + "cudaDriverVersion %s" % CUDA_DRIVER)
        A("NCCL version %s+cuda%s" % (NCCL_VERSION, CUDA_VERSION))
        A(main + "NCCL_CROSS_NIC set by environment to 0.")
        if ib:
            devs = "".join(" [%d]mlx5_%d:1/IB" % (i, i) for i in range(8))
            A(main + "NET/IB : Using%s [RO]; OOB %s" % (devs, ib_oob))
        else:
            A(main + "NET/IB : No device found.")
            A(main + "NET/Socket : Using [0]%s" % sock_if)
    A("[rank%d]:[I%s ProcessGroupNCCL.cpp:2105] [PG %s Rank %d] ProcessGroupNCCL initialization options: "
      "size: %d, global rank: %d, TIMEOUT(ms): 600000" % (R, PH_TS, PH_PG, R, nranks, R))
    A(main + "Using non-device net plugin version 0")
    A(main + "Using network %s" % net_kind)
    if ib:
        A(main + "DMA-BUF is available on GPU device %d" % l)
    A(main + "ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s - Init START"
      % (PH_COMM, R, nranks, l, l, BUSIDS[l], PH_COMMID))
    A(main + "Setting affinity for GPU %d to %s" % (l, AFFINITY[l * 2 // rpn]))
    A(main + "comm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0"
      % (PH_COMM, R, nranks, N, rpn, l))
    if R == 0:
        # rings.cc dumpLine (<=2.22): prefix "Channel %02d/%02d : ", then " %3d" for at most
        # 20 ranks, the ring printed from rank 0 on
        for c in range(nch):
            order = topo.ring_local_order(c)
            ring = [n * rpn + x for n in range(N) for x in order]
            z = ring.index(0)
            ring = (ring[z:] + ring[:z])[:20]
            A(main + ("Channel %02d/%02d : " % (c, nch)) + "".join(" %3d" % r for r in ring))
    trees = []
    tinfo = []
    for c in range(nch):
        t = topo.tree(c, node, l)
        tinfo.append(t)
        _, up, downs, _, _ = t
        d = (downs + [-1, -1, -1])[:3]
        trees.append(" [%d] %d/%d/%d->%d->%d" % (c, d[0], d[1], d[2], R, up))
    A(main + "Trees" + "".join(trees))
    A(main + "P2P Chunksize set to 131072")
    A(svc + "[Proxy Service] Device %d CPU core %d" % (l, rng.randrange(0, 96)))
    A(uds + "[Proxy Service UDS] Device %d CPU core %d" % (l, rng.randrange(0, 96)))

    def dev_of(x):
        return x % rpn

    done = set()  # (channel, direction, peer): NCCL does not set up a connection twice

    def netline(c, src, dst, kind):
        done.add((c, kind, dst if kind == "send" else src))
        if ib:
            via = "NET/IB/%d/GDRDMA" % (c % 8)
        else:
            via = "NET/Socket/0"
        return main + "Channel %02d/0 : %d[%d] -> %d[%d] [%s] via %s" % (
            c, src, dev_of(src), dst, dev_of(dst), kind, via)

    def p2pline(c, src, dst):
        done.add((c, "send", dst))
        return main + "Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read" % (
            c, src, dev_of(src), dst, dev_of(dst))

    # rings (eager connection before 2.22): receives, then sends, per channel
    for c in range(nch):
        order = topo.ring_local_order(c)
        p = order.index(l)
        if p == 0:
            prev = ((node - 1) % N) * rpn + order[-1]
            A(netline(c, prev, R, "receive"))
        if p < rpn - 1:
            A(p2pline(c, R, node * rpn + order[p + 1]))
        else:
            A(netline(c, R, ((node + 1) % N) * rpn + order[0], "send"))
    A(main + "Connected all rings")
    # trees: phase 1 (recv from down, send to up), phase 2 (recv from up, send to down)
    for c in range(nch):
        _, up, downs, upnet, dnet = tinfo[c]
        for d, isnet in zip(downs, dnet):
            if isnet and (c, "receive", d) not in done:
                A(netline(c, d, R, "receive"))
        if up >= 0 and (c, "send", up) not in done:
            A(netline(c, R, up, "send") if upnet else p2pline(c, R, up))
    for c in range(nch):
        _, up, downs, upnet, dnet = tinfo[c]
        if up >= 0 and upnet and (c, "receive", up) not in done:
            A(netline(c, up, R, "receive"))
        for d, isnet in zip(downs, dnet):
            if (c, "send", d) not in done:
                A(netline(c, R, d, "send") if isnet else p2pline(c, R, d))
    A(main + "Connected all trees")
    A(prg + "[Proxy Progress] Device %d CPU core %d" % (l, rng.randrange(0, 96)))
    A(main + "TUNER/Plugin: Plugin load returned 2 : libnccl-tuner.so: cannot open shared object file: "
             "No such file or directory : when loading libnccl-tuner.so")
    A(main + "TUNER/Plugin: Using internal tuner plugin.")
    A(main + "threadThresholds 8/8/64 | 8192/8/64 | 512 | 512")
    A(main + "%d coll channels, %d collnet channels, 0 nvls channels, %d p2p channels, 2 p2p channels per peer"
      % (nch, nch, nch))
    A(main + "comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s - Init COMPLETE"
      % (PH_COMM, R, nranks, l, l, BUSIDS[l], PH_COMMID))
    A("[rank%d]:[I%s ProcessGroupNCCL.cpp:2279] [PG %s Rank %d] ProcessGroupNCCL created ncclComm_ %s "
      "on CUDA device: %d" % (R, PH_TS, PH_PG, R, PH_COMM, l))
    return out


def chunk(lines, rng):
    """Split lines into chunks of 1..12 lines; return (chunks, indices of chunks with placeholders)."""
    chunks, ph = [], []
    i = 0
    while i < len(lines):
        k = rng.randint(1, 12)
        s = "\n".join(lines[i:i + k]) + "\n"
        if any(p in s for p in PLACEHOLDERS):
            ph.append(len(chunks))
        chunks.append(s)
        i += k
    return chunks, ph


def main(argv):
    a = parse_args(argv)
    t0 = time.time()
    rng = random.Random(a.seed)
    topo = Topo(a.nodes, a.ranks_per_node, a.channels)
    N, rpn = a.nodes, a.ranks_per_node
    nranks = N * rpn
    target = int(a.size_mib * 1024 * 1024)

    # static per-node network identity
    net1 = ["net1:192.168.%d.%d<0>" % (10 + n // 200, 10 + n % 200) for n in range(N)]
    eth0 = ["eth0:10.244.%d.%d<0>" % (n, rng.randint(2, 250)) for n in range(N)]

    out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="ascii", newline="\n",
                                                buffering=16 << 20)
    written = 0
    ncomm = 0
    gen = 0
    minute = 0
    step = 0
    used_pids = [set() for _ in range(N)]
    ts_base = 14 * 3600 + 57 * 60  # 14:57:00
    try:
        while written < target:
            # ---- new process generation: pids, templates --------------------------------------
            gtemplates = []  # per rank: (first_chunks, first_ph, rest_chunks, rest_ph, tid bases)
            for n in range(N):
                kind = "Socket" if n == a.socket_node else "IB"
                boot = eth0[n] if kind == "Socket" else net1[n]
                for l in range(rpn):
                    while True:
                        pid = rng.randint(60 + gen * 2000, 1990 + gen * 2000)
                        if pid not in used_pids[n]:
                            used_pids[n].add(pid)
                            break
                    fl = rank_lines(a, topo, n, l, pid, True, kind, boot, net1[n], eth0[n], rng)
                    rl = rank_lines(a, topo, n, l, pid, False, kind, boot, net1[n], eth0[n], rng)
                    fc, fph = chunk(fl, rng)
                    rc, rph = chunk(rl, rng)
                    gtemplates.append((fc, fph, rc, rph, pid + rng.randint(30, 90)))
            restart = ("WARNING:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. "
                       "%d/10 attempts left; will restart worker group\n")
            # ---- communicators of this generation ---------------------------------------------
            for ci in range(a.comms_per_process):
                if written >= target:
                    break
                commid = "0x%016x" % rng.getrandbits(64)
                secs = ts_base + ncomm * 7
                ts = "1129 %02d:%02d:%02d.%06d" % (secs // 3600 % 24, secs // 60 % 60, secs % 60,
                                                  rng.randrange(1000000))
                pg = str(ci)
                order = list(range(nranks))
                rng.shuffle(order)
                per_rank = []
                for r in order:
                    fc, fph, rc, rph, tbase = gtemplates[r]
                    chunks, ph = (fc, fph) if ci == 0 else (rc, rph)
                    chunks = list(chunks)
                    comm = "0x%x" % (0x550000000000 | rng.getrandbits(40))
                    tsvc = str(tbase + ci * 3)
                    for j in ph:
                        chunks[j] = (chunks[j].replace(PH_COMM, comm).replace(PH_COMMID, commid)
                                     .replace(PH_TS, ts).replace(PH_TSVC, tsvc)
                                     .replace(PH_TUDS, str(tbase + ci * 3 + 1))
                                     .replace(PH_TPRG, str(tbase + ci * 3 + 2)).replace(PH_PG, pg))
                    per_rank.append(chunks)
                parts = []
                if gen > 0 and ci == 0:
                    parts.append(restart % (10 - gen % 10))
                for group in itertools.zip_longest(*per_rank, fillvalue=""):
                    parts.append("".join(group))
                # rank-0 training progress after each communicator is up
                app = []
                for _ in range(24):
                    step += 1
                    app.append("step %d | loss %.4f | lr %.3e | grad_norm %.3f | tokens/s %.3e | mfu %.1f%%\n" % (
                        step, 7.5 * 0.9995 ** step + rng.random() * 0.05, 3e-4 * min(1, step / 2000),
                        0.5 + rng.random(), 1.9e6 + rng.random() * 2e5, 38 + rng.random() * 4))
                parts.append("".join(app))
                text = "".join(parts)
                out.write(text)
                written += len(text)
                ncomm += 1
            gen += 1
    finally:
        if out is not sys.stdout:
            out.close()
    if not a.quiet:
        print("gen-log: wrote %s: %d bytes (%.1f MiB), %d communicators, %d process generations, "
              "%d nodes x %d ranks, socket node %s, %.1f s"
              % (a.out, written, written / 1048576, ncomm, gen, N, rpn,
                 ("node-%03d" % a.socket_node) if a.socket_node >= 0 else "none", time.time() - t0),
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # e.g. `gen-log.py --out - | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
