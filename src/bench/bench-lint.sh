#!/usr/bin/env bash
# Benchmark `nccl-triage lint` on a cluster's worth of YAML (see README.md here): 25 MiB of Jobs, once
# as `---` documents and once as the one `kind: List` document of `kubectl get -A -o yaml`.
#
#   src/bench/bench-lint.sh                       # 25 MiB each
#   BENCH_SIZE_MIB=5 src/bench/bench-lint.sh      # quick run
#
# Environment:
#   BENCH_SIZE_MIB     input size in MiB (default 25)
#   NCCL_TRIAGE_CMD    command to run, before "lint -o json FILE" (default: dist/bin/nccl-triage)
#   BENCH_RUNS         timed runs per shape, the median is reported (default 3)
#   BENCH_MIN_MBPS     limit: MB/s (10^6 bytes) at least (default 20)
#   BENCH_MAX_RSS_MB   limit: peak RSS in MB at most (default 300)
#
# Exit: 0 all checks pass, 1 a check failed (or nccl-triage failed), 2 setup problem.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"

die2() { echo "bench-lint: $*" >&2; exit 2; }

SIZE_MIB=${BENCH_SIZE_MIB:-25}
RUNS=${BENCH_RUNS:-3}
MIN_MBPS=${BENCH_MIN_MBPS:-20}
MAX_RSS_MB=${BENCH_MAX_RSS_MB:-300}
[[ $SIZE_MIB =~ ^[0-9]+$ && $SIZE_MIB -gt 0 ]] || die2 "BENCH_SIZE_MIB must be a positive integer (got '$SIZE_MIB')"
[[ $RUNS =~ ^[0-9]+$ && $RUNS -gt 0 ]] || die2 "BENCH_RUNS must be a positive integer (got '$RUNS')"

if [[ -n ${NCCL_TRIAGE_CMD:-} ]]; then
  read -r -a CMD <<< "$NCCL_TRIAGE_CMD"
  command -v "${CMD[0]}" > /dev/null 2>&1 || die2 "NCCL_TRIAGE_CMD: '${CMD[0]}' not found or not executable"
else
  [[ -f target/nccl-triage.jar ]] || die2 "target/nccl-triage.jar not found in $ROOT: build it first (mvn -q package -DskipTests)"
  CMD=(dist/bin/nccl-triage)
fi
command -v python3 > /dev/null 2>&1 || die2 "python3 not found (needed for the generator)"
[[ -x /usr/bin/time ]] && /usr/bin/time -v true > /dev/null 2>&1 \
  || die2 "GNU /usr/bin/time is needed for peak RSS (apt-get install -y time)"

OUTDIR=bench-out
mkdir -p "$OUTDIR"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

"${CMD[@]}" --version > /dev/null 2>&1 || true   # the launcher's first run after a build writes its CDS archive
FAILED=0
SUMMARY=$OUTDIR/bench-lint-summary.txt
: > "$SUMMARY"
for SHAPE in docs list; do
  IN=$OUTDIR/lint-$SHAPE-${SIZE_MIB}m.yaml
  STAMP="$SHAPE $SIZE_MIB gen=$(cksum < "$HERE/gen-big-input.py" | cut -d' ' -f1)"
  if [[ ! -f $IN || ! -f $IN.params || "$(cat "$IN.params")" != "$STAMP" ]]; then
    python3 "$HERE/gen-big-input.py" "$SHAPE" "$SIZE_MIB" > "$IN.tmp"
    mv "$IN.tmp" "$IN"
    echo "$STAMP" > "$IN.params"
  fi
  BYTES=$(stat -c %s "$IN")
  cat "$IN" > /dev/null
  T=()
  PEAK_KB=0
  RUN_FAILED=0
  for ((i = 1; i <= RUNS; i++)); do
    set +e
    t0=$(date +%s%N)
    /usr/bin/time -v -o "$OUTDIR/time.out" "${CMD[@]}" lint -o json "$IN" > "$OUTDIR/lint.json" 2> "$OUTDIR/lint.stderr"
    rc=$?
    t1=$(date +%s%N)
    set -e
    if [[ $rc -ne 0 && $rc -ne 1 ]]; then
      echo "bench-lint: ${CMD[*]} lint -o json $IN exited $rc; stderr tail:" >&2
      tail -n 20 "$OUTDIR/lint.stderr" >&2
      RUN_FAILED=1
      break
    fi
    T+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')")
    kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$OUTDIR/time.out")
    [[ -n $kb && $kb -gt $PEAK_KB ]] && PEAK_KB=$kb
  done
  if [[ $RUN_FAILED -eq 1 ]]; then FAILED=1; break; fi
  MED=$(median "${T[@]}")
  MBPS=$(awk -v b="$BYTES" -v t="$MED" 'BEGIN{printf "%.1f", b/1e6/t}')
  RSS_MB=$(awk -v k="$PEAK_KB" 'BEGIN{printf "%.1f", k*1024/1e6}')
  OK=$(awk -v m="$MBPS" -v lim="$MIN_MBPS" -v k="$PEAK_KB" -v r="$MAX_RSS_MB" \
    'BEGIN{print (m+0 >= lim+0 && k > 0 && k*1024 <= r*1e6) ? "PASS" : "FAIL"}')
  [[ $OK == PASS ]] || FAILED=1
  printf '%-5s %s (%s bytes): median %s s (runs: %s) = %s MB/s (limit %s), peak RSS %s MB (limit %s), exit %s  %s\n' \
    "$SHAPE" "$IN" "$BYTES" "$MED" "${T[*]}" "$MBPS" "$MIN_MBPS" "$RSS_MB" "$MAX_RSS_MB" "$rc" "$OK" | tee -a "$SUMMARY"
done
echo "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$SUMMARY"
if [[ $FAILED -eq 0 ]]; then echo "RESULT: PASS" | tee -a "$SUMMARY"; exit 0; fi
echo "RESULT: FAIL" | tee -a "$SUMMARY"
exit 1
