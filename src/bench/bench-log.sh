#!/usr/bin/env bash
# Benchmark `nccl-triage log` on a large synthetic NCCL_DEBUG=INFO log (see README.md here).
#
#   src/bench/bench-log.sh                      # 1 GiB, 128 nodes x 8 ranks, node-077 on sockets
#   BENCH_SIZE_MIB=64 src/bench/bench-log.sh    # quick smoke run
#   NCCL_TRIAGE_CMD="dist/bin/nccl-triage" src/bench/bench-log.sh
#   src/bench/bench-log.sh --real               # real content: samples/logs and the shared corpus's
#                                               # logs, concatenated over and over to BENCH_SIZE_MIB
#
# Environment:
#   BENCH_SIZE_MIB     log size in MiB (default 1024 -> bench-out/bench-1g.log, else bench-<N>m.log)
#   NCCL_TRIAGE_CMD    command to run, before "log -o json FILE" (default: dist/bin/nccl-triage)
#   BENCH_RUNS         timed runs per command, the median is reported (default 3)
#   BENCH_SEED         generator seed (default 1)
#   BENCH_SOCKET_NODE  index of the node that falls back to sockets (default 77 -> node-077)
#   BENCH_MAX_RATIO    limit for nccl-triage/grep wall time (default 1.5; 2.0 with --real)
#   BENCH_CORPUS       with --real: the shared corpus folder (default ../shared/corpus of the checkout,
#                      else /work/shared/corpus); its */log* files are used
#   BENCH_MAX_RSS_MB   limit for peak RSS in MB = 10^6 bytes (default 300)
#   BENCH_RSS_METHOD   "proc" forces the /proc polling fallback instead of /usr/bin/time -v
#   BENCH_DIFF         0 skips the differential: one untimed run with --threads 1 whose JSON must be
#                      byte-identical to the timed runs' (default 1)
#
# Exit: 0 all checks pass, 1 a check failed (or nccl-triage failed), 2 setup problem
# (jar/command missing, bad environment).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"

die2() { echo "bench-log: $*" >&2; exit 2; }

REAL=0
case ${1:-} in
  --real) REAL=1 ;;
  "") ;;
  *) die2 "unknown argument '$1' (only --real)" ;;
esac

SIZE_MIB=${BENCH_SIZE_MIB:-1024}
RUNS=${BENCH_RUNS:-3}
SEED=${BENCH_SEED:-1}
SOCKET_NODE=${BENCH_SOCKET_NODE:-77}
if [[ $REAL -eq 1 ]]; then MAX_RATIO=${BENCH_MAX_RATIO:-2.0}; else MAX_RATIO=${BENCH_MAX_RATIO:-1.5}; fi
MAX_RSS_MB=${BENCH_MAX_RSS_MB:-300}
NODES=128
RANKS_PER_NODE=8
[[ $SIZE_MIB =~ ^[0-9]+$ && $SIZE_MIB -gt 0 ]] || die2 "BENCH_SIZE_MIB must be a positive integer (got '$SIZE_MIB')"
[[ $RUNS =~ ^[0-9]+$ && $RUNS -gt 0 ]] || die2 "BENCH_RUNS must be a positive integer (got '$RUNS')"
[[ $SEED =~ ^[0-9]+$ ]] || die2 "BENCH_SEED must be an integer"
[[ $SOCKET_NODE =~ ^[0-9]+$ && $SOCKET_NODE -lt $NODES ]] || die2 "BENCH_SOCKET_NODE must be 0..$((NODES - 1))"
SOCKET_HOST=$(printf 'node-%03d' "$SOCKET_NODE")

OUTDIR=bench-out
if [[ $REAL -eq 1 ]]; then
  LOG=$OUTDIR/real-${SIZE_MIB}m.log
elif [[ $SIZE_MIB -eq 1024 ]]; then
  LOG=$OUTDIR/bench-1g.log
else
  LOG=$OUTDIR/bench-${SIZE_MIB}m.log
fi
JSON=$OUTDIR/bench.json
ERR=$OUTDIR/bench.stderr
GREP_RE='NET/IB|NET/Socket|Using network|GDRDMA'

# ---- the command under test ------------------------------------------------------------------
if [[ -n ${NCCL_TRIAGE_CMD:-} ]]; then
  read -r -a CMD <<< "$NCCL_TRIAGE_CMD"
  command -v "${CMD[0]}" > /dev/null 2>&1 || die2 "NCCL_TRIAGE_CMD: '${CMD[0]}' not found or not executable"
else
  if [[ ! -f target/nccl-triage.jar ]]; then
    die2 "target/nccl-triage.jar not found in $ROOT: build it first (mvn -q package -DskipTests),
or point NCCL_TRIAGE_CMD at another launcher"
  fi
  command -v java > /dev/null 2>&1 || die2 "java not found on PATH (needed for target/nccl-triage.jar)"
  # the launcher users run: it sets the JVM flags of a short-lived CLI (see dist/bin/nccl-triage)
  CMD=(dist/bin/nccl-triage)
fi
command -v python3 > /dev/null 2>&1 || die2 "python3 not found (needed for the generator and the JSON check)"

# ---- peak-RSS method ---------------------------------------------------------------------------
if [[ ${BENCH_RSS_METHOD:-} == proc ]]; then
  RSS_METHOD=proc
elif [[ -x /usr/bin/time ]] && /usr/bin/time -v true > /dev/null 2>&1; then
  RSS_METHOD=time
else
  RSS_METHOD=proc
  echo "bench-log: /usr/bin/time (GNU) not available, measuring peak RSS by polling /proc" \
       "(less exact; install it with: apt-get install -y time)" >&2
fi

# ---- the log file ------------------------------------------------------------------------------
mkdir -p "$OUTDIR"
GEN_ARGS=(--size-mib "$SIZE_MIB" --nodes "$NODES" --ranks-per-node "$RANKS_PER_NODE"
          --socket-node "$SOCKET_NODE" --seed "$SEED")
STAMP="${GEN_ARGS[*]} gen=$(cksum < "$HERE/gen-log.py" | cut -d' ' -f1)"
if [[ $REAL -eq 1 ]]; then
  # every real log there is, whole, one after another, repeated until the size is reached
  CORPUS=${BENCH_CORPUS:-}
  if [[ -z $CORPUS ]]; then
    if [[ -d $ROOT/../shared/corpus ]]; then CORPUS=$ROOT/../shared/corpus; else CORPUS=/work/shared/corpus; fi
  fi
  REAL_FILES=()
  for f in samples/logs/*.log "$CORPUS"/*/log*; do
    [[ -f $f ]] && REAL_FILES+=("$f")
  done
  [[ ${#REAL_FILES[@]} -gt 0 ]] || die2 "no real logs found (samples/logs, $CORPUS)"
  [[ -d $CORPUS ]] || echo "bench-log: $CORPUS not found: samples/logs only" >&2
  STAMP="real $SIZE_MIB $(cat "${REAL_FILES[@]}" | cksum | cut -d' ' -f1) ${#REAL_FILES[@]}"
  if [[ ! -f $LOG || ! -f $LOG.params || "$(cat "$LOG.params")" != "$STAMP" ]]; then
    echo "bench-log: concatenating ${#REAL_FILES[@]} real logs to $SIZE_MIB MiB ($LOG) ..." >&2
    rm -f "$LOG.params"
    cat "${REAL_FILES[@]}" > "$LOG.one"
    one=$(stat -c %s "$LOG.one")
    copies=$(( (SIZE_MIB * 1048576 + one - 1) / one ))
    for ((i = 0; i < copies; i++)); do cat "$LOG.one"; done > "$LOG.tmp"
    rm -f "$LOG.one"
    mv "$LOG.tmp" "$LOG"
    echo "$STAMP" > "$LOG.params"
  fi
elif [[ ! -f $LOG || ! -f $LOG.params || "$(cat "$LOG.params")" != "$STAMP" ]]; then
  echo "bench-log: generating $LOG (${GEN_ARGS[*]}) ..." >&2
  rm -f "$LOG.params"
  t0=$(date +%s%N)
  python3 "$HERE/gen-log.py" --out "$LOG.tmp" "${GEN_ARGS[@]}"
  t1=$(date +%s%N)
  mv "$LOG.tmp" "$LOG"
  echo "$STAMP" > "$LOG.params"
  echo "bench-log: generated in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", (b-a)/1e9}') s" >&2
fi
LOG_BYTES=$(stat -c %s "$LOG")

# ---- helpers -----------------------------------------------------------------------------------
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", (b-a)/1e9}'; }

# Run the command under test once; sets LAST_WALL (s), LAST_RC, LAST_RSS_KB.
# $1 = time | proc | none (how to measure peak RSS; "none" for the plain timed runs of the
# /proc fallback, whose polling would disturb the timing).
run_triage() {
  local t0 t1 tf
  tf=$OUTDIR/time.out
  LAST_RSS_KB=
  set +e
  if [[ $1 == none ]]; then
    t0=$(date +%s%N)
    "${CMD[@]}" log -o json "$LOG" > "$JSON" 2> "$ERR"
    LAST_RC=$?
    t1=$(date +%s%N)
  elif [[ $1 == time ]]; then
    t0=$(date +%s%N)
    /usr/bin/time -v -o "$tf" "${CMD[@]}" log -o json "$LOG" > "$JSON" 2> "$ERR"
    LAST_RC=$?
    t1=$(date +%s%N)
    LAST_RSS_KB=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$tf")
    # /usr/bin/time reports "Command exited with non-zero status N" but keeps the child's status
  else
    t0=$(date +%s%N)
    "${CMD[@]}" log -o json "$LOG" > "$JSON" 2> "$ERR" &
    local pid=$! peak=0 p kb kids
    while kill -0 "$pid" 2> /dev/null; do
      kids=$(cat /proc/"$pid"/task/*/children 2> /dev/null || true)
      for p in $pid $kids; do
        kb=$(awk '/^VmHWM:/ {print $2}' /proc/"$p"/status 2> /dev/null || true)
        [[ -n $kb && $kb -gt $peak ]] && peak=$kb
      done
      sleep 0.05
    done
    wait "$pid"
    LAST_RC=$?
    t1=$(date +%s%N)
    LAST_RSS_KB=$peak
  fi
  set -e
  LAST_WALL=$(secs "$t0" "$t1")
}

# ---- measure -----------------------------------------------------------------------------------
echo "bench-log: warming the page cache ($LOG, $LOG_BYTES bytes)" >&2
cat "$LOG" > /dev/null
# the launcher's first run after a build writes its class-data-sharing archive: not a timed run
"${CMD[@]}" --version > /dev/null 2>&1 || true

GREP_T=()
TRI_T=()
PEAK_KB=0
TRI_FAILED=0
check_rc() {
  # 0 healthy, 1 a problem found (expected here), 3 inconclusive; anything else is a failure
  if [[ $LAST_RC -ne 0 && $LAST_RC -ne 1 && $LAST_RC -ne 3 ]]; then
    TRI_FAILED=1
    echo "bench-log: ${CMD[*]} log -o json $LOG exited $LAST_RC; stderr tail:" >&2
    tail -n 20 "$ERR" >&2
  fi
}
# paired: each round times grep, then nccl-triage, so that both see the same machine load
for ((i = 1; i <= RUNS; i++)); do
  t0=$(date +%s%N)
  GREP_COUNT=$(grep -cE "$GREP_RE" "$LOG" || true)
  t1=$(date +%s%N)
  GREP_T+=("$(secs "$t0" "$t1")")
  if [[ $RSS_METHOD == time ]]; then run_triage time; else run_triage none; fi
  TRI_T+=("$LAST_WALL")
  [[ -n $LAST_RSS_KB && $LAST_RSS_KB -gt $PEAK_KB ]] && PEAK_KB=$LAST_RSS_KB
  check_rc
  [[ $TRI_FAILED -eq 1 ]] && break
done
if [[ $RSS_METHOD == proc && $TRI_FAILED -eq 0 ]]; then
  run_triage proc   # one extra, untimed run for peak RSS
  PEAK_KB=${LAST_RSS_KB:-0}
  check_rc
fi

# the differential: one parser thread (the whole file one unit) must give the same report, byte
# for byte, as the parts merged from the timed runs
DIFF=skipped
if [[ ${BENCH_DIFF:-1} != 0 && $TRI_FAILED -eq 0 ]]; then
  set +e
  "${CMD[@]}" log -o json --threads 1 "$LOG" > "$OUTDIR/bench-1thread.json" 2> /dev/null
  set -e
  if cmp -s "$JSON" "$OUTDIR/bench-1thread.json"; then DIFF=PASS; else DIFF=FAIL; fi
fi

GREP_MED=$(median "${GREP_T[@]}")
TRI_MED=$(median "${TRI_T[@]}")
RATIO=$(awk -v a="$TRI_MED" -v b="$GREP_MED" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "inf" }')
RSS_MB=$(awk -v k="$PEAK_KB" 'BEGIN{printf "%.1f", k*1024/1e6}')
RSS_MIB=$(awk -v k="$PEAK_KB" 'BEGIN{printf "%.1f", k/1024}')

pf() { if [[ $1 == 1 ]]; then echo PASS; else echo FAIL; fi; }
OK_RATIO=$(awk -v r="$RATIO" -v m="$MAX_RATIO" 'BEGIN{print (r != "inf" && r+0 <= m+0) ? 1 : 0}')
OK_RSS=$(awk -v k="$PEAK_KB" -v m="$MAX_RSS_MB" 'BEGIN{print (k > 0 && k*1024 <= m*1e6) ? 1 : 0}')

# ---- does the JSON name the socket node? ---------------------------------------------------------
JSON_CHECK=$(python3 - "$JSON" "$SOCKET_HOST" "$REAL" <<'EOF' || true
import json, sys
path, host, real = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
try:
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
except Exception as e:  # noqa: BLE001 - report anything
    print("FAIL"); print("-"); print("cannot read JSON: %s" % str(e)[:200]); sys.exit(0)
def get(o, *keys):
    for k in keys:
        if not isinstance(o, dict):
            return None
        o = o.get(k)
    return o
differs = get(d, "verdict", "differs")
if not isinstance(differs, list):
    differs = []
# real content has no planted node: a report that parses is what is checked
named = real or any(isinstance(e, dict) and e.get("who") == host for e in differs)
transport = get(d, "log", "transport")
print("PASS" if named else "FAIL")
print(transport if transport is not None else "(missing)")
shown = ["%s: %s" % (e.get("who"), e.get("what")) for e in differs[:3] if isinstance(e, dict)]
more = " (+%d more)" % (len(differs) - 3) if len(differs) > 3 else ""
print(("; ".join(shown) + more) if shown else "(verdict.differs empty or missing)")
EOF
)
NAMED=$(sed -n 1p <<< "$JSON_CHECK")
TRANSPORT=$(sed -n 2p <<< "$JSON_CHECK")
DIFFERS=$(sed -n 3p <<< "$JSON_CHECK")
[[ $TRI_FAILED -eq 1 ]] && NAMED=FAIL

# ---- report ------------------------------------------------------------------------------------
SUMMARY=$OUTDIR/bench-summary.txt
{
  echo "== nccl-triage log benchmark =="
  echo "host:            $(nproc) CPUs, $(uname -sr), grep $(grep --version | head -1 | awk '{print $NF}'), LANG=${LANG:-} LC_ALL=${LC_ALL:-}"
  if [[ $REAL -eq 1 ]]; then
    echo "file:            $LOG ($LOG_BYTES bytes, $(awk -v b="$LOG_BYTES" 'BEGIN{printf "%.1f", b/1048576}') MiB, ${#REAL_FILES[@]} real logs repeated)"
  else
    echo "file:            $LOG ($LOG_BYTES bytes, $(awk -v b="$LOG_BYTES" 'BEGIN{printf "%.1f", b/1048576}') MiB, $NODES nodes x $RANKS_PER_NODE ranks, socket node $SOCKET_HOST)"
  fi
  echo "command:         ${CMD[*]} log -o json FILE > $JSON"
  echo "grep -cE:        $GREP_COUNT matching lines"
  echo "grep median:     $GREP_MED s   (runs: ${GREP_T[*]})"
  echo "nccl-triage:     $TRI_MED s   (runs: ${TRI_T[*]}; exit $LAST_RC)"
  echo "ratio:           $RATIO   (limit $MAX_RATIO)   $(pf "$OK_RATIO")"
  echo "peak RSS:        $RSS_MB MB ($RSS_MIB MiB, via $RSS_METHOD)   (limit $MAX_RSS_MB MB)   $(pf "$OK_RSS")"
  echo "one thread:      JSON byte-identical to --threads 1   $DIFF"
  if [[ $REAL -eq 1 ]]; then
    echo "report:          JSON parses   $NAMED"
    echo "                 differs: $DIFFERS"
    echo "log.transport:   $TRANSPORT"
  else
    echo "names the node:  $SOCKET_HOST in verdict.differs[].who   $NAMED"
    echo "                 differs: $DIFFERS"
    echo "log.transport:   $TRANSPORT   (expected mixed)"
  fi
} | tee "$SUMMARY"

if [[ $OK_RATIO == 1 && $OK_RSS == 1 && $NAMED == PASS && $TRI_FAILED == 0 && $DIFF != FAIL ]]; then
  echo "RESULT:          PASS" | tee -a "$SUMMARY"
  exit 0
fi
echo "RESULT:          FAIL" | tee -a "$SUMMARY"
exit 1
