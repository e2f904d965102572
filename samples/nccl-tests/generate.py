#!/usr/bin/env python3
"""Writes the sample nccl-tests outputs from the format in nccl-log-spec.md §12 (synthetic numbers:
busbw(S) = plateau * S / (S + half) with small in-place/out-of-place jitter). Re-run to regenerate."""
import random

def fstr(v, width):  # getFloatStr (2.17.3+): %.2f, then %.1f, %.0f, then exponent, to fit the width
    for f in ("%.2f", "%.1f", "%.0f"):
        s = f % v
        if len(s) <= width:
            return s
    return "%.0e" % v

def time_old(t):  # <=2.17.2 time string
    return "%7.0f" % t if t > 10000 else "%7.1f" % t if t >= 100 else "%7.2f" % t

def rows(gen, n, plateau, half, max_bytes, lat_us, seed, coll="all_reduce"):
    random.seed(seed)
    out = []
    size = 8
    factor = 2 * (n - 1) / n
    while size <= max_bytes:
        count = size // 4
        groups = []
        for _ in range(2):
            bus = plateau * size / (size + half) * random.uniform(0.985, 1.0)
            alg = bus / factor
            t = lat_us + size / (alg * 1e3) if alg > 0 else lat_us
            alg = size / (t * 1e3)
            bus = alg * factor
            groups.append((t, alg, bus))
        if gen == "2.17.3":
            line = "%12li  %12li  %8s  %6s  %6i" % (size, count, "float", "sum", -1)
            for t, a, b in groups:
                line += "  %7s  %6s  %6s  %6g" % (fstr(t, 7), fstr(a, 6), fstr(b, 6), 0)
        elif gen == "2.13":
            line = "%12li  %12li  %8s  %6s  %6i" % (size, count, "float", "sum", -1)
            for t, a, b in groups:
                line += "  %7s  %6.2f  %6.2f  %5g" % (time_old(t), a, b, 0)
        else:  # <=2.11
            line = "%12li  %12li  %8s  %6s" % (size, count, "float", "sum")
            for t, a, b in groups:
                line += "  %7s  %6.2f  %6.2f  %5.0le" % (time_old(t), a, b, 0.0)
        out.append((line, groups))
        size *= 2
    return out

HDR_NEW = """#                                                              out-of-place                       in-place          
#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong 
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         
"""
HDR_MID = """#                                                              out-of-place                       in-place          
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       
"""
HDR_OLD = """#                                                     out-of-place                       in-place          
#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error
#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       
"""

def ranks(gen, hosts, per):
    out = ["# Using devices"]
    r = 0
    for h, host in enumerate(hosts):
        for d in range(per):
            pid = 4100 + h * 100 + d
            bus = [0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb][d % 8]
            if gen == "2.11":
                out.append("#   Rank %2d Pid %6d on %10s device %2d [0x%02x] NVIDIA H100 80GB HBM3" % (r, pid, host, d, bus))
            else:
                out.append("#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] NVIDIA H100 80GB HBM3" % (r, 0, pid, host, d, 0, bus, 0))
            r += 1
    return out

def write(name, gen, hosts, per, plateau, half, max_bytes, lat, seed, nccl=(), newfooter=True):
    n = len(hosts) * per
    lines = []
    if gen == "2.17.3":
        lines.append("# nccl-tests version 2.17.6 nccl-headers=22703 nccl-library=22703")
        lines.append("# Collective test starting: all_reduce_perf")
        lines.append("# nThread 1 nGpus 1 minBytes 8 maxBytes %d step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0 unalign: 0" % max_bytes)
    elif gen == "2.13":
        lines.append("# nThread 1 nGpus 1 minBytes 8 maxBytes %d step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0" % max_bytes)
    else:
        lines.append("# nThread 1 nGpus 1 minBytes 8 maxBytes %d step: 2(factor) warmup iters: 5 iters: 20 validation: 1 " % max_bytes)
    lines.append("#")
    lines += ranks(gen, hosts, per)
    lines += list(nccl)
    lines.append("#")
    lines += (HDR_NEW if gen == "2.17.3" else HDR_MID if gen == "2.13" else HDR_OLD).rstrip("\n").split("\n")
    rs = rows(gen, n, plateau, half, max_bytes, lat, seed)
    total = 0
    for i, (line, groups) in enumerate(rs):
        lines.append(line)
        total += groups[0][2] + groups[1][2]
    lines.append("# Out of bounds values : 0 OK")
    lines.append("# Avg bus bandwidth    : %g " % (total / (2 * len(rs))))
    if gen == "2.17.3":
        lines.append("#")
        lines.append("# Collective test concluded: all_reduce_perf")
    lines.append("")
    with open(name, "w") as f:
        f.write("\n".join(lines))

TWO = ["gpu-node-a", "gpu-node-b"]
write("01-healthy-8x400g-2.17.6.out", "2.17.3", TWO, 8, 372, 24 << 20, 8 << 30, 28, 1)
sock = ["gpu-node-a:4100:4180 [0] NCCL INFO NET/Socket : Using [0]eth0:10.244.1.17<0>",
        "gpu-node-a:4100:4180 [0] NCCL INFO Using network Socket",
        "gpu-node-a:4100:4191 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/Socket/0",
        "gpu-node-a:4100:4191 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/Socket/0"]
write("02-socket-fallback-2.15.out", "2.13", TWO, 8, 10.2, 4 << 20, 8 << 30, 160, 2, nccl=sock)
write("03-no-gdr-2.11.out", "2.11", TWO, 8, 171, 16 << 20, 8 << 30, 40, 3)
write("04-two-of-eight-nics-2.17.6.out", "2.17.3", TWO, 8, 96, 16 << 20, 8 << 30, 30, 4)
write("05-single-node-nvlink-2.17.6.out", "2.17.3", ["gpu-node-a"], 8, 480, 32 << 20, 8 << 30, 18, 5)
write("06-too-small-2.15.out", "2.13", TWO, 8, 372, 24 << 20, 1 << 20, 28, 6)
