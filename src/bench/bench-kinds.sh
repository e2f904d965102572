#!/usr/bin/env bash
# Per-line-kind throughput of `nccl-triage log` (see README.md here): for each kind of line the
# parser tells apart, a log made only of that kind (gen-kinds.py, cached under bench-out/), parsed
# single-threaded, page cache warm.
#
#   src/bench/bench-kinds.sh                 # every kind, 100 MiB each: the parser alone, warm, a JVM
#                                            # per kind (KindsBench, test scope: built by mvn package),
#                                            # the best of BENCH_RUNS passes in thread CPU time
#   BENCH_KINDS="warn unwind" BENCH_SIZE_MIB=50 src/bench/bench-kinds.sh
#   BENCH_MODE=cli src/bench/bench-kinds.sh  # end to end: `log -o json --threads 1`, a cold JVM per
#                                            # run, median of BENCH_RUNS runs
#
# The floor (BENCH_MIN_MBPS, default 200 MB/s, 10^6 bytes) is issue 14's: single-threaded and warm,
# so it is checked in the default mode. The CLI mode prints MB/s of the whole run and net of
# start-up (the median wall time on a one-line log subtracted); that net rate still holds the JIT's
# warm-up of a cold JVM (C1 compiles the parser during the first few hundred milliseconds), so it
# reads lower, and it is reported, not checked. Exit 0 all kinds at or above the floor (or CLI
# mode ran), 1 one below it (or the command failed), 2 setup problem.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
die2() { echo "bench-kinds: $*" >&2; exit 2; }

SIZE_MIB=${BENCH_SIZE_MIB:-100}
RUNS=${BENCH_RUNS:-3}
MIN_MBPS=${BENCH_MIN_MBPS:-200}
[[ $SIZE_MIB =~ ^[0-9]+$ && $SIZE_MIB -ge 8 ]] || die2 "BENCH_SIZE_MIB must be an integer >= 8"
[[ $RUNS =~ ^[0-9]+$ && $RUNS -gt 0 ]] || die2 "BENCH_RUNS must be a positive integer"
if [[ -n ${NCCL_TRIAGE_CMD:-} ]]; then
  read -r -a CMD <<< "$NCCL_TRIAGE_CMD"
else
  [[ -f target/nccl-triage.jar ]] || die2 "target/nccl-triage.jar not found: mvn -q package -DskipTests"
  CMD=(dist/bin/nccl-triage)
fi
command -v python3 > /dev/null || die2 "python3 not found"
KINDS=${BENCH_KINDS:-$(python3 "$HERE/gen-kinds.py" --list)}
OUT=bench-out/kinds
mkdir -p "$OUT"
GEN=$(cksum < "$HERE/gen-kinds.py" | cut -d' ' -f1)

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# wall time of one run of the command under test, in seconds
run_once() {
  local t0 t1 rc
  t0=$(now)
  set +e
  "${CMD[@]}" log -o json --threads 1 "$1" > "$OUT/out.json" 2> "$OUT/err.txt"
  rc=$?
  set -e
  t1=$(now)
  if [[ $rc -gt 3 ]]; then
    echo "bench-kinds: '${CMD[*]} log' exited $rc on $1:" >&2
    head -5 "$OUT/err.txt" >&2
    return 1
  fi
  echo "$t1 - $t0" | bc -l
}

gen_kind() {
  local kind=$1 log=$OUT/$1-${SIZE_MIB}m.log stamp="$1 $SIZE_MIB gen=$GEN"
  if [[ ! -f $log || ! -f $log.params || "$(cat "$log.params")" != "$stamp" ]]; then
    python3 "$HERE/gen-kinds.py" --kind "$kind" --size-mib "$SIZE_MIB" --out "$log"
    echo "$stamp" > "$log.params"
  fi
}

MODE=${BENCH_MODE:-inproc}
[[ $MODE == inproc || $MODE == cli ]] || die2 "BENCH_MODE must be inproc or cli (got '$MODE')"
if [[ $MODE == inproc ]]; then
  [[ -d target/test-classes/dev ]] || die2 "target/test-classes missing: mvn -q package -DskipTests (or test-compile)"
  # C1 only, as the launcher runs; the best of BENCH_RUNS passes per kind. A JVM of its own for
  # each kind: in one JVM for all, a kind measured after the others read up to a third lower
  # (warn-storm 140 against 207 alone, ring-tree 497 against 830), run to run: the code compiled
  # for the kinds before it, not the kind's own cost. The heap is of one size and touched before
  # the passes (with huge pages where the kernel gives them on request, as the launcher asks):
  # a heap that grows faults its new pages in during a pass, at 13 us a page on this VM, and
  # the same build read warn-storm at 128 and at 208 MB/s minutes apart, by how the heap grew
  heap=$((SIZE_MIB * 3 + 256))m
  thp=
  if grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2> /dev/null; then
    thp=-XX:+UseTransparentHugePages
  fi
  : > "$OUT/summary-inproc.txt"
  first=1
  for kind in $KINDS; do
    gen_kind "$kind"
    java -XX:+UseSerialGC -Xms$heap -Xmx$heap -XX:+AlwaysPreTouch $thp -XX:TieredStopAtLevel=1 -Druns="$RUNS" \
      -cp target/test-classes:target/classes dev.nccltriage.source.log.KindsBench "$OUT/$kind-${SIZE_MIB}m.log" |
      tail -n +$((first ? 1 : 2)) | tee -a "$OUT/summary-inproc.txt"
    first=0
  done
  awk -v min="$MIN_MBPS" 'NR > 1 && $3 + 0 < min + 0 {bad = 1} END {exit bad}' "$OUT/summary-inproc.txt"
  exit $?
fi

TINY=$OUT/tiny.log
echo 'node-000:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read' > "$TINY"
run_once "$TINY" > /dev/null # first run: class data, disk
base=$(for _ in $(seq "$RUNS"); do run_once "$TINY"; done | median)

fail=0
printf '%-14s %9s %9s %10s %10s %9s\n' kind MB median_s MB/s net_MB/s grep_MB/s | tee "$OUT/summary.txt"
for kind in $KINDS; do
  log=$OUT/$kind-${SIZE_MIB}m.log
  gen_kind "$kind"
  cat "$log" > /dev/null
  bytes=$(stat -c %s "$log")
  wall=$(for _ in $(seq "$RUNS"); do run_once "$log" || exit 1; done | median) || { fail=1; continue; }
  g=$(for _ in $(seq "$RUNS"); do
        # into a variable: with stdout on /dev/null GNU grep stops at the first match
        t0=$(now); n=$(grep -caE 'NET/IB|NET/Socket|Using network|GDRDMA' "$log" || true); t1=$(now)
        echo "$t1 - $t0" | bc -l
      done | median)
  mb=$(echo "$bytes / 1000000" | bc -l)
  net=$(echo "$wall - $base" | bc -l)
  rate=$(echo "$mb / $wall" | bc -l)
  netrate=$(echo "if ($net > 0.001) $mb / $net else 99999" | bc -l)
  grate=$(echo "$mb / $g" | bc -l)
  printf '%-14s %9.1f %9.3f %10.1f %10.1f %9.1f\n' "$kind" "$mb" "$wall" "$rate" "$netrate" "$grate" | tee -a "$OUT/summary.txt"
done
printf 'start-up (one-line log): %.3f s; net of it, the JIT warm-up included (the floor is checked warm: BENCH_MODE=inproc); %s runs each, median\n' "$base" "$RUNS" | tee -a "$OUT/summary.txt"
exit $fail
