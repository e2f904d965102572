#!/usr/bin/env bash
# Hostile lines: does any line the parser's own words make cost more than linear time? For each
# string literal of the parser's sources and a few joiners (gen-cliffs.py), lines of that unit
# repeated, at four lengths, BENCH_KIB KiB of each (default 1024), made in memory; the parser alone
# (CliffsBench, test scope: one JVM, C1 only as the launcher runs, best of BENCH_RUNS passes (default 2) in
# thread CPU time) reads them. Linear work reads a line 4x longer at the same rate per byte; a
# check that reads to the line's end from every occurrence reads it ~4x slower. Found this way (session 44): an exception name's search for NCCL's texts (2.7 MB/s
# on 64 KiB lines of "Error: ") and glued records' hashes (13 MB/s on 4 KiB lines).
#
#   mvn -q -o package -DskipTests          # builds the test classes too (CliffsBench)
#   src/bench/bench-cliffs.sh              # table of the slowest units and the largest growth
#   CLIFF_GROWTH=3 CLIFF_MIN_MBPS=5 src/bench/bench-cliffs.sh
#
# Growth: the rate on 1000-byte lines over the rate on 4000-byte ones, and 15000 over 60000 (the
# step between 4000 and 15000, where a message's text is too long to be hashed and kept, is a
# constant factor). Exit 0 every unit's growth at most CLIFF_GROWTH (default 2.5) and every rate
# at least CLIFF_MIN_MBPS (default 10); 1 otherwise; 2 setup problem. A few minutes; the rates are
# left in bench-out/cliffs/rates.txt.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
die2() { echo "bench-cliffs: $*" >&2; exit 2; }

RUNS=${BENCH_RUNS:-2}
KIB=${BENCH_KIB:-1024}
GROWTH=${CLIFF_GROWTH:-2.5}
MIN_MBPS=${CLIFF_MIN_MBPS:-10}
[[ $RUNS =~ ^[0-9]+$ && $RUNS -gt 0 ]] || die2 "BENCH_RUNS must be a positive integer"
[[ $KIB =~ ^[0-9]+$ && $KIB -ge 512 ]] || die2 "BENCH_KIB must be an integer >= 512 (fewer lines of 60000 bytes read their first-time costs as growth)"
[[ $GROWTH =~ ^[0-9]+(\.[0-9]+)?$ ]] || die2 "CLIFF_GROWTH must be a number"
[[ $MIN_MBPS =~ ^[0-9]+(\.[0-9]+)?$ ]] || die2 "CLIFF_MIN_MBPS must be a number"
command -v python3 > /dev/null || die2 "python3 not found"
[[ -d target/test-classes/dev ]] || die2 "target/test-classes missing: mvn -q package -DskipTests (or test-compile)"

SRC=src/main/java/dev/nccltriage/source/log
OUT=bench-out/cliffs
mkdir -p "$OUT"
python3 "$HERE/gen-cliffs.py" "$SRC" > "$OUT/words.tsv"
java -XX:+UseSerialGC -Xmx512m -XX:TieredStopAtLevel=1 -Druns="$RUNS" -Dkib="$KIB" \
  -cp target/test-classes:target/classes dev.nccltriage.source.log.CliffsBench "$OUT/words.tsv" > "$OUT/rates.txt"

python3 - "$OUT" "$GROWTH" "$MIN_MBPS" <<'PY'
import sys
out, growth_max, min_rate = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
units = {}
for line in open(out + "/words.tsv", encoding="utf-8"):
    key, unit, end = line.rstrip("\n").split("\t")
    units[key] = unit + ("... " + end.strip() if end else "")
rates = {}
for line in open(out + "/rates.txt"):
    f = line.split()
    if len(f) == 4 and "-" in f[0]:
        key, length = f[0].rsplit("-", 1)
        rates.setdefault(key, {})[int(length)] = float(f[2])
rows = []
for key, r in rates.items():
    g = max(r[1000] / max(r[4000], 0.01), r[15000] / max(r[60000], 0.01))
    rows.append((key, min(r.values()), g, r))
def show(title, ordered):
    print(title)
    print("  %-6s %8s %8s %8s %8s %7s  %s" % ("unit", "1000", "4000", "15000", "60000", "growth", "text"))
    for key, low, g, r in ordered[:15]:
        print("  %-6s %8.1f %8.1f %8.1f %8.1f %7.2f  %r" % (key, r[1000], r[4000], r[15000], r[60000], g, units[key][:48]))
show("slowest (MB/s by line length, CPU, one thread):", sorted(rows, key=lambda t: t[1]))
show("largest growth (rate of a line over that of one 4x longer):", sorted(rows, key=lambda t: -t[2]))
bad = [t for t in rows if t[2] > growth_max or t[1] < min_rate]
print("%d units x 4 lengths; worst growth %.2f (limit %s), slowest %.1f MB/s (floor %s): %s" % (
    len(rows), max(t[2] for t in rows), growth_max, min(t[1] for t in rows), min_rate,
    "FAIL " + " ".join(t[0] for t in bad[:20]) if bad else "ok"))
sys.exit(1 if bad else 0)
PY
