#!/bin/bash
# Session 31 device check: the current build's check/capture (PCI bus read), then run-more.sh.
D=$(cd "$(dirname "$0")" && pwd)
R=$OUT/r0; mkdir -p $R
mkdir -p /tmp/nt && tar -xzf $D/nccl-triage-0.1.0-linux-x64.tar.gz -C /tmp/nt && chmod -R a+rX /tmp/nt
NT=/tmp/nt/nccl-triage-0.1.0-linux-x64/bin/nccl-triage
{ date -u; uname -a; id; nvidia-smi -L; ls /sys/class/infiniband /dev/infiniband; ls /sys/bus/pci/devices | wc -l;
  for f in /sys/bus/pci/devices/*; do echo "$f $(cat $f/class) $(cat $f/vendor) $(cat $f/device)"; done; nproc; } > $R/env.txt 2>&1
( time timeout 60 $NT check ) > $R/check-root.txt 2>&1; echo "rc=$?" >> $R/check-root.txt
timeout 60 $NT check -o json > $R/check-root.json 2> $R/check-root.json.stderr; echo "rc=$?" >> $R/check-root.json.stderr
timeout 60 $NT check --expect-hcas 8 -o json > $R/check-expect8.json 2>&1; echo "rc=$?" >> $R/check-expect8.json
timeout 90 $NT capture -o $R/capture-root.tar.gz > $R/capture-root.txt 2>&1; echo "rc=$?" >> $R/capture-root.txt
U="setpriv --reuid=65534 --regid=65534 --clear-groups"
command -v setpriv >/dev/null || U="runuser -u nobody --"
( $U env HOME=/tmp timeout 60 $NT check ) > $R/check-nobody.txt 2>&1; echo "rc=$? via $U" >> $R/check-nobody.txt
( $U env HOME=/tmp timeout 90 $NT capture -o /tmp/cap-nobody.tar.gz ) > $R/capture-nobody.txt 2>&1; echo "rc=$?" >> $R/capture-nobody.txt; cp /tmp/cap-nobody.tar.gz $R/ 2>/dev/null
(cd $OUT && tar -czf results1.tar.gz r0 && rm -rf r0)
echo "part 1 done $(date -u)"
timeout -s TERM 400 bash $D/run-more.sh; echo "run-more rc=$?"
[ -f $OUT/results2.tar.gz ] || (cd $OUT && tar -czf results2.tar.gz r)
ls -la $OUT
