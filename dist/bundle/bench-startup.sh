#!/usr/bin/env bash
# Start-up benchmark of the self-contained bundle (and, with --bench-1g, the 1 GiB log benchmark
# run through the bundle's launcher).
#
#   dist/bundle/bench-startup.sh TARBALL [--runs N] [--bench-1g [--compare-checkout]]
#
# Unpacks TARBALL into a temporary folder, runs each command twice to warm the page cache, then
# N times (default 10), interleaved, and prints the median wall time (min, max) of
#   --version                                        target <= 250 ms (BENCH_VERSION_MS)
#   log -o json share/samples/<the bundled sample>   target <= 400 ms (BENCH_LOG_MS)
#   check -o json                                    no target (runs ip, rdma, ... on this machine)
# with PASS/FAIL. NCCL_TRIAGE_JAVA_OPTS is passed on, so other JVM flags can be compared, e.g.
# NCCL_TRIAGE_JAVA_OPTS=-XX:TieredStopAtLevel=4 for C1 and C2.
#
# --bench-1g          also runs src/bench/bench-log.sh (1 GiB log, generated once into bench-out/)
#                     with NCCL_TRIAGE_CMD pointing at the bundle's launcher
# --compare-checkout  and then with the checkout launcher dist/bin/nccl-triage (needs
#                     target/nccl-triage.jar and a Java 17+), and compares: the bundle passes when
#                     its median is at most 10% above the checkout's (BENCH_MAX_REGRESSION=1.10)
#
# Exit status: 0 every target met, 1 a target missed, 2 usage or setup problem.
set -euo pipefail

die2() { echo "bench-startup: $*" >&2; exit 2; }
HERE=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
ROOT=$(cd -P -- "$HERE/../.." && pwd -P)

TARBALL='' RUNS=10 BIG=0 COMPARE=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --runs) RUNS=${2:-}; shift 2 ;;
    --bench-1g) BIG=1; shift ;;
    --compare-checkout) COMPARE=1; shift ;;
    -*) die2 "unknown option $1" ;;
    *) [[ -z $TARBALL ]] || die2 "one TARBALL only"; TARBALL=$1; shift ;;
  esac
done
[[ -n $TARBALL ]] || die2 "usage: bench-startup.sh TARBALL [--runs N] [--bench-1g [--compare-checkout]]"
[[ -f $TARBALL ]] || die2 "$TARBALL not found (build it: mvn -B -Pbundle package)"
[[ $RUNS =~ ^[0-9]+$ && $RUNS -gt 0 ]] || die2 "--runs needs a positive number"
[[ $COMPARE -eq 0 || $BIG -eq 1 ]] || die2 "--compare-checkout goes with --bench-1g"
VERSION_MS=${BENCH_VERSION_MS:-250}
LOG_MS=${BENCH_LOG_MS:-400}
MAX_REGRESSION=${BENCH_MAX_REGRESSION:-1.10}

TMP=$(mktemp -d /tmp/nccl-triage-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
tar -xzf "$TARBALL" -C "$TMP"
B=$(find "$TMP" -mindepth 1 -maxdepth 1 -type d | head -n 1)
NT=$B/bin/nccl-triage
SAMPLE=$(ls "$B"/share/samples/*.log | head -n 1)
[[ -x $NT && -f $SAMPLE ]] || die2 "$TARBALL does not hold bin/nccl-triage and share/samples/*.log"

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.0f", m}'; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.0f", (b - a) / 1e6}'; }

NAMES=(version log check)
CMDS=("--version" "log -o json $SAMPLE" "check -o json")
declare -A T=()
for ((r = -2; r < RUNS; r++)); do  # two warm-up rounds, not counted
  for i in "${!NAMES[@]}"; do
    read -r -a args <<< "${CMDS[$i]}"
    t0=$(date +%s%N)
    rc=0
    "$NT" "${args[@]}" > "$TMP/out" 2> "$TMP/err" || rc=$?
    t1=$(date +%s%N)
    # a verdict (0 healthy, 1 a problem, 3 inconclusive: check on a host without RDMA) is timed;
    # a usage (2) or internal (4) error is not
    if [[ $rc -eq 2 || $rc -gt 3 ]]; then
      echo "bench-startup: nccl-triage ${CMDS[$i]} exited $rc:" >&2
      head -n 5 "$TMP/err" >&2
      exit 2
    fi
    [[ $r -ge 0 ]] && T[$i]+="$(ms "$t0" "$t1") "
  done
done

FAIL=0
echo "== nccl-triage bundle start-up: $(basename "$TARBALL"), median of $RUNS runs =="
echo "host: $(nproc) CPUs, $(uname -sr); NCCL_TRIAGE_JAVA_OPTS='${NCCL_TRIAGE_JAVA_OPTS:-}'"
for i in "${!NAMES[@]}"; do
  read -r -a v <<< "${T[$i]}"
  med=$(median "${v[@]}")
  lo=$(printf '%s\n' "${v[@]}" | sort -n | head -n 1)
  hi=$(printf '%s\n' "${v[@]}" | sort -n | tail -n 1)
  case ${NAMES[$i]} in
    version) limit=$VERSION_MS ;;
    log) limit=$LOG_MS ;;
    *) limit= ;;
  esac
  if [[ -z $limit ]]; then verdict="(no target)"
  elif [[ $med -le $limit ]]; then verdict="<= $limit ms  PASS"
  else verdict="> $limit ms  FAIL"; FAIL=1
  fi
  printf '%-56s median %4d ms  (min %d, max %d)  %s\n' "${CMDS[$i]/$B\//}" "$med" "$lo" "$hi" "$verdict"
done

if [[ $BIG -eq 1 ]]; then
  run_big() {  # $1 = label, $2 = command
    echo "== 1 GiB log benchmark: $1 ($2) =="
    local rc=0
    (cd "$ROOT" && NCCL_TRIAGE_CMD=$2 src/bench/bench-log.sh) || rc=$?
    BIG_MED=$(awk '/^nccl-triage:/ {print $2; exit}' "$ROOT/bench-out/bench-summary.txt")
    BIG_NAMED=$(awk '/^names the node:/ {print $NF; exit}' "$ROOT/bench-out/bench-summary.txt")
    [[ $rc -le 1 ]] || die2 "src/bench/bench-log.sh failed to run (exit $rc)"
  }
  run_big bundle "$NT"
  bundle_med=$BIG_MED
  [[ $BIG_NAMED == PASS ]] || { echo "bench-startup: the bundle did not name the socket node" >&2; FAIL=1; }
  if [[ $COMPARE -eq 1 ]]; then
    [[ -f $ROOT/target/nccl-triage.jar ]] || die2 "target/nccl-triage.jar missing: mvn -q -DskipTests package"
    run_big checkout "$ROOT/dist/bin/nccl-triage"
    checkout_med=$BIG_MED
    ratio=$(awk -v a="$bundle_med" -v b="$checkout_med" 'BEGIN {printf "%.2f", a / b}')
    if awk -v r="$ratio" -v m="$MAX_REGRESSION" 'BEGIN {exit !(r <= m)}'; then verdict=PASS; else verdict=FAIL; FAIL=1; fi
    echo "== 1 GiB log: bundle $bundle_med s, checkout launcher $checkout_med s, ratio $ratio (limit $MAX_REGRESSION)  $verdict"
  fi
fi
exit $FAIL
