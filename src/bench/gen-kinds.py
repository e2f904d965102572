#!/usr/bin/env python3
"""Generates a log made of one line kind, for bench-kinds.sh (see README.md here).

  gen-kinds.py --kind warn --size-mib 100 --out FILE [--seed 1]
  gen-kinds.py --list

Every line carries a realistic NCCL prefix ("host:pid:tid [dev] NCCL INFO ...") of one of 64
hosts x 8 ranks x a few threads, and the numbers in the messages vary (addresses, ports, ranks,
channel ids, source lines), so that no cache sees one line over and over; but like a real failing
job, each rank repeats the same handful of WARN and unwind texts. Shapes follow
/work/shared/nccl-log-spec.md. Stdlib only, deterministic for given arguments.
"""
import argparse
import random
import sys

HOSTS = 64
RANKS = 8


class Prefixes:
    """host:pid:tid [dev] for 64 hosts x 8 ranks, a main thread and two proxy threads each."""

    def __init__(self, rnd, hosts=HOSTS):
        self.rnd = rnd
        self.procs = []
        for h in range(hosts):
            for r in range(RANKS):
                pid = 1000 + rnd.randrange(60000)
                tids = [pid, pid + 40 + rnd.randrange(200), pid + 300 + rnd.randrange(200)]
                self.procs.append((f"node-{h:03d}", pid, tids, r, h * RANKS + r))
        # a connection's peer address and port are fixed: each process talks to two peers
        self.peers = {p[1]: [f"{ip(rnd)}<{rnd.randrange(30000, 65000)}>" for _ in range(2)] for p in self.procs}

    def peer(self, proc):
        return self.rnd.choice(self.peers[proc[1]])

    def pick(self):
        return self.rnd.choice(self.procs)

    def info(self, proc=None, level="INFO"):
        host, pid, tids, dev, _ = proc or self.pick()
        return f"{host}:{pid}:{self.rnd.choice(tids)} [{dev}] NCCL {level} "


def ip(rnd):
    return f"10.{rnd.randrange(1, 250)}.{rnd.randrange(256)}.{rnd.randrange(1, 255)}"


def k_channel(rnd, pf):
    host, pid, tids, dev, rank = p = pf.pick()
    c = rnd.randrange(32)
    if rnd.random() < 0.6:
        peer = rank - dev + (dev + 1) % RANKS
        how = rnd.choice(["P2P/CUMEM/read", "P2P/IPC", "P2P/CUMEM", "SHM/direct/direct"])
        return f"{pf.info(p)}Channel {c:02d}/0 : {rank}[{dev}] -> {peer}[{(dev + 1) % RANKS}] via {how}"
    peer = (rank + RANKS) % (HOSTS * RANKS)
    d = rnd.choice(["[send]", "[receive]"])
    return f"{pf.info(p)}Channel {c:02d}/0 : {peer}[{dev}] -> {rank}[{dev}] {d} via NET/IB/{dev}/GDRDMA"


def k_ring(rnd, pf):
    p = pf.pick()
    r = rnd.random()
    if r < 0.4:
        ranks = " ".join(f"{rnd.randrange(512):4d}" for _ in range(20))
        return f"{pf.info(p)}Channel {rnd.randrange(32):02d}/32 : {ranks}"
    if r < 0.8:
        parts = " ".join(
            f"[{i}] {rnd.randrange(512)}/{rnd.randrange(-1, 512)}/-1->{rnd.randrange(512)}->{rnd.randrange(-1, 512)}"
            for i in range(rnd.randrange(2, 9)))
        return f"{pf.info(p)}Trees {parts}"
    a = rnd.randrange(512)
    return f"{pf.info(p)}Ring {rnd.randrange(16):02d} : {a}[{a % 8}] -> {a + 1}[{(a + 1) % 8}] via P2P/IPC"


def k_topo(rnd, pf):
    p = pf.pick()
    bus = f"{rnd.randrange(256):02x}000"
    return f"{pf.info(p)}" + rnd.choice([
        f"=== System : maxBw {rnd.randrange(10, 400)}.0 totalBw {rnd.randrange(10, 900)}.0 ===",
        f"CPU/{rnd.randrange(4)} ({rnd.randrange(1, 3)}/{rnd.randrange(1, 3)}/{rnd.randrange(1, 5)})",
        f"+ PCI[{rnd.choice(['24.0', '48.0', '5000.0'])}] - PCI/{bus} ({rnd.randrange(10**6):x}{rnd.randrange(10**6):x})",
        f"+ PCI[24.0] - GPU/{bus} ({rnd.randrange(8)})",
        f"+ NVL[{rnd.randrange(100, 480)}.0] - NVS/0",
        f"+ PCI[24.0] - NIC/{bus}",
        f"+ NET[{rnd.choice(['25.0', '50.0'])}] - NET/{rnd.randrange(8)} ({rnd.randrange(2**32):x}/1/{rnd.randrange(200)}.000000)",
        f"Pattern {rnd.choice([1, 2, 3, 4])}, crossNic {rnd.randrange(2)}, nChannels {rnd.randrange(1, 33)}, "
        f"bw {rnd.randrange(1, 400)}.000000/{rnd.randrange(1, 400)}.000000, type NVL/PIX, sameChannels {rnd.randrange(2)}",
        f" {rnd.randrange(32)} : NET/{rnd.randrange(8)} GPU/{rnd.randrange(8)} GPU/{rnd.randrange(8)} NET/{rnd.randrange(8)}",
        f"Setting affinity for GPU {rnd.randrange(8)} to ffff,ffff0000,{rnd.randrange(2**32):08x}",
        f"NVLS multicast support is not available on dev {rnd.randrange(8)}",
        f"P2P Chunksize set to {rnd.choice([131072, 524288])}",
        f"{rnd.randrange(1, 33)} coll channels, {rnd.randrange(33)} collnet channels, 0 nvls channels, "
        f"{rnd.randrange(33)} p2p channels, {rnd.randrange(33)} p2p channels per peer",
    ])


ENV_NAMES = ["NCCL_SOCKET_IFNAME", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_DEBUG", "NCCL_IB_TIMEOUT",
             "NCCL_NET_GDR_LEVEL", "NCCL_IB_DISABLE", "NCCL_P2P_LEVEL", "NCCL_ALGO", "NCCL_PROTO"]


def k_env(rnd, pf):
    name = rnd.choice(ENV_NAMES)
    value = rnd.choice(["eth0", "net1", f"mlx5_{rnd.randrange(8)}", str(rnd.randrange(20)), "SYS", "INFO",
                        f"=mlx5_0:1,mlx5_{rnd.randrange(8)}:1"])
    how = rnd.choice(["set by environment to ", "set to "])
    dot = "." if value.isdigit() else ""
    return f"{pf.info()}{name} {how}{value}{dot}"


def k_plugin(rnd, pf):
    v = rnd.randrange(2, 10)
    return pf.info() + rnd.choice([
        "NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: "
        "No such file or directory : when loading libnccl-net.so",
        "NET/Plugin: Using internal network plugin.",
        "NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
        "NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.",
        f"NET/Plugin: Failed to find ncclNetPlugin_v{v} symbol.",
        f"TUNER/Plugin: Failed to find ncclTunerPlugin_v{v} symbol.",
        "TUNER/Plugin: Using internal tuner plugin.",
        f"TUNER/Plugin: Plugin load returned 11 : libnccl-tuner.so: cannot open shared object file: "
        f"No such file or directory : when loading libnccl-tuner.so",
        f"Using non-device net plugin version {v % 2}",
        f"Using tuner plugin nccl_ofi_tuner v{v}",
        f"threadThresholds {rnd.choice([8, 64])} / {rnd.choice([8, 64])} / 64 | {rnd.randrange(500)} / 8 / 64 | 512 | 512",
        f"CC Off, workFifoBytes {rnd.choice([1048576, 4194304])}",
        f"ncclCommInitRank comm 0x{rnd.randrange(2**40):x} rank {rnd.randrange(512)} nranks 512 cudaDev "
        f"{rnd.randrange(8)} nvmlDev {rnd.randrange(8)} busId {rnd.randrange(256):x}000 commId 0x{rnd.randrange(2**60):x} - Init COMPLETE",
    ])


def k_warn(rnd, pf):
    p = pf.pick()
    rank = p[4]
    peer = pf.peer(p)
    return pf.info(p, "WARN") + rnd.choice([
        f"NET/IB : Got completion from peer {peer} with status=12 opcode=0 len=0 vendor err 129 (Send) "
        f"localGid ::ffff:10.{rank % 250}.0.{rank % 8 + 1} remoteGids::ffff:{peer.split('<')[0]}",
        f"NET/IB : Got completion from peer {peer} with error 12, opcode 0, len 0, vendor err 129 (Send)",
        "Call to ibv_modify_qp failed with error Connection timed out",
        f"Call to ibv_reg_mr failed with error Cannot allocate memory",
        f"socketStartConnect: Connect to {peer} failed : Software caused connection abort",
        f"enqueue.cc:1093 Cuda failure 'out of memory'",
        f"Cuda failure 'an illegal memory access was encountered'",
        f"NET/IB : Got async event : {rnd.choice(['port error', 'GID table change', 'client reregistration'])}",
        f"proxy.cc:1521 NCCL WARN [Proxy Service {rank}] Failed to execute operation Connect from rank {(rank + RANKS) % (HOSTS * RANKS)}, retcode 6",
        f"[Service thread] Error encountered progressing operation=Connect, res=3, closing connection",
        f"Invalid rank requested : {HOSTS * RANKS + p[3]}/{HOSTS * RANKS}",
        f"Error: network IB not found.",
    ])


def k_warn_storm(rnd, pf):
    """A failure storm of a large job: each WARN names a peer (address and port) not seen before,
    from any of a few thousand ranks; 2.26+ puts its timestamp before every WARN line."""
    p = pf.pick()
    rank = p[4]
    peer = f"{ip(rnd)}<{rnd.randrange(1024, 65536)}>"
    addr = peer.split("<")[0]
    stamp = f"[2026-05-01 10:{rnd.randrange(60):02d}:{rnd.randrange(60):02d}] " if rnd.random() < 0.5 else ""
    gids = f" localGid ::ffff:10.{rank % 250}.0.{rank % 8 + 1} remoteGids::ffff:{addr}"
    return stamp + pf.info(p, "WARN") + rnd.choice([
        # completion errors as 2.10-2.17, 2.22-2.28.3 and 2.29+ print them (spec 4.7)
        f"NET/IB : Got completion from peer {peer} with error 5, opcode 0, len 0, vendor err 244",
        f"NET/IB: Got completion from peer {peer} with status=12 opcode=0 len=0 vendor err 129 (Recv){gids} "
        f"hca mlx5_{p[3]}",
        f"NET/IB: Got completion from peer {peer} with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) "
        f"vendor_err=129 {gids} hca mlx5_{p[3]}",
        f"socketStartConnect: Connect to {peer} failed : Connection refused",
        f"Net : Connection closed by remote peer {peer}",
        f"[Proxy Service {rank}] Failed to execute operation Connect from rank {rnd.randrange(4096)}, retcode 6",
    ])


def k_warn_new(rnd, pf):
    """WARN texts new on every line whose numbers are not addresses (a proxy's id, a rank, a size,
    a ring): nothing masks them, so each text is new to every table; most match no signature."""
    p = pf.pick()
    rank = p[4]
    return pf.info(p, "WARN") + rnd.choice([
        f"Message truncated : received {rnd.randrange(1, 1 << 22)} bytes instead of {rnd.randrange(1, 1 << 22)}",
        f"Error : ring {rnd.randrange(64)} does not loop back to start ({rnd.randrange(4096)} != 0)",
        f"[Proxy Service {rank}] Failed to execute operation Setup from rank {rnd.randrange(4096)}, retcode 3",
    ])


def k_warn_garbage(rnd, pf):
    """Failed completions as a failing job prints them on every rank (spec 4.7, real logs of the
    corpus): the status is one of a few, but the opcode and length are whatever the work completion
    held after the error (opcode=32656 len=32659), so every line is a text never seen before."""
    p = pf.pick()
    rank = p[4]
    peer = pf.peer(p)
    addr = peer.split("<")[0]
    status = rnd.choice([12, 12, 5, 13])
    vendor = rnd.choice([129, 249, 244, 81])
    opcode = rnd.choice([0, 0, 32616, 32656, 129, rnd.randrange(1 << 16)])
    length = rnd.choice([0, 65536, rnd.randrange(1 << 20), rnd.randrange(1 << 31)])
    gids = f" localGid ::ffff:10.{rank % 250}.0.{rank % 8 + 1} remoteGids::ffff:{addr}"
    return pf.info(p, "WARN") + rnd.choice([
        f"NET/IB : Got completion from peer {peer} with error {status}, opcode {opcode}, len {length}, vendor err {vendor}",
        f"NET/IB : Got completion from peer {peer} with status={status} opcode={opcode} len={length} vendor err {vendor} "
        f"(Recv){gids}",
        f"NET/IB: Got completion from peer {peer} with status={status} opcode={opcode} len={length} vendor err {vendor} "
        f"(Recv){gids} hca mlx5_{p[3]}",
    ])


UNWIND_FILES = ["transport/net.cc", "proxy.cc", "transport.cc", "init.cc", "group.cc", "enqueue.cc",
                "misc/socket.cc", "bootstrap.cc", "transport/net_ib.cc", "misc/ibvwrap.cc", "channel.cc"]


# a build's failure paths: each file unwinds through a few fixed source lines
UNWIND_SITES = [(f, random.Random(i).randrange(40, 2000)) for i, f in enumerate(UNWIND_FILES * 4)]


def k_unwind(rnd, pf):
    f, line = rnd.choice(UNWIND_SITES)
    tail = rnd.choice(["", "", " [Progress Thread]", " [Async thread]", " [Proxy Service 3]"])
    return f"{pf.info()}{f}:{line} -> {rnd.choice([2, 3, 5, 6])}{tail}"


# where a failing job's WARNs come from (spec 1.2): every NCCL since 2.7 puts the source file and
# line between the device and "NCCL WARN", and 2.30.7 the function too
WARN_SITES = [
    ("transport/net_ib.cc", 1295, "ncclIbTest", "NET/IB : Got completion from peer {peer} with status=12 opcode=0 "
     "len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGids::ffff:{addr} hca mlx5_0"),
    ("misc/ibvwrap.cc", 108, "wrap_ibv_open_device", "Call to ibv_open_device failed"),
    ("transport/net_ib/init.cc", 571, "ncclIbInitDevices", "NET/IB : Unable to open device mlx5_{dev}"),
    ("proxy.cc", 1521, "proxyServiceInitOp", "[Proxy Service {rank}] Failed to execute operation Connect from rank "
     "{peer_rank}, retcode 6"),
    ("misc/socket.cc", 484, "socketStartConnect", "socketStartConnect: Connect to {peer} failed : Connection refused"),
    ("misc/ibvwrap.cc", 225, "wrap_ibv_modify_qp", "Call to ibv_modify_qp failed with error Connection timed out"),
    ("enqueue.cc", 1093, "ncclLaunchKernel", "Cuda failure 'an illegal memory access was encountered'"),
]


def k_warn_sites(rnd, pf):
    """A failing job's WARNs as NCCL prints them: each thread warns from two or three places of its
    own (so it has as many prefixes, "init.cc:571 NCCL WARN " each), between the unwind lines of its
    INFO prefix; half the hosts as 2.7-2.25 print them, half as 2.30.7 does (a timestamp before, the
    function after the source line)."""
    host, pid, tids, dev, rank = pf.pick()
    tid = rnd.choice(tids)
    if rnd.random() < 0.4:
        f, line = rnd.choice(UNWIND_SITES[rank % 11::11])
        return f"{host}:{pid}:{tid} [{dev}] NCCL INFO {f}:{line} -> {rnd.choice([2, 3, 6])}"
    f, line, fn, text = WARN_SITES[(rank + rnd.choice([0, 3, 5])) % len(WARN_SITES)]
    peer = pf.peer((host, pid, tids, dev, rank))
    msg = text.format(peer=peer, addr=peer.split("<")[0], dev=dev, rank=rank, peer_rank=(rank + RANKS) % (HOSTS * RANKS))
    if int(host[-3:]) % 2:
        stamp = f"[2026-05-01 10:{rnd.randrange(60):02d}:{rnd.randrange(60):02d}] "
        return f"{stamp}{host}:{pid}:{tid} [{dev}] {f}:{line} ({fn}) NCCL WARN {msg}"
    return f"{host}:{pid}:{tid} [{dev}] {f}:{line} NCCL WARN {msg}"


def k_bootstrap(rnd, pf):
    p = pf.pick()
    peer = pf.peer(p)
    r = rnd.random()
    if r < 0.4:
        # a process's own interface and address (the same on every line of the process)
        return f"{pf.info(p)}Bootstrap : Using {['eth0', 'net1', 'ib0', 'bond0'][p[4] % 4]}:10.{p[4] % 250}.{p[1] % 256}.{p[3] + 1}<0>"
    if r < 0.6:
        return f"{pf.info(p)}bootstrap.cc:{rnd.choice([83, 270, 282, 551, 660])} -> {rnd.choice([2, 3, 6])}"
    return pf.info(p, "WARN") + rnd.choice([
        f"Bootstrap : no socket interface found",
        f"bootstrap.cc:196 NCCL WARN Bootstrap Root : rank {p[4]} of 512 ranks has already checked in",
        f"socketStartConnect: Connect to {peer} failed : Connection refused",
        f"socketPollConnect: Connect to {peer} returned 111(Connection refused) errno 115(Operation now in progress)",
        f"Bootstrap : unexpected connection from {peer}",
        f"Net : Connection closed by remote peer {peer}",
        f"Bootstrap: connection from {peer} timed out after {rnd.choice([30, 60, 120])} s",
    ])


def k_netib(rnd, pf):
    # once-per-process lines: what a process prints is fixed by its host (HCAs) and its address
    p = pf.pick()
    host, pid, _, dev, rank = p
    h = rank // RANKS
    n = h % 8 + 1
    hcas = " ".join(f"[{i}]mlx5_{i}:1/{'RoCE' if h % 3 == 0 else 'IB'}" for i in range(n))
    addr = f"10.{h % 250}.{pid % 256}.{dev + 1}"
    r = rnd.random()
    if r < 0.6:
        return f"{pf.info(p)}NET/IB : Using {hcas} [RO]; OOB {['net1', 'eth0', 'ib0'][h % 3]}:{addr}<0>"
    if r < 0.8:
        return f"{pf.info(p)}NET/Socket : Using [0]eth0:{addr}<0> [1]eth1:10.{h % 250}.{pid % 256}.{dev + 101}<0>"
    return f"{pf.info(p)}NET/IB : GPU Direct RDMA Enabled for HCA {rnd.randrange(n)} 'mlx5_{rnd.randrange(n)}'"


def k_netofi(rnd, pf):
    return pf.info() + rnd.choice([
        f"NET/OFI Using aws-ofi-nccl 1.{rnd.randrange(5, 14)}.{rnd.randrange(4)}-aws",
        f"NET/OFI Selected Provider is efa (found {rnd.choice([1, 4, 32])} nics)",
        "NET/OFI Libfabric provider associates MRs with domains",
        f"NET/OFI Setting NCCL_PROTO to \"simple\"",
        f"NET/OFI Configuring AWS-specific options",
        f"NET/OFI Creating one domain per process",
        f"NET/OFI Support for global registrations: true",
        f"NET/OFI Using Libfabric version 1.{rnd.randrange(15, 22)}",
        f"NET/OFI Using CUDA driver version {rnd.randrange(11000, 12600)}",
        f"NET/OFI Could not disable CUDA API usage for HMEM, disabling GDR",
    ])


def k_netib_qp(rnd, pf):
    """NCCL_DEBUG_SUBSYS=NET (or ALL): the IB transport's line per queue pair, each with a queue
    pair number of its own; the shapes of 2.4-2.18 and of 2.19+ (IB and RoCE), and their set_ece."""
    host, pid, tids, dev, rank = p = pf.pick()
    qpn = rnd.randrange(100, 1 << 20)
    r = rnd.random()
    if r < 0.15:
        return f"{pf.info(p)}NET/IB: Dev {dev} Port 1 qpn {qpn} mtu 5 LID {rnd.randrange(1, 2000)}"
    if r < 0.3:
        return f"{pf.info(p)}NET/IB: Dev {dev} Port 1 qpn {qpn} mtu 5 GID 3 (0/{rnd.randrange(1 << 32):X}FFFF0000)"
    if r < 0.55:
        return (f"{pf.info(p)}NET/IB: NCCL Dev {dev} IbDev {dev} Port 1 qpn {qpn} mtu 5 LID {rnd.randrange(1, 2000)} "
                f"subnet-prefix 18338657682652659712 FLID 0 fifoRkey=0x{rnd.randrange(1 << 24):x} fifoLkey=0x{rnd.randrange(1 << 24):x}")
    if r < 0.85:
        return (f"{pf.info(p)}NET/IB: NCCL Dev {dev} IbDev {dev} Port 1 qpn {qpn} mtu 5 query_ece={{supported=1, "
                f"vendor_id=0x2c9, options=0x30000002, comp_mask=0x0}} GID 3 (0/{rnd.randrange(1 << 32):x}FFFF0000) "
                f"fifoRkey=0x{rnd.randrange(1 << 24):x} fifoLkey=0x{rnd.randrange(1 << 24):x}")
    return (f"{pf.info(p)}NET/IB: IbDev {dev} Port 1 qpn {qpn} set_ece={{supported=1, vendor_id=0x2c9, "
            f"options=0x30000002, comp_mask=0x0}}")


def k_app(rnd, pf):
    r = rnd.random()
    ts = f"2026-05-01 10:{rnd.randrange(60):02d}:{rnd.randrange(60):02d},{rnd.randrange(1000):03d}"
    if r < 0.3:
        return (f"[rank{rnd.randrange(512)}]: Epoch {rnd.randrange(90)} step {rnd.randrange(100000)} "
                f"loss {rnd.random() * 4:.4f} lr {rnd.random() / 1000:.6f} throughput {rnd.random() * 900:.1f} samples/s")
    if r < 0.5:
        return f"[{ts}] torch.distributed.run: [WARNING] " + "*" * 41
    if r < 0.7:
        return (f"{ts} INFO trainer.py:{rnd.randrange(900)} - iteration {rnd.randrange(10**6)}/"
                f"{10**6} | consumed samples: {rnd.randrange(10**8)} | elapsed time per iteration (ms): {rnd.random() * 2000:.1f}")
    if r < 0.85:
        return f"  File \"/usr/lib/python3/dist-packages/torch/nn/modules/module.py\", line {rnd.randrange(2000)}, in _call_impl"
    return f"I0501 10:00:{rnd.randrange(60):02d}.{rnd.randrange(10**6):06d} {rnd.randrange(100, 999)} ProcessGroupNCCL.cpp:{rnd.randrange(2000)}] [Rank {rnd.randrange(512)}] ProcessGroupNCCL initialization options: size: 512"


def k_no_host(rnd, pf):
    """A paste that lost its hosts (3 of the shared corpus's 32 logs): channel and once-per-comm
    lines with "NCCL INFO " alone, or " [dev] NCCL INFO ", before the message."""
    line = k_channel(rnd, pf) if rnd.random() < 0.6 else k_init_misc(rnd, pf)
    at = line.index(" NCCL INFO ")
    if rnd.random() < 0.5:
        return line[at + 1:]
    return line[line.rindex(" [", 0, at):]


def k_torch_failures(rnd, pf):
    """A hung collective as PyTorch reports it on every rank (ProcessGroupNCCL.cpp's watchdog): each
    line a failure whose kind is read from its words, with the rank, time and counters of its own."""
    r = rnd.randrange(HOSTS * RANKS)
    stamp = f"[rank{r}]:[E501 10:{rnd.randrange(60):02d}:{rnd.randrange(60):02d}.{rnd.randrange(10**6):06d} {rnd.randrange(100, 999)} "
    return stamp + rnd.choice([
        f"ProcessGroupNCCL.cpp:616] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum="
        f"{rnd.randrange(10**5)}, OpType=ALLREDUCE, NumelIn={rnd.randrange(10**8)}, NumelOut={rnd.randrange(10**8)}, "
        f"Timeout(ms)=600000) ran for {600000 + rnd.randrange(100)} milliseconds before timing out.",
        f"ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank {r}] Exception (either an error or timeout) detected by "
        f"watchdog at work: {rnd.randrange(10**5)}, last enqueued NCCL work: {rnd.randrange(10**5)}, last completed "
        f"NCCL work: {rnd.randrange(10**5)}.",
        f"ProcessGroupNCCL.cpp:1902] [PG 0 (default_pg) Rank {r}] Timeout at NCCL work: {rnd.randrange(10**5)}, last "
        f"enqueued NCCL work: {rnd.randrange(10**5)}, last completed NCCL work: {rnd.randrange(10**5)}.",
        f"ProcessGroupNCCL.cpp:630] [Rank {r}] Some NCCL operations have failed or timed out. Due to the asynchronous "
        f"nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
    ])


def k_coll(rnd, pf):
    """NCCL_DEBUG_SUBSYS=COLL: a line per collective call, every one with new numbers (the op count,
    buffers, sizes, a stream), for the whole run: the bulk of a large log when users turn it on."""
    op = rnd.choice(["AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "Send", "Recv"])
    return (f"{pf.info()}{op}: opCount {rnd.randrange(1 << 20):x} sendbuff 0x7f{rnd.randrange(1 << 36):09x} "
            f"recvbuff 0x7f{rnd.randrange(1 << 36):09x} count {rnd.randrange(1 << 24)} datatype {rnd.randrange(10)} "
            f"op {rnd.randrange(4)} root {rnd.randrange(HOSTS * RANKS)} comm 0x55d0{rnd.randrange(1 << 32):08x} "
            f"[nranks={HOSTS * RANKS}] stream 0x55d0{rnd.randrange(1 << 32):08x}")


def k_trace(rnd, pf):
    """A TRACE build's lines (spec 1.3: "host:pid:tid [dev] time func:line NCCL TRACE "), and 2.18+'s
    "NCCL CALL" lines: counted as NCCL's, nothing in them read."""
    host, pid, tids, dev, _ = pf.pick()
    tid = rnd.choice(tids)
    if rnd.random() < 0.2:
        return f"{host}:{pid}:{tid} NCCL CALL ncclGroupEnd()"
    fn = rnd.choice(["ncclProxyProgress", "sendProxyProgress", "recvProxyProgress", "ncclIbIsend", "ncclIbTest"])
    return (f"{host}:{pid}:{tid} [{dev}] {rnd.randrange(10 ** 6)}.{rnd.randrange(10 ** 6):06d} {fn}:{rnd.randrange(2000)} "
            f"NCCL TRACE {rnd.choice(['Sent', 'Received', 'Posted'])} {rnd.randrange(1 << 20)} bytes to rank "
            f"{rnd.randrange(HOSTS * RANKS)} channel {rnd.randrange(32)} step {rnd.randrange(1 << 16)}")


def k_init_misc(rnd, pf):
    """The other once-per-communicator INFO lines of 2.19-2.27 (proxy threads' CPU cores, NVLS, the
    thresholds, channel counts, Init COMPLETE with its ids, init timings): no family reads most."""
    r = lambda n: rnd.randrange(n)  # noqa: E731
    return pf.info() + rnd.choice([
        f"[Proxy Service {r(512)}] Device {r(8)} CPU core {r(96)}",
        f"[Proxy Progress] Device {r(8)} CPU core {r(96)}",
        f"NVLS comm 0x55d0{r(1 << 32):08x} headRank {r(8)} nHeads 8 buffSize 1048576 memSize 2097152 "
        f"nvlsPerRankSize 201326592 nvlsTotalSize 1610612736",
        "threadThresholds 8/8/64 | 4096/8/64 | 512 | 512",
        f"{r(32)} coll channels, {r(32)} collnet channels, 0 nvls channels, {r(32)} p2p channels, 2 p2p channels per peer",
        "CC Off, workFifoBytes 1048576",
        f"P2P Chunksize set to {rnd.choice([131072, 524288])}",
        f"ncclCommInitRankConfig comm 0x55d0{r(1 << 32):08x} rank {r(512)} nranks 512 cudaDev {r(8)} nvmlDev {r(8)} "
        f"busId {r(1 << 8):x}000 commId 0x{r(1 << 63):x} - Init COMPLETE",
        f"Init timings - ncclCommInitRankConfig: rank {r(512)} nranks 512 total {rnd.random():.2f} (kernels "
        f"{rnd.random():.2f}, alloc {rnd.random():.2f}, bootstrap {rnd.random():.2f}, allgathers {rnd.random():.2f}, "
        f"topo {rnd.random():.2f}, graphs {rnd.random():.2f}, connections {rnd.random():.2f}, rest {rnd.random():.2f})",
    ])


def k_tests_rows(rnd, pf):
    """nccl-tests' output (spec 12): its data rows, between NCCL's lines, as a long sweep prints them."""
    if rnd.random() < 0.1:
        return pf.info() + f"Channel {rnd.randrange(32):02d}/0 : 0[0] -> 1[1] via P2P/CUMEM/read"
    size = 1 << rnd.randrange(3, 34)
    f = lambda: f"{rnd.random() * 1000:7.2f}  {rnd.random() * 400:6.2f}  {rnd.random() * 400:6.2f}       0"  # noqa: E731
    return f"{size:12d}  {size // 4:12d}     float     sum      -1  {f()}  {f()}"


def k_garbage(rnd, pf):
    r = rnd.random()
    if r < 0.4:
        return ""
    if r < 0.6:
        return " " * rnd.randrange(1, 20)
    n = rnd.randrange(8, 200)
    return bytes(rnd.choice(b"abcdefghijklmnopqrstuvwxyz0123456789 :[]/<>.-_\t\x01\x7f\xff\xc3")
                 for _ in range(n)).decode("latin-1")


def k_short(rnd, pf):
    """Another program's short lines: counters, words, values, spacing (most under 8 bytes)."""
    r = rnd.random()
    if r < 0.05:
        return k_channel(rnd, pf)
    if r < 0.2:
        return ""
    if r < 0.45:
        return str(rnd.randrange(10 ** rnd.randrange(1, 7)))
    if r < 0.65:
        return rnd.choice(["ok", "done", ".", "..", "...", "---", "y", "OK", "True", "False", "None", "[]", "{}", "*"])
    if r < 0.85:
        return f"{rnd.random() * 10:.4f}"
    return f"step {rnd.randrange(1000)}: {rnd.random():.3f}"


def k_app_short(rnd, pf):
    """A training script's own short lines (20-70 bytes): progress, losses, checkpoints, a rank's
    tag, py-spy's frames; another program's lines between which no NCCL line stands."""
    r = rnd.random()
    if r < 0.25:
        return f"step {rnd.randrange(10 ** 5)} loss {rnd.random() * 4:.4f} lr {rnd.random() / 1000:.2e}"
    if r < 0.4:
        return (f"Epoch {rnd.randrange(10)}/10: {rnd.randrange(100)}%| {rnd.randrange(1000)}/1000 "
                f"[01:{rnd.randrange(60):02d}<01:{rnd.randrange(60):02d}, {rnd.random() * 9:.2f}it/s]")
    if r < 0.55:
        return f"INFO:root:Saving checkpoint to /ckpt/step_{rnd.randrange(10 ** 5)}"
    if r < 0.7:
        return f"rank {rnd.randrange(64)}: batch {rnd.randrange(10 ** 4)} done in {rnd.random():.3f}s"
    if r < 0.85:
        return f"    all_reduce (torch/distributed/distributed_c10d.py:{rnd.randrange(3000)})"
    return f"[rank{rnd.randrange(64)}]: tokens/s {rnd.randrange(10 ** 6)} mfu {rnd.random():.3f}"


def k_framework_logs(rnd, pf):
    """A training framework's own loggers, none of them NCCL's and none failing: DeepSpeed's and
    Python logging's bracketed fields ("] [INFO] [" holds "] " twice, as before 2.3's "[0] INFO"
    does once), glog/absl's and c10's level letter and source site, Megatron's iteration line."""
    r = rnd.random()
    if r < 0.35:
        site = rnd.choice(["engine.py", "logging.py", "timer.py", "config.py"])
        fn = rnd.choice(["step", "log_dist", "_configure_optimizer", "print"])
        return (f"[2024-05-{rnd.randrange(1, 29):02d} {rnd.randrange(24):02d}:{rnd.randrange(60):02d}:"
                f"{rnd.randrange(60):02d},{rnd.randrange(1000):03d}] [{rnd.choice(['INFO', 'WARNING'])}] "
                f"[{site}:{rnd.randrange(10, 999)}:{fn}] " + rnd.choice([
                    f"step={rnd.randrange(10 ** 5)}, skipped=0, lr=[{rnd.random() / 1000:.6f}], mom=[(0.9, 0.95)]",
                    f"rank={rnd.randrange(64)} time (ms) | forward: {rnd.random() * 300:.2f} | backward: "
                    f"{rnd.random() * 600:.2f} | optimizer: {rnd.random() * 30:.2f}",
                    "DeepSpeed Flops Profiler Enabled: False", f"bf16_optimizer: loss scale {2 ** rnd.randrange(20)}"]))
    if r < 0.6:
        site = rnd.choice(["gpu_util.cc", "pjrt_client.cc", "coordination_service.cc", "cuda_dnn.cc"])
        return (f"{rnd.choice('IW')}05{rnd.randrange(1, 29):02d} {rnd.randrange(24):02d}:{rnd.randrange(60):02d}:"
                f"{rnd.randrange(60):02d}.{rnd.randrange(10 ** 6):06d} {rnd.randrange(1000, 99999)} {site}:"
                f"{rnd.randrange(1, 900)}] " + rnd.choice([
                    "Using BFC allocator.", f"XLA service 0x{rnd.randrange(16 ** 12):x} initialized for platform CUDA",
                    f"  StreamExecutor device ({rnd.randrange(8)}): NVIDIA H100 80GB HBM3, Compute Capability 9.0",
                    "Loaded cuDNN version 8907"]))
    if r < 0.8:
        rank = rnd.randrange(64)
        return (f"[{rnd.choice('IW')}501 {rnd.randrange(24):02d}:{rnd.randrange(60):02d}:{rnd.randrange(60):02d}."
                f"{rnd.randrange(10 ** 6):06d} {rnd.randrange(1000, 99999)} torch/csrc/distributed/c10d/"
                + rnd.choice([f"ProcessGroupNCCL.cpp:{rnd.randrange(900)}] [PG 0 Rank {rank}] ProcessGroupNCCL "
                              f"initialization options: size: 64, global rank: {rank}, TIMEOUT(ms): 600000",
                              f"TCPStore.cpp:{rnd.randrange(900)}] [c10d] The server socket has started to listen on "
                              f"[::]:29500.",
                              f"socket.cpp:{rnd.randrange(900)}] [c10d] The client socket has connected to "
                              f"[master-0]:29500 on [worker-{rank}]:{rnd.randrange(30000, 60000)}."]))
    return (f" iteration {rnd.randrange(10 ** 5):8d}/  500000 | consumed samples: {rnd.randrange(10 ** 7):12d} | "
            f"elapsed time per iteration (ms): {rnd.random() * 3000:.1f} | learning rate: {rnd.random() / 1000:.6E} | "
            f"global batch size:  1024 | lm loss: {rnd.random() * 9:.6E} | loss scale: 1.0 | grad norm: "
            f"{rnd.random() * 3:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")


def k_pod_ranks(rnd, pf):
    """A PyTorchJob's 256 Pods in one stream, 8 ranks each: every container forks alike (and a PID
    namespace per Pod starts alike), so every Pod's ranks have the same pids and tids; threads
    differ only in the last bytes of their Pod's name, before the 16 of "12345:13405 [3] NCCL"."""
    p = rnd.randrange(256)
    dev = rnd.randrange(8)
    pid = 12345 + dev
    tid = pid + rnd.choice([0, 0, 0, 1060, 1061])
    pre = f"train-{p}:{pid}:{tid} [{dev}] NCCL "
    x = rnd.random()
    if x < 0.6:
        return (pre + f"INFO Channel {rnd.randrange(32):02d}/0 : {p * 8 + dev}[{dev}] -> {(p * 8 + dev + 8) % 2048}[{dev}]"
                f" [send] via NET/IB/{dev}/GDRDMA")
    if x < 0.8:
        return pre + "INFO Connected all rings"
    return (pre + f"WARN NET/IB : Got completion from peer 10.0.{p}.{dev}<{rnd.randrange(40000, 60000)}> with status=12 "
            "opcode=0 len=0 vendor err 129 (Recv)")


def k_hosts(rnd, pf):
    # 100000 hosts, never two consecutive lines of one: every line's prefix is new to the cache
    h = rnd.randrange(100000)
    dev = rnd.randrange(8)
    return (f"host-{h:06d}:{1000 + h % 50000}:{1000 + h % 50000} [{dev}] NCCL INFO Channel {rnd.randrange(32):02d}/0 : "
            f"{h * 8 + dev}[{dev}] -> {h * 8 + (dev + 1) % 8}[{(dev + 1) % 8}] via P2P/CUMEM/read")


def k_ranks(rnd, pf):
    # a large job's ranks in one stream: 4096 hosts x 8 ranks, every rank inside the hosts a log
    # tells apart (32768), lines in no order of rank (an aggregator's time order at start-up): more
    # threads than the prefix cache holds, each a process of its own; a WARN now and then
    h = rnd.randrange(4096)
    r = rnd.randrange(8)
    pid = 2000 + h % 2000 * 8 + r
    pre = f"gpu-{h:04d}:{pid}:{pid + 100} [{r}] NCCL "
    if rnd.random() < 0.9:
        return (pre + f"INFO Channel {rnd.randrange(32):02d}/0 : {h * 8 + r}[{r}] -> {h * 8 + (r + 1) % 8}"
                f"[{(r + 1) % 8}] via P2P/CUMEM/read")
    return pre + f"WARN NET/IB : Got completion from peer 10.4.{h // 256}.{h % 256}<{40000 + r}> with status=12"


class HostInit:
    """A large job's start-up: 16384 hosts x 8 ranks, each process printing its once-per-process
    and first communicator's init lines, where its host's own address is in the Bootstrap, NET/IB
    (or NET/Socket) lines; 64 processes' blocks interleave. Most texts are new to every memo once
    per host, then seen by its other seven ranks."""

    def __init__(self):
        self.active = []
        self.next_host = 0
        self.generation = 0

    def block(self, rnd, h, r):
        host = f"gpu-{h:05d}"
        pid = 1000 + (h * 8 + r + self.generation * 7919) % 60000
        pre = f"{host}:{pid}:{pid} [{r}] NCCL INFO "
        addr = f"10.{h // 256 % 250}.{h % 256}.{1 + self.generation % 250}"
        iface = ["eth0", "net1", "ib0", "bond0"][h % 4]
        rank, nranks = h * 8 + r, 16384 * 8
        comm = f"0x{rnd.randrange(0x550000000000, 0x560000000000):x}"
        lines = [
            f"Bootstrap : Using {iface}:{addr}<0>",
            "NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.",
            f"cudaDriverVersion {12020 + h % 3 * 20}",
            f"NCCL_SOCKET_IFNAME set by environment to {iface}",
        ]
        if h % 64 == 7:  # a node without an RDMA device in the container
            lines += ["NET/IB : No device found.", f"NET/Socket : Using [0]{iface}:{addr}<0>", "Using network Socket"]
        else:
            hcas = "".join(f" [{i}]mlx5_{i}:1/IB" for i in range(8))
            lines += [f"NET/IB : Using{hcas} [RO]; OOB {iface}:{addr}<0>", "Using network IB",
                      f"DMA-BUF is available on GPU device {r}"]
        lines += [
            f"ncclCommInitRank comm {comm} rank {rank} nranks {nranks} cudaDev {r} nvmlDev {r} busId {r * 0x1000 + 0x18000:x} commId 0x{rnd.getrandbits(64):x} - Init START",
            f"Setting affinity for GPU {r} to ffffffff,ffffffff",
            f"comm {comm} rank {rank} nRanks {nranks} nNodes 16384 localRanks 8 localRank {r} MNNVL 0",
        ]
        return [pre + x for x in lines]

    def __call__(self, rnd, pf):
        while len(self.active) < 64:
            h, r = divmod(self.next_host, 8)
            if h >= 16384:
                self.next_host, self.generation, h = 0, self.generation + 1, 0
            self.active.append(self.block(rnd, h, r))
            self.next_host += 1
        i = rnd.randrange(len(self.active))
        lines = self.active[i]
        line = lines.pop(0)
        if not lines:
            self.active[i] = self.active[-1]
            self.active.pop()
        return line


class UnknownWrapper:
    """Lines of the other kinds (half of them channel lines, as in a real log) behind a wrapper no
    table knows that changes from line to line: the time since a start, as `ts -s "%H:%M:%.S"` or a
    logger's elapsed-time column print it (dmesg's bracketed seconds are a known wrapper now). Each
    thread's prefix is new to a cache keyed from the line's start on every line."""

    MIX = [k_channel] * 5 + [k_ring, k_warn, k_unwind, k_env, k_app]

    def __init__(self):
        self.n = 0

    def __call__(self, rnd, pf):
        self.n += 1
        t = self.n / 2000
        return f"{int(t) // 3600:02d}:{int(t) // 60 % 60:02d}:{t % 60:09.6f} " + rnd.choice(self.MIX)(rnd, pf)


class Aggregated:
    """Lines of the other kinds (half of them channel lines) as a log collector stores them, the
    same mix as unknown-wrapper's: `cri` (containerd's and CRI-O's files under /var/log/pods),
    `docker-json` (Docker's json-file driver), `csv` (a log UI's CSV download, every field quoted),
    `cloudwatch-csv` (CloudWatch Logs Insights' `@timestamp,@message,@logStream`: the text quoted, a
    column after it), `logfmt` (a collector's logfmt: the text in `msg="..."`, its own keys after),
    `journald` (`journalctl` of a job run as a service), `kubectl` (`kubectl logs --prefix
    --timestamps` over a job's Pods) or `colour` (a coloured Python logger: ANSI codes around its time
    and level, and around the whole text on a third of the lines). The time advances a little
    from line to line, with nanoseconds where the collector prints them."""

    MIX = UnknownWrapper.MIX

    def __init__(self, form):
        self.form = form
        self.n = 0

    def __call__(self, rnd, pf):
        self.n += 1
        proc = pf.pick()
        line = rnd.choice(self.MIX)(rnd, _Fixed(pf, proc))
        secs, frac = divmod(self.n * 499_979, 1_000_000_000)
        minute, sec = divmod(secs, 60)
        iso = f"2026-05-01T10:{minute % 60:02d}:{sec:02d}.{frac:09d}Z"
        if self.form == "cri":
            return f"{iso} stderr F {line}"
        if self.form == "docker-json":
            text = line.replace("\\", "\\\\").replace('"', '\\"')
            return f'{{"log":"{text}\\n","stream":"stderr","time":"{iso}"}}'
        if self.form == "csv":
            text = line.replace('"', '""')
            return f'"{iso}","trainer-worker-{proc[4] // RANKS}","{text}"'
        if self.form == "cloudwatch-csv":
            text = line.replace('"', '""')
            return f'2026-05-01 10:{minute % 60:02d}:{sec:02d}.{frac // 1_000_000:03d},"{text}",trainer-worker-{proc[4] // RANKS}/pytorch/4f2a'
        if self.form == "logfmt":
            text = line.replace("\\", "\\\\").replace('"', '\\"')
            return f'ts={iso} level=info msg="{text}" pod=trainer-worker-{proc[4] // RANKS} container=pytorch'
        if self.form == "colour":
            level = "\x1b[33mWARNING\x1b[0m" if " WARN " in line else "\x1b[32mINFO\x1b[0m"
            text = f"\x1b[0;37m{line}\x1b[0m" if self.n % 3 == 0 else line
            return f"\x1b[36m2026-05-01 10:{minute % 60:02d}:{sec:02d},{frac // 1_000_000:03d}\x1b[0m {level} {text}"
        if self.form == "journald":
            return f"May 01 10:{minute % 60:02d}:{sec:02d} {proc[0]} python3[{proc[1]}]: {line}"
        return f"[pod/trainer-worker-{proc[4] // RANKS}/pytorch] {iso} {line}"


class Tracebacks:
    """A failing job's Python side, every rank printing it: `[rankN]:`-prefixed tracebacks (frames of
    a few files, a source line each, the exception at the end) and PyTorch's watchdog report, a
    `[rankN]:[E...]` line with a `WorkNCCL(...)` and its C++ frames (`frame #N: SYMBOL + 0x.. (0x..
    in LIB)`); the NCCL WARN and unwind lines of the same ranks between them."""

    FILES = ["/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py",
             "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py",
             "/usr/local/lib/python3.10/dist-packages/torch/nn/parallel/distributed.py", "/workspace/train.py"]
    SYMBOLS = ["c10::Error::Error(c10::SourceLocation, std::__cxx11::basic_string<char, std::char_traits<char>, "
               "std::allocator<char> >)",
               "c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, "
               "std::ratio<1l, 1000l> > >)",
               "c10d::ProcessGroupNCCL::watchdogHandler()", "c10d::ProcessGroupNCCL::ncclCommWatchdog()",
               "<unknown function>", "clone"]
    LIBS = ["/usr/local/lib/python3.10/dist-packages/torch/lib/libc10.so",
            "/usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so", "/lib/x86_64-linux-gnu/libc.so.6"]

    def __init__(self):
        self.pending = []

    def block(self, rnd, pf):
        proc = pf.pick()
        rank = proc[4]
        out = [k_warn(rnd, _Fixed(pf, proc)), k_unwind(rnd, _Fixed(pf, proc))]
        if rnd.random() < 0.5:
            out.append(f"[rank{rank}]: Traceback (most recent call last):")
            for _ in range(rnd.randrange(5, 15)):
                out.append(f'[rank{rank}]:   File "{rnd.choice(self.FILES)}", line {rnd.randrange(1, 3000)}, in '
                           f'{rnd.choice(["forward", "_call_impl", "all_reduce", "wrapper", "train_step"])}')
                out.append(f"[rank{rank}]:     return forward_call(*args, **kwargs)")
            out.append(f"[rank{rank}]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/"
                       f"c10d/ProcessGroupNCCL.cpp:{rnd.randrange(1000, 3000)}, unhandled system error (run with "
                       f"NCCL_DEBUG=INFO for details), NCCL version 2.20.5")
        else:
            out.append(f"[rank{rank}]:[E{rnd.randrange(100, 1299)} 10:{rnd.randrange(60):02d}:{rnd.randrange(60):02d}."
                       f"{rnd.randrange(10 ** 6):06d} {proc[1]} ProcessGroupNCCL.cpp:1537] [PG 0 (default_pg) Rank "
                       f"{rank}] Process group watchdog thread terminated with exception: [Rank {rank}] Watchdog "
                       f"caught collective operation timeout: WorkNCCL(SeqNum={rnd.randrange(10 ** 5)}, "
                       f"OpType=ALLREDUCE, NumelIn={rnd.randrange(10 ** 8)}, NumelOut={rnd.randrange(10 ** 8)}, "
                       f"Timeout(ms)=600000) ran for {rnd.randrange(600000, 700000)} milliseconds before timing out.")
            out.append("Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:565 "
                       "(most recent call first):")
            for i in range(rnd.randrange(5, 10)):
                out.append(f"frame #{i}: {rnd.choice(self.SYMBOLS)} + 0x{rnd.randrange(16 ** 3):x} "
                           f"(0x{rnd.randrange(16 ** 12):x} in {rnd.choice(self.LIBS)})")
        return out

    def __call__(self, rnd, pf):
        if not self.pending:
            self.pending = self.block(rnd, pf)
        return self.pending.pop(0)


class _Fixed:
    """A Prefixes that picks one given process: the wrapper and the line name the same host."""

    def __init__(self, pf, proc):
        self.pf = pf
        self.proc = proc

    def pick(self):
        return self.proc

    def info(self, proc=None, level="INFO"):
        return self.pf.info(proc or self.proc, level)

    def __getattr__(self, name):
        return getattr(self.pf, name)


KINDS = {
    "channel": k_channel, "ring-tree": k_ring, "topology": k_topo, "env": k_env, "plugin-tuner": k_plugin,
    "warn": k_warn, "warn-storm": k_warn_storm, "warn-new-texts": k_warn_new, "warn-garbage": k_warn_garbage,
    "warn-sites": k_warn_sites, "unwind": k_unwind, "bootstrap": k_bootstrap, "net-ib-socket": k_netib, "net-ib-qp": k_netib_qp,
    "net-ofi": k_netofi, "app-output": k_app, "app-short": k_app_short, "framework-logs": k_framework_logs, "blank-garbage": k_garbage, "short-lines": k_short,
    "many-hosts": k_hosts, "many-ranks": k_ranks, "pod-ranks": k_pod_ranks, "no-host": k_no_host, "torch-failures": k_torch_failures,
    "coll": k_coll, "trace": k_trace, "init-misc": k_init_misc, "tests-rows": k_tests_rows,
    "host-init": None, "unknown-wrapper": None,
    "cri": None, "docker-json": None, "csv": None, "cloudwatch-csv": None, "logfmt": None, "journald": None,
    "kubectl": None, "colour": None, "tracebacks": None,
    "long-lines": None, "nul-tail": None,
}


def write_lines(out, fn, rnd, pf, size):
    written = 0
    batch = []
    while written < size:
        line = fn(rnd, pf) + "\n"
        batch.append(line)
        written += len(line)
        if len(batch) >= 4096:
            out.write("".join(batch).encode("latin-1"))
            batch = []
    out.write("".join(batch).encode("latin-1"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind")
    ap.add_argument("--size-mib", type=int, default=100)
    ap.add_argument("--out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        print("\n".join(KINDS))
        return 0
    if a.kind not in KINDS or not a.out:
        print(f"gen-kinds: --kind one of {', '.join(KINDS)} and --out FILE", file=sys.stderr)
        return 2
    rnd = random.Random(a.seed)
    pf = Prefixes(rnd)
    size = a.size_mib * 1024 * 1024
    with open(a.out, "wb") as out:
        if a.kind == "long-lines":
            # 1 MiB lines: a channel line followed by a huge run of a training script's dump
            chunk = "".join(rnd.choice("abcdefghij0123456789 ,.[]") for _ in range(4096))
            written = 0
            while written < size:
                body = chunk * 256
                line = f"{k_channel(rnd, pf)} {body}\n{k_warn(rnd, pf)}\n"
                out.write(line.encode("latin-1"))
                written += len(line)
        elif a.kind == "nul-tail":
            # a crashed job's file: a few MiB of log, then NULs with no newline to the end
            head = 4 * 1024 * 1024
            write_lines(out, k_channel, rnd, pf, head)
            block = b"\0" * (1024 * 1024)
            for _ in range(max(0, a.size_mib - 4)):
                out.write(block)
        elif a.kind == "host-init":
            write_lines(out, HostInit(), rnd, pf, size)
        elif a.kind == "unknown-wrapper":
            write_lines(out, UnknownWrapper(), rnd, pf, size)
        elif a.kind == "tracebacks":
            write_lines(out, Tracebacks(), rnd, pf, size)
        elif a.kind in ("cri", "docker-json", "csv", "cloudwatch-csv", "logfmt", "journald", "kubectl", "colour"):
            write_lines(out, Aggregated(a.kind), rnd, pf, size)
        else:
            write_lines(out, KINDS[a.kind], rnd, pf, size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
