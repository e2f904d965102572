#!/usr/bin/env bash
# Peak memory of `nccl-triage log` on jobs of many hosts (issue 11 item 2): a 16384-node x 8-rank
# log from gen-log.py (one node on sockets, node-12345) and a log of 100000 distinct hosts from
# gen-hosts.py (every line another host's, one host on sockets). Prints peak RSS, wall time, the
# verdict, whom it names and what the report says it left out; checks the RSS limit and, for the
# 16384-node log, that node-12345 is named.
#
#   src/bench/bench-hosts.sh                 # both (the 16384-node log is ~870 MB, ~2.5 min to generate, once)
#   BENCH_HOSTS_ONLY=1e5 src/bench/bench-hosts.sh
#
# Environment: NCCL_TRIAGE_CMD (default dist/bin/nccl-triage), BENCH_MAX_RSS_MB (default 300, 10^6 bytes),
# BENCH_OUT (default bench-out). Exit: 0 checks pass, 1 a check failed, 2 setup problem.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
die2() { echo "bench-hosts: $*" >&2; exit 2; }
[[ -x /usr/bin/time ]] && /usr/bin/time -v true > /dev/null 2>&1 || die2 "needs GNU time (apt-get install -y time)"
command -v python3 > /dev/null || die2 "needs python3"
read -r -a CMD <<< "${NCCL_TRIAGE_CMD:-dist/bin/nccl-triage}"
MAX_RSS_MB=${BENCH_MAX_RSS_MB:-300}
OUT=${BENCH_OUT:-bench-out}
mkdir -p "$OUT"
status=0

gen() { # file stamp command...
  local f=$1 stamp=$2; shift 2
  if [[ ! -f $f || "$(cat "$f.params" 2> /dev/null)" != "$stamp" ]]; then
    echo "bench-hosts: generating $f ..." >&2
    "$@" && echo "$stamp" > "$f.params"
  fi
}

run() { # name file expected-who
  local name=$1 log=$2 who=$3 err=$OUT/hosts-$1.time json=$OUT/hosts-$1.json rc=0
  cat "$log" > /dev/null
  /usr/bin/time -v "${CMD[@]}" log -o json "$log" > "$json" 2> "$err" || rc=$?
  local kb wall
  kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$err")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$err")
  local mb=$((kb * 1024 / 1000000))
  echo "== $name: exit $rc, wall $wall, peak RSS $mb MB ($((kb / 1024)) MiB)"
  if [[ $rc -ne 0 && $rc -ne 1 && $rc -ne 3 ]]; then
    grep -v '^\s' "$err" | head -3; status=1; return
  fi
  python3 - "$json" "$who" <<'PY' || status=1
import json, sys
d = json.load(open(sys.argv[1])); v = d["verdict"]; l = d["log"]
who = sorted({x["who"] for x in v["differs"]})
print("   verdict: %s, layer %s; nodes %s (%s), transport %s %s" % (v["status"], v["layer"], l["nodes"],
      l["nodesFrom"], l["transport"], l["transportNodes"]))
print("   differs: %s" % (who[:8] or "none"))
if l.get("leftOut"):
    print("   leftOut: %s" % json.dumps(l["leftOut"]))
if sys.argv[2] != "-" and sys.argv[2] not in who:
    print("   FAIL: %s not named" % sys.argv[2]); sys.exit(1)
PY
  if [[ $mb -gt $MAX_RSS_MB ]]; then echo "   FAIL: peak RSS above $MAX_RSS_MB MB"; status=1; fi
}

if [[ ${BENCH_HOSTS_ONLY:-} != 1e5 ]]; then
  L16=$OUT/nodes-16384x8.log
  A16=(--size-mib 1 --nodes 16384 --ranks-per-node 8 --socket-node 12345 --seed 1)
  gen "$L16" "${A16[*]} gen=$(cksum < "$HERE/gen-log.py" | cut -d' ' -f1)" \
    python3 "$HERE/gen-log.py" --out "$L16" "${A16[@]}" --quiet
  run 16384x8 "$L16" node-12345
fi
if [[ ${BENCH_HOSTS_ONLY:-} != 16384 ]]; then
  L1E5=$OUT/hosts-100000.log
  gen "$L1E5" "--hosts 100000 --socket-host 77777 gen=$(cksum < "$HERE/gen-hosts.py" | cut -d' ' -f1)" \
    python3 "$HERE/gen-hosts.py" --out "$L1E5" --hosts 100000 --socket-host 77777
  # past the hosts a part tells apart, a sample is kept: the socket host may be outside it
  run 1e5-hosts "$L1E5" -
fi
exit $status
