# One rank of a tiny NCCL job: init, all_reduce 256 MiB ten times, report busbw, exit.
import os, sys, time
# RANK/WORLD_SIZE as torchrun sets them, else Open MPI's
rank = int(os.environ.get("RANK", os.environ.get("OMPI_COMM_WORLD_RANK", "0")))
ws = int(os.environ.get("WORLD_SIZE", os.environ.get("OMPI_COMM_WORLD_SIZE", "1")))
if os.environ.get("PER_RANK_HOSTID"):
    os.environ["NCCL_HOSTID"] = "node%d" % rank
import torch, torch.distributed as dist
torch.cuda.set_device(0)
print("torch", torch.__version__, "nccl", torch.cuda.nccl.version(), flush=True)
import datetime
dist.init_process_group("nccl", rank=rank, world_size=ws, device_id=torch.device("cuda:0"),
                        timeout=datetime.timedelta(seconds=int(os.environ.get("PG_TIMEOUT", "600"))))
if os.environ.get("DIE_AFTER_INIT") and rank == ws - 1:
    print("rank %d exits on purpose after init" % rank, flush=True)
    os._exit(1)
if os.environ.get("KILL_AFTER_INIT") and rank == ws - 1:
    import signal
    print("rank %d kills itself (SIGKILL) after init" % rank, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
if os.environ.get("OOM_AFTER_INIT") and rank == ws - 1:
    print("rank %d asks for 400 GiB after init" % rank, flush=True)
    y = torch.empty(400 * 1024 ** 3, dtype=torch.uint8, device="cuda")
if os.environ.get("DATALOADER"):
    # data-loader workers hand their batches over /dev/shm
    class Big(torch.utils.data.Dataset):
        def __len__(self): return 64
        def __getitem__(self, i): return torch.ones(4 * 1024 * 1024)
    for _ in torch.utils.data.DataLoader(Big(), batch_size=4, num_workers=2):
        pass
    print("rank %d read its data" % rank, flush=True)
if os.environ.get("HOLD"):
    open("/tmp/hold-%d" % rank, "w").write(str(os.getpid()))
    time.sleep(float(os.environ["HOLD"]))
if os.environ.get("STALL") and rank == int(os.environ.get("STALL_RANK", "1")):
    print("rank %d stalls %s s before its first all_reduce" % (rank, os.environ["STALL"]), flush=True)
    time.sleep(float(os.environ["STALL"]))
x = torch.ones(64 * 1024 * 1024, device="cuda")
for _ in range(3):
    dist.all_reduce(x)
torch.cuda.synchronize()
t = time.time()
n = 10
for _ in range(n):
    dist.all_reduce(x)
torch.cuda.synchronize()
dt = (time.time() - t) / n
size = x.numel() * 4
busbw = size / dt * (2 * (ws - 1) / ws) / 1e9 if ws > 1 else 0.0
print("rank %d size %d B time %.3f ms algbw %.2f GB/s busbw %.2f GB/s" % (rank, size, dt * 1e3, size / dt / 1e9, busbw), flush=True)
dist.destroy_process_group()
