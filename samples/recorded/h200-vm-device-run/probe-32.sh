#!/bin/bash
# Session 32: where the image's PyTorch and Open MPI print the texts its logs showed (by design).
R=$OUT/src; mkdir -p $R
T=$(python3 -c "import torch, os; print(os.path.dirname(torch.__file__))")
{ echo "torch at $T"; grep -rn "excepthook\|\[rank{\|f\"\[rank\|rank_prefix" $T/distributed/*.py $T/distributed/elastic/multiprocessing/*.py 2>/dev/null | head -40; } > $R/torch-excepthook.txt
for f in $(grep -rln "_excepthook\|excepthook" $T/distributed/*.py 2>/dev/null | head -3); do echo "=== $f"; grep -n "excepthook" -B3 -A25 $f | head -80; done > $R/torch-excepthook-src.txt 2>&1
strings $T/lib/libtorch_cpu.so 2>/dev/null | grep -n "^\[rank\|\[rank%\|\[rank{" | head -20 > $R/libtorch-rank-strings.txt
grep -rn "rank\]:\|\[rank" $T/csrc 2>/dev/null | head > /dev/null
P=$(dirname $(dirname $(readlink -f $(which mpirun))))
{ echo "mpirun at $P"; ls $P/share/openmpi 2>/dev/null | head -80; } > $R/ompi-help-list.txt
mkdir -p $R/ompi; for f in help-errmgr-base.txt help-orterun.txt help-orted.txt help-odls-base.txt help-ess-base.txt help-mpi-api.txt help-mpi-runtime.txt help-plm-base.txt; do cp $P/share/openmpi/$f $R/ompi/ 2>/dev/null; done
grep -rln "noticed that process\|terminated normally\|non-zero status" $P/share/openmpi/ 2>/dev/null > $R/ompi-which.txt
for f in $(cat $R/ompi-which.txt); do cp $f $R/ompi/; done
grep -rn "exitcode\|Signal %\|received by PID" $T/distributed/elastic/multiprocessing/errors/*.py 2>/dev/null | head -30 > $R/torch-childfailed.txt
cd $OUT && tar -czf src32.tar.gz src && rm -rf src && ls -la
