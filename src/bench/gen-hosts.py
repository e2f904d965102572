#!/usr/bin/env python3
"""Generate an NCCL_DEBUG=INFO log of many distinct hosts, one rank each, every line from
another host than the line before: pass after pass over all hosts (bootstrap lines of every
host, then NET/IB lines of every host, ...), so every part of the file holds every host. One host
(--socket-host) has no RDMA device and runs on sockets. Stdlib only, deterministic.

  python3 src/bench/gen-hosts.py --out FILE --hosts 100000 --socket-host 77777
"""

import argparse
import sys


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="output file ('-' for stdout)")
    p.add_argument("--hosts", type=int, default=100000)
    p.add_argument("--socket-host", type=int, default=77777, help="index of the host on sockets (-1: none)")
    a = p.parse_args(argv)
    n = a.hosts
    out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="ascii", newline="\n", buffering=16 << 20)

    def pre(i):
        pid = 1000 + i % 50000
        return "host-%06d:%d:%d [0] NCCL INFO " % (i, pid, pid)

    def addr(i):
        return "10.%d.%d.%d" % (i >> 16 & 255, i >> 8 & 255, i & 255)

    sock = a.socket_host
    passes = [
        lambda i: "Bootstrap : Using eth0:%s<0>" % addr(i),
        lambda i: ("NET/IB : No device found." if i == sock
                   else "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:%s<0>" % addr(i)),
        lambda i: "Using network %s" % ("Socket" if i == sock else "IB"),
        lambda i: ("comm 0x%x rank %d nRanks %d nNodes %d localRanks 1 localRank 0 MNNVL 0"
                   % (0x7f0000000000 + i, i, n, n)),
        lambda i: ("Channel 00/0 : %d[0] -> %d[0] [send] via NET/%s" % (i, (i + 1) % n,
                   "Socket/0" if i == sock else "IB/0/GDRDMA")),
        lambda i: ("Channel 00/0 : %d[0] -> %d[0] [receive] via NET/%s" % ((i + n - 1) % n, i,
                   "Socket/0" if i == sock or (i + n - 1) % n == sock else "IB/0/GDRDMA")),
    ]
    for line in passes:
        out.write("".join(pre(i) + line(i) + "\n" for i in range(n)))
    if out is not sys.stdout:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
