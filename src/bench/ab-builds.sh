#!/usr/bin/env bash
# Two builds of nccl-triage end to end, paired: each round runs both (the order alternates), and the
# per-round difference B-A is summarised (median and quartiles). This VM's speed changes by up to 2x
# between consecutive runs, so two builds timed apart, or best-of-N each, differ by more than most
# changes are worth; the difference within a round holds.
#
#   src/bench/ab-builds.sh /tmp/base/nccl-triage.jar target/nccl-triage.jar -- log -o json bench-out/real-1024m.log
#   AB_ROUNDS=16 src/bench/ab-builds.sh A.jar B.jar -- --version
#
# Each jar runs through the checkout's launcher in a root of its own under bench-out/ab/ (the
# launcher, its training samples and capture, the jar), so that each build has the start-up archive
# its own launcher trains for it: a jar copied elsewhere does not match an archive dumped for
# another path, and the JVM then silently runs without one.
#
# Environment: AB_ROUNDS (default 12); AB_PIPE=FILE feeds FILE to each run through a pipe (`cat FILE |`,
# as `kubectl logs ... | nccl-triage log -` does; the arguments then say `-`). Output: one line per round (A ms, B ms, B-A ms), then the
# medians. Exit: 0, or 2 for a setup problem. Runs whose command fails are timed all the same
# (exit 1 is a finding, not an error); their stderr is in bench-out/ab/{a,b}.stderr.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

die2() { echo "ab-builds: $*" >&2; exit 2; }

[[ $# -ge 3 && ${3:-} == -- ]] || die2 "usage: ab-builds.sh JAR_A JAR_B -- ARGS..."
JAR_A=$1
JAR_B=$2
shift 3
[[ -f $JAR_A ]] || die2 "$JAR_A: no such jar"
[[ -f $JAR_B ]] || die2 "$JAR_B: no such jar"
ROUNDS=${AB_ROUNDS:-12}
PIPE=${AB_PIPE:-}
[[ -z $PIPE || -f $PIPE ]] || die2 "AB_PIPE: $PIPE: no such file"
[[ $ROUNDS =~ ^[0-9]+$ && $ROUNDS -gt 0 ]] || die2 "AB_ROUNDS must be a positive integer (got '$ROUNDS')"
command -v java > /dev/null 2>&1 || die2 "java not found on PATH"

OUT=$ROOT/bench-out/ab
# A launcher root: the launcher, the samples its training runs read (all of them: which ones is the
# launcher's business), and the jar.
make_root() {
  local dir=$1 jar=$2
  rm -rf "$dir"
  mkdir -p "$dir/dist" "$dir/target"
  cp -r "$ROOT/dist/bin" "$dir/dist/"
  cp -r "$ROOT/samples" "$dir/"
  cp "$jar" "$dir/target/nccl-triage.jar"
  # the first run trains and dumps the archive; not timed
  "$dir/dist/bin/nccl-triage" --version > /dev/null 2>&1 || die2 "$jar: the launcher cannot run it"
  [[ -f $dir/target/nccl-triage.jsa ]] || echo "ab-builds: $jar: no start-up archive (timed without one)" >&2
}
make_root "$OUT/a" "$JAR_A"
make_root "$OUT/b" "$JAR_B"

# Runs build $1 (a or b) once with the arguments; prints its wall time in ms. Relative paths in the
# arguments stay the checkout's: the command runs from $ROOT.
one() {
  local s e
  s=$(date +%s%N)
  if [[ -n $PIPE ]]; then
    (cd "$ROOT" && cat "$PIPE" | "$OUT/$1/dist/bin/nccl-triage" "${@:2}" > /dev/null 2> "$OUT/$1.stderr") || :
  else
    (cd "$ROOT" && "$OUT/$1/dist/bin/nccl-triage" "${@:2}" > /dev/null 2> "$OUT/$1.stderr") || :
  fi
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}

echo "round   A ms   B ms  B-A ms"
: > "$OUT/rounds"
for ((i = 1; i <= ROUNDS; i++)); do
  if ((i % 2)); then a=$(one a "$@"); b=$(one b "$@"); else b=$(one b "$@"); a=$(one a "$@"); fi
  printf '%5d %6d %6d %7d\n' "$i" "$a" "$b" $((b - a)) | tee -a "$OUT/rounds"
done

# median and quartiles of a column of $OUT/rounds (nearest rank)
stats() {
  awk -v c="$1" '{print $c}' "$OUT/rounds" | sort -n |
    awk '{x[NR] = $1} END {printf "%d (quartiles %d..%d)", x[int((NR + 1) / 2)], x[int(NR / 4) + 1], x[int(3 * NR / 4) + 1]}'
}
echo "A median: $(stats 2) ms"
echo "B median: $(stats 3) ms"
echo "B-A:      $(stats 4) ms over $ROUNDS rounds"
