#!/bin/bash
# Session 31, fourth call: a real two-process JAX job's NCCL log; MPI's abort text if mpirun is there.
R=$OUT/r5; mkdir -p $R
cd "$(dirname "$0")"
export NCCL_DEBUG=INFO PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
for r in 0 1; do ( env RANK=$r NCCL_HOSTID=jnode$r timeout 90 python3 jax_two.py > $R/jax-r$r.log 2>&1; echo "rc=$?" > $R/jax-r$r.rc ) & done
# the same job where process 1 never starts: the coordinator's timeout
( env RANK=0 COORD_PORT=29552 INIT_TIMEOUT=20 NCCL_HOSTID=jnode0 timeout 60 python3 jax_two.py > $R/jax-alone-r0.log 2>&1; echo "rc=$?" > $R/jax-alone-r0.rc ) &
{ which mpirun mpiexec orterun srun; mpirun --version; python3 -c "import mpi4py; print(mpi4py.get_config())"; python3 -c "import jax; print(jax.__version__)"; } > $R/tools.txt 2>&1
if command -v mpirun >/dev/null; then
  timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 python3 -c "from mpi4py import MPI; import sys; c=MPI.COMM_WORLD; print('rank', c.Get_rank(), flush=True); c.Abort(3) if c.Get_rank()==1 else c.Barrier()" > $R/mpi-abort.log 2>&1; echo "rc=$?" >> $R/mpi-abort.log
fi
wait
cd $OUT && tar -czf results5.tar.gz r5 && rm -rf r5 && ls -la $OUT
