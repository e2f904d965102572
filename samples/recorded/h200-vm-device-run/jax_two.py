# One process of a two-process JAX job on one GPU (NCCL_HOSTID per process makes NCCL see two hosts).
import os, sys
pid = int(os.environ["RANK"])
import jax, jax.numpy as jnp
jax.distributed.initialize(coordinator_address="127.0.0.1:" + os.environ.get("COORD_PORT", "29551"),
                           num_processes=2, process_id=pid,
                           initialization_timeout=int(os.environ.get("INIT_TIMEOUT", "300")))
print("process", pid, "devices", jax.devices(), "local", jax.local_devices(), flush=True)
x = jnp.ones((1, 1 << 24), dtype=jnp.float32) * (pid + 1)
y = jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i")(x)
y.block_until_ready()
print("process", pid, "psum", float(y[0, 0]), flush=True)
jax.distributed.shutdown()
