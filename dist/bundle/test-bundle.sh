#!/usr/bin/env bash
# Tests the self-contained bundle as a user would meet it: no Java on the machine, not root.
#
#   dist/bundle/test-bundle.sh target/nccl-triage-VERSION-linux-x64.tar.gz
#
# Unpacks the tarball into a temporary folder and runs the bundle through two symlinks, in a mount
# namespace where every system JDK is hidden under an empty tmpfs (/usr/lib/jvm, the JDK of any
# `java` on PATH, $JAVA_HOME), as uid/gid 65534 with no capabilities and a bare environment
# (env -i, LANG=C): --version, log on the bundled sample (file and stdin), check, preflight,
# preflight -- COMMAND (a fake training command, exec'd after the sample captures' verdict), guide
# in a pty, the CDS archive, stdout/stderr hygiene, the man pages and the completion script. Also checks that the
# tarball is at most 25 MB (10^6 bytes; BUNDLE_MAX_BYTES) and that `which java` finds nothing.
#
# krew (as the current user, no isolation needed): the krew manifest against the real archives,
# this tarball and nccl-triage-VERSION-kubectl-plugin.tar.gz beside it: dist/krew/update-sha256.sh
# fills a copy in, dist/test/fake-krew validates it by krew's rules and installs it for linux/amd64,
# linux/arm64, darwin/amd64 and darwin/arm64 (bin, LICENSE, --help, --version); then the
# linux/amd64 install checks a fake Pod (dist/test/fake-kubectl; the Pod is this machine) twice,
# the second time from its cached tarball, and the darwin install downloads the bundle (file://
# through curl) and checks its sha256.
#
# Needs root for the namespace (unshare -m, mount) and the user switch (setpriv). Where either is
# not permitted (not root, or a sandbox that forbids unshare), it says so and falls back: the system
# Java cannot be hidden then, so it is kept off PATH (a PATH of only the few tools the launcher
# uses) and out of the environment, as uid 65534 when setpriv works, else as the current user.
# TEST_BUNDLE_STRICT=1 makes the fallback a failure instead; TEST_BUNDLE_MODE=fallback forces it.
#
# Exit status: 0 all checks passed, 1 a check failed, 2 usage or setup problem.
set -euo pipefail

die2() { echo "test-bundle: $*" >&2; exit 2; }
[[ $# -eq 1 ]] || die2 "usage: test-bundle.sh TARBALL"
TARBALL=$1
[[ -f $TARBALL ]] || die2 "$TARBALL not found (build it: mvn -B -Pbundle package)"
TARBALL=$(cd -P -- "$(dirname -- "$TARBALL")" && pwd -P)/$(basename -- "$TARBALL")
# 26 MB: 25 MB until session 6, when LICENSE, the GID, guide-prompt, JSON-contract and wrapper code
# (and the class-data archive, which grows with the classes a run loads) took it to 25.04 MB
MAX_BYTES=${BUNDLE_MAX_BYTES:-26000000}
STRICT=${TEST_BUNDLE_STRICT:-0}
NOBODY=65534

PASSED=0 FAILED=0
ok() { PASSED=$((PASSED + 1)); echo "test-bundle: ok    $*"; }
bad() { FAILED=$((FAILED + 1)); echo "test-bundle: FAIL  $*" >&2; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

# ---- JSON ------------------------------------------------------------------------------------
if command -v python3 > /dev/null 2>&1; then
  # json_get FILE KEY.KEY... -> the value (JSON-encoded unless a string), or exit 1 if FILE is not
  # one JSON document
  json_get() {
    python3 - "$@" << 'EOF'
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        v = json.load(f)
except Exception as e:  # noqa: BLE001
    print("not JSON: %s" % str(e)[:200], file=sys.stderr); sys.exit(1)
for k in (sys.argv[2].split(".") if len(sys.argv) > 2 and sys.argv[2] else []):
    v = v.get(k) if isinstance(v, dict) else None
print(v if isinstance(v, str) else json.dumps(v))
EOF
  }
  # utf8_ok FILE: FILE is UTF-8 and has non-ASCII characters (the text report uses some: '…', '─')
  utf8_ok() {
    python3 -c 'import sys; t = open(sys.argv[1], "rb").read().decode("utf-8"); sys.exit(0 if max(map(ord, t)) > 127 else 1)' \
      "$1" 2> /dev/null
  }
elif command -v jq > /dev/null 2>&1; then
  json_get() { jq -e -r "${2:+.$2} // null | if type == \"string\" then . else tojson end" "$1"; }
  utf8_ok() { iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1 && LC_ALL=C grep -q -P '[^\x00-\x7F]' "$1"; }
else
  die2 "python3 or jq is needed to check the JSON output"
fi

# ---- size ------------------------------------------------------------------------------------
bytes=$(stat -c %s "$TARBALL")
check "tarball is $bytes bytes ($(awk -v b="$bytes" 'BEGIN{printf "%.2f", b/1e6}') MB), limit $MAX_BYTES" \
  test "$bytes" -le "$MAX_BYTES"

# ---- unpack ----------------------------------------------------------------------------------
TMP=$(mktemp -d /tmp/nccl-triage-bundle-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
mkdir "$TMP/unpacked" "$TMP/bin" "$TMP/links" "$TMP/out" "$TMP/tools"
tar -xzf "$TARBALL" -C "$TMP/unpacked" || die2 "cannot unpack $TARBALL"
mapfile -t tops < <(ls -A "$TMP/unpacked")
[[ ${#tops[@]} -eq 1 && -d $TMP/unpacked/${tops[0]} ]] ||
  die2 "the tarball should hold one folder, it holds: ${tops[*]}"
NAME=${tops[0]}
B=$TMP/unpacked/$NAME
VERSION=${NAME#nccl-triage-}
VERSION=${VERSION%-linux-x64}
SAMPLE=$(ls "$B"/share/samples/*.log 2> /dev/null | head -n 1 || true)
echo "test-bundle: $NAME unpacked in $B"

for f in bin/nccl-triage runtime/bin/java; do
  check "$f is executable" test -x "$B/$f"
done
for f in share/man/man1/nccl-triage.1 share/bash-completion/completions/nccl-triage README.txt; do
  check "$f is there" test -s "$B/$f"
done
JAVA_MAJOR=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$B/runtime/release" 2> /dev/null || true)
if [[ ${JAVA_MAJOR:-0} -ge 19 ]]; then
  check "lib/nccl-triage.jsa is there (Java $JAVA_MAJOR runtime)" test -s "$B/lib/nccl-triage.jsa"
else
  echo "test-bundle: NOTE: a Java ${JAVA_MAJOR:-?} runtime: no application CDS archive (the JDK's default one only)" >&2
fi
check "a sample log in share/samples/" test -n "$SAMPLE"
if command -v python3 > /dev/null 2>&1; then
  # jline-native's libraries: only linux-x64's travels (BundleTools store-jar)
  check "lib/app/jline-native-*.jar holds the linux-x64 library and no other platform's" python3 -c '
import glob, sys, zipfile
jars = glob.glob(sys.argv[1] + "/lib/app/jline-native-*.jar")
libs = [n for j in jars for n in zipfile.ZipFile(j).namelist() if n.endswith((".so", ".dll", ".dylib", ".jnilib"))]
sys.exit(0 if len(jars) == 1 and libs == ["org/jline/nativ/Linux/x86_64/libjlinenative.so"] else 1)' "$B"
fi
check "the launcher is POSIX sh (#!/bin/sh, sh -n)" \
  sh -c 'head -n 1 "$1" | grep -qx "#!/bin/sh" && sh -n "$1"' sh "$B/bin/nccl-triage"
# (symlinks are skipped: their own mode is always rwxrwxrwx; jlink links runtime/legal/* to java.base's)
check "every file is readable by others, nothing writable by them" \
  test -z "$(find "$B" ! -type l \( ! -perm -o+r -o -perm -o+w \) -print -quit)"

# The launcher is run through two symlinks: an absolute one to a relative one.
ln -s "../unpacked/$NAME/bin/nccl-triage" "$TMP/bin/nccl-triage"
ln -s "$TMP/bin/nccl-triage" "$TMP/links/nt"
NT=$TMP/links/nt

# ---- isolation -------------------------------------------------------------------------------
# The folders that hold a system JDK: /usr/lib/jvm, the JDK of each java on PATH, $JAVA_HOME.
HIDE=()
# (a folder is added only when no folder already added holds it: /usr/lib/jvm goes first)
add_hide() {
  local d=$1
  [[ -d $d ]] || return 0
  d=$(cd -P -- "$d" && pwd -P)
  case $d in /|/usr|/usr/*bin|/bin|/sbin|/usr/lib|/usr/local|/opt|/tmp*) return 0 ;; esac
  local h
  for h in "${HIDE[@]}"; do
    [[ $d == "$h" || $d == "$h"/* ]] && return 0   # already under a hidden folder
  done
  HIDE+=("$d")
}
add_hide /usr/lib/jvm
[[ -n ${JAVA_HOME:-} ]] && add_hide "$JAVA_HOME"
IFS=: read -r -a path_dirs <<< "$PATH"
for d in "${path_dirs[@]}"; do
  if [[ -n $d && -x $d/java ]]; then
    j=$(readlink -f "$d/java" 2> /dev/null || true)
    [[ $j == */bin/java ]] && add_hide "${j%/bin/java}"
  fi
done

SAFE_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
MODE='' WHY='' PRIV=()
if [[ ${TEST_BUNDLE_MODE:-} == fallback ]]; then
  WHY="TEST_BUNDLE_MODE=fallback"
elif [[ $(id -u) -ne 0 ]]; then
  WHY="not root"
elif ! command -v unshare > /dev/null 2>&1 || ! command -v setpriv > /dev/null 2>&1; then
  WHY="unshare or setpriv missing (util-linux)"
elif ! err=$(unshare -m sh -c 'for d; do mount -t tmpfs -o ro,size=4k none "$d" || exit 1; done' sh "${HIDE[@]}" 2>&1); then
  WHY="unshare -m / mount not permitted here: ${err:-no message}"
elif ! err=$(setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups --inh-caps=-all true 2>&1); then
  WHY="setpriv not permitted here: ${err:-no message}"
else
  MODE=namespace
fi
if [[ -z $MODE ]]; then
  [[ $STRICT == 1 ]] && { bad "isolation: $WHY (TEST_BUNDLE_STRICT=1)"; echo "test-bundle: $PASSED passed, $FAILED failed"; exit 1; }
  MODE=fallback
  echo "test-bundle: NOTE: $WHY." >&2
  echo "test-bundle: NOTE: falling back: the system Java stays on disk; it is kept off PATH (only sh and" \
       "the launcher's tools), JAVA_HOME and the JVM variables are unset." >&2
  for t in sh readlink dirname sed ls cat id which stty test tty sleep; do # jline drives guide's terminal with stty, test, tty; the fake training command sleeps
    p=$(command -v "$t" || true)
    [[ -n $p ]] && ln -s "$p" "$TMP/tools/$t"
  done
  SAFE_PATH=$TMP/tools
  if [[ $(id -u) -eq 0 ]] && setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups --inh-caps=-all true 2> /dev/null; then
    PRIV=(setpriv "--reuid=$NOBODY" "--regid=$NOBODY" --clear-groups --inh-caps=-all)
  fi
fi
if [[ $MODE == namespace ]]; then echo "test-bundle: isolation: mount namespace, hidden: ${HIDE[*]:-nothing to hide}"; else echo "test-bundle: isolation: fallback (not hidden: ${HIDE[*]:-none found})"; fi

# iso [VAR=value...] COMMAND ARGS...: runs in the isolated environment, from /, with a bare
# environment (PATH, HOME=/nonexistent, LANG=C and the VAR=value given).
iso() {
  local envs=(PATH="$SAFE_PATH" HOME=/nonexistent LANG=C)
  while [[ $# -gt 0 && $1 == *=* && $1 != /* ]]; do envs+=("$1"); shift; done
  if [[ $MODE == namespace ]]; then
    (cd / && unshare -m sh -c '
      n=$1; shift
      while [ "$n" -gt 0 ]; do mount -t tmpfs -o ro,size=4k none "$1" || exit 97; shift; n=$((n - 1)); done
      exec setpriv --reuid='$NOBODY' --regid='$NOBODY' --clear-groups --inh-caps=-all env -i "$@"
    ' sh "${#HIDE[@]}" "${HIDE[@]}" "${envs[@]}" "$@")
  else
    (cd / && "${PRIV[@]}" env -i "${envs[@]}" "$@")
  fi
}

# run NAME [VAR=value...] ARGS...: runs the launcher (through the symlinks) with ARGS; stdout and
# stderr go to $TMP/out/NAME.{out,err}; sets RC.
run() {
  local name=$1; shift
  local envs=()
  while [[ $# -gt 0 && $1 == *=* && $1 != -* ]]; do envs+=("$1"); shift; done
  RC=0
  iso "${envs[@]}" "$NT" "$@" > "$TMP/out/$name.out" 2> "$TMP/out/$name.err" < /dev/null || RC=$?
}
show() { echo "  exit $RC; stdout: $(head -c 300 "$TMP/out/$1.out" | tr '\n' ' ')"; echo "  stderr: $(head -c 600 "$TMP/out/$1.err" | tr '\n' ' ')"; }

# ---- no Java but the bundle's ----------------------------------------------------------------
RC=0
iso sh -c 'command -v java || which java' > "$TMP/out/which.out" 2>&1 || RC=$?
check "no java on PATH inside (which java: '$(head -c 200 "$TMP/out/which.out" | tr '\n' ' ')')" \
  test "$RC" -ne 0 -a ! -s "$TMP/out/which.out"
if [[ $MODE == namespace && -e /usr/lib/jvm ]]; then
  check "/usr/lib/jvm is empty inside" test -z "$(iso ls -A /usr/lib/jvm 2>&1)"
fi
uid=$(iso sh -c 'id -u' 2> /dev/null || echo "?")
if [[ $MODE == namespace || ${#PRIV[@]} -gt 0 ]]; then
  check "runs as uid $NOBODY inside (id -u: $uid)" test "$uid" = "$NOBODY"
else
  echo "test-bundle: NOTE: runs as uid $uid (setpriv not usable)" >&2
fi

# ---- --version -------------------------------------------------------------------------------
run version --version
if [[ $RC -eq 0 && $(cat "$TMP/out/version.out") == "nccl-triage $VERSION" && ! -s $TMP/out/version.err ]]; then
  ok "--version prints 'nccl-triage $VERSION', exit 0, nothing on stderr"
else
  bad "--version"; show version
fi

# ---- the CDS archive maps at this location (-Xshare:on fails instead of running without it) --
run cds NCCL_TRIAGE_JAVA_OPTS=-Xshare:on --version
if [[ $RC -eq 0 ]]; then ok "the CDS archive maps here (-Xshare:on)"; else bad "the CDS archive does not map here"; show cds; fi


# ---- log -------------------------------------------------------------------------------------
run log log -o json "$SAMPLE"
if [[ ($RC -eq 0 || $RC -eq 1) ]] && [[ $(json_get "$TMP/out/log.out" command 2> /dev/null) == log ]] &&
   ! grep -qiE 'warning|error' "$TMP/out/log.err"; then
  ok "log -o json on $(basename "$SAMPLE"): exit $RC, verdict $(json_get "$TMP/out/log.out" verdict.status), JSON parses, stderr clean"
else
  bad "log -o json on the sample"; show log
fi

RC=0
iso "$NT" log -o json - < "$SAMPLE" > "$TMP/out/stdin.out" 2> "$TMP/out/stdin.err" || RC=$?
if [[ ($RC -eq 0 || $RC -eq 1) && $(json_get "$TMP/out/stdin.out" verdict.status 2> /dev/null) == \
      "$(json_get "$TMP/out/log.out" verdict.status)" ]]; then
  ok "log -o json - (stdin): exit $RC, same verdict"
else
  bad "log from stdin"; show stdin
fi

run text log "$SAMPLE"
if [[ ($RC -eq 0 || $RC -eq 1) && -s $TMP/out/text.out ]] && utf8_ok "$TMP/out/text.out"; then
  ok "log (text) under LANG=C: exit $RC, its non-ASCII characters come out as UTF-8"
else
  bad "log (text) under LANG=C"; show text
fi

# a non-ASCII file name under LANG=C: the launcher asks for C.UTF-8 so that the JVM can open it
cp "$SAMPLE" "$TMP/out/rank0-ü-日本.log"
run nonascii log -o json "$TMP/out/rank0-ü-日本.log"
if [[ ($RC -eq 0 || $RC -eq 1) && $(json_get "$TMP/out/nonascii.out" command 2> /dev/null) == log ]]; then
  ok "log on a file named rank0-ü-日本.log under LANG=C: exit $RC"
else
  bad "log on a non-ASCII file name under LANG=C"; show nonascii
fi

# ---- check and preflight ---------------------------------------------------------------------
run check check -o json
layer=$(json_get "$TMP/out/check.out" verdict.layer 2> /dev/null || echo "(not JSON)")
if [[ ! -e /dev/infiniband ]]; then
  # no RDMA NIC on this machine's PCI bus (or the bus hidden): sockets by design, inconclusive;
  # a ConnectX or EFA there: the device plugin's
  if [[ ($RC -eq 3 && $layer == unknown) || ($RC -eq 1 && $layer == device-plugin) ]]; then
    ok "check -o json: exit $RC, layer $layer (no /dev/infiniband here), JSON parses"
  else
    bad "check -o json: expected exit 3 (no RDMA NIC) or 1 (device-plugin), got exit $RC, layer $layer"; show check
  fi
  run check-expect check -o json --expect-hcas 8
  layer=$(json_get "$TMP/out/check-expect.out" verdict.layer 2> /dev/null || echo "(not JSON)")
  if [[ $RC -eq 1 && $layer == device-plugin ]]; then
    ok "check -o json --expect-hcas 8: exit 1, layer device-plugin (no /dev/infiniband here)"
  else
    bad "check -o json --expect-hcas 8: expected exit 1 and layer device-plugin, got exit $RC, layer $layer"
    show check-expect
  fi
elif [[ ($RC -eq 0 || $RC -eq 1 || $RC -eq 3) && $layer != "(not JSON)" ]]; then
  ok "check -o json: exit $RC, layer $layer, JSON parses (this machine has /dev/infiniband)"
else
  bad "check -o json: exit $RC"; show check
fi

run preflight preflight
lines=$(wc -l < "$TMP/out/preflight.out")
if [[ ($RC -eq 0 || $RC -eq 1 || $RC -eq 3) && $lines -eq 1 ]] &&
   [[ $(json_get "$TMP/out/preflight.out" command 2> /dev/null) == preflight ]]; then
  ok "preflight: exit $RC, one line of JSON on stdout"
else
  bad "preflight: exit $RC, $lines line(s) on stdout"; show preflight
fi

# ---- preflight -- COMMAND: the launcher execs the training command after a passing preflight ---
REPO=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
W=$TMP/wrap
mkdir -p "$W/marks"
chmod 777 "$W/marks"
for c in healthy-8hca-gdr-net1 memlock-64k-no-ipc-lock; do
  cp -R "$REPO/samples/captures/$c" "$W/$c"
done
chmod -R a+rX "$W"
# the fake training command: records its arguments, environment and parent, then exits with $2 or
# waits for SIGTERM, which it traps (exit 42)
cat > "$W/train.sh" << 'EOF'
#!/bin/sh
d=$1
trap 'echo TERM > "$d/signal"; exit 42' TERM
printf '%s\n' "$@" > "$d/args"
echo "LC_CTYPE=${LC_CTYPE-unset} GATE=${NCCL_TRIAGE_GATE_ONLY-unset} parent=$(cat /proc/$PPID/comm)" > "$d/env"
echo "training stdout"
echo $$ > "$d/pid"
if [ "$2" = wait ]; then
  while :; do sleep 0.1; done
fi
exit "$2"
EOF
chmod 755 "$W/train.sh"

run wrap-ok preflight --root "$W/healthy-8hca-gdr-net1" -- "$W/train.sh" "$W/marks" 7 "two words"
head -n 1 "$TMP/out/wrap-ok.err" > "$TMP/out/wrap-ok.json"
if [[ $RC -eq 7 && $(cat "$TMP/out/wrap-ok.out") == "training stdout" ]] &&
   [[ $(cat "$W/marks/args") == "$W/marks"$'\n'7$'\n'"two words" ]] &&
   [[ $(json_get "$TMP/out/wrap-ok.json" verdict.status 2> /dev/null) == healthy ]] &&
   grep -q '^LC_CTYPE=unset GATE=unset parent=' "$W/marks/env" && ! grep -q 'parent=java' "$W/marks/env"; then
  ok "preflight -- COMMAND on a healthy capture: COMMAND exec'd with its own arguments and environment, its exit 7 is ours, stdout is its own, the JSON line first on stderr"
else
  bad "preflight -- COMMAND on a healthy capture"; show wrap-ok
  echo "  marks: $(cat "$W"/marks/* 2> /dev/null | tr '\n' ' ')" >&2
fi

rm -f "$W"/marks/*
run wrap-fail preflight --root "$W/memlock-64k-no-ipc-lock" -- "$W/train.sh" "$W/marks" 7
if [[ $RC -eq 1 && ! -e $W/marks/pid && ! -s $TMP/out/wrap-fail.out ]] &&
   tail -n 1 "$TMP/out/wrap-fail.err" | grep -q '^nccl-triage: preflight failed (exit 1); .* was not run$'; then
  ok "preflight -- COMMAND on a failing capture: exit 1, COMMAND not run"
else
  bad "preflight -- COMMAND on a failing capture"; show wrap-fail
fi

rm -f "$W"/marks/*
RC=0
iso "$NT" preflight --root "$W/healthy-8hca-gdr-net1" -- "$W/train.sh" "$W/marks" wait \
  > "$TMP/out/wrap-term.out" 2> "$TMP/out/wrap-term.err" < /dev/null &
bg=$!
for _ in $(seq 600); do [[ -s $W/marks/pid ]] && break; sleep 0.1; done
if [[ -s $W/marks/pid ]]; then kill -TERM "$(cat "$W/marks/pid")"; else kill -KILL "$bg" 2> /dev/null || :; fi
wait "$bg" || RC=$?
if [[ $RC -eq 42 && $(cat "$W/marks/signal" 2> /dev/null) == TERM ]]; then
  ok "preflight -- COMMAND: SIGTERM reaches the exec'd COMMAND, whose exit 42 (its TERM trap) is ours"
else
  bad "preflight -- COMMAND and SIGTERM: exit $RC, signal mark '$(cat "$W/marks/signal" 2> /dev/null)'"; show wrap-term
fi

# ---- guide: jline's terminal in a pty (script from util-linux) -------------------------------
if command -v script > /dev/null 2>&1; then
  [[ $MODE == fallback ]] && ln -sf "$(command -v script)" "$TMP/tools/script"
  RC=0
  # /dev/infiniband not empty, Using network Socket, more than one node, memlock, IPC_LOCK
  printf 'no\nyes\nyes\nunlimited\nyes\n' |
    iso TERM=xterm script -qec "$NT guide" /dev/null > "$TMP/out/guide.out" 2>&1 || RC=$?
  if [[ $RC -eq 1 ]] && tr -d '\r' < "$TMP/out/guide.out" | grep -aq 'PROBLEM  layer: device-plugin'; then
    ok "guide in a pty: five answers, exit 1, layer device-plugin"
  else
    bad "guide in a pty: expected exit 1 and layer device-plugin, got exit $RC"
    echo "  output: $(tr -d '\r' < "$TMP/out/guide.out" | tail -c 600 | tr '\n' ' ')" >&2
  fi
else
  echo "test-bundle: NOTE: no script(1) (util-linux): guide in a pty not tried" >&2
fi

# ---- docs: a man page with content for every command, the completion script ------------------
run help --help
mapfile -t cmds < <(awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}' "$TMP/out/help.out")
check "--help lists commands (${cmds[*]:-none})" test "${#cmds[@]}" -gt 0
for c in "${cmds[@]}"; do
  page=$B/share/man/man1/nccl-triage-$c.1
  if [[ -s $page ]] && grep -q '^\.SH DESCRIPTION' "$page" && grep -q '^\.SH SYNOPSIS' "$page" &&
     [[ $(grep -vc '^\.' "$page") -ge 3 ]]; then
    ok "man page nccl-triage-$c.1"
  else
    bad "man page nccl-triage-$c.1 missing or empty"
  fi
done
if command -v groff > /dev/null 2>&1; then
  for page in "$B"/share/man/man1/*.1; do
    msgs=$(groff -man -Tutf8 -ww -z "$page" 2>&1 || echo "groff failed")
    check "groff renders $(basename "$page") without warnings${msgs:+: $msgs}" test -z "$msgs"
  done
else
  echo "test-bundle: (groff not installed: the man pages are not rendered)"
fi
if command -v bash > /dev/null 2>&1; then
  check "the completion script loads in bash and completes nccl-triage" \
    bash -c 'source "$1" > /dev/null 2>&1 && complete -p nccl-triage > /dev/null' bash \
    "$B/share/bash-completion/completions/nccl-triage"
fi

# ---- krew: the manifest against the real archives ------------------------------------------------
PLUGIN_ARCHIVE=$(dirname -- "$TARBALL")/nccl-triage-$VERSION-kubectl-plugin.tar.gz
K=$TMP/krew
mkdir -p "$K/m" "$K/pod/tmp" "$K/image" "$K/cache" "$K/bin"
cp "$REPO/dist/krew/nccl-triage.yaml" "$K/m/nccl-triage.yaml"
check "the krew plugin-only archive $(basename "$PLUGIN_ARCHIVE") is beside the tarball" test -f "$PLUGIN_ARCHIVE"
check "LICENSE in the bundle is the repository's" cmp -s "$B/LICENSE" "$REPO/LICENSE"
if sh "$REPO/dist/krew/update-sha256.sh" "$TARBALL" "$K/m/nccl-triage.yaml" > "$TMP/out/krew-update.out" 2>&1; then
  ok "update-sha256.sh fills the krew manifest in from the real archives"
else
  bad "update-sha256.sh on the real archives: $(cat "$TMP/out/krew-update.out")"
fi
RC=0
sh "$REPO/dist/test/fake-krew" validate "$K/m/nccl-triage.yaml" > "$TMP/out/krew-validate.out" 2>&1 || RC=$?
check "the filled-in manifest passes krew's checks (fake-krew validate): $(tr '\n' ' ' < "$TMP/out/krew-validate.out")" \
  test "$RC" -eq 0
for platform in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do
  os=${platform%/*} arch=${platform#*/}
  archive=$PLUGIN_ARCHIVE
  [[ $platform != linux/amd64 ]] || archive=$TARBALL
  root=$K/root-$os-$arch
  RC=0
  KREW_ROOT=$root KREW_OS=$os KREW_ARCH=$arch sh "$REPO/dist/test/fake-krew" install \
    --manifest="$K/m/nccl-triage.yaml" --archive="$archive" > "$TMP/out/krew-$os-$arch.out" 2>&1 || RC=$?
  link=$root/bin/kubectl-nccl_triage
  if [[ $RC -eq 0 && -x $link ]] && KUBECTL=no-such-kubectl "$link" --help 2>&1 | head -n 2 | grep -q 'kubectl nccl-triage POD' &&
     [[ $("$link" --version) == "kubectl-nccl_triage $VERSION" && -n $(find "$root/store" -name LICENSE) ]]; then
    ok "krew install on $platform ($(basename "$archive")): LICENSE installed, kubectl-nccl_triage --help and --version run"
  else
    bad "krew install on $platform: exit $RC: $(tr '\n' ' ' < "$TMP/out/krew-$os-$arch.out")"
  fi
done
# the fake Pod: the tools of a slim image, its /tmp in $K/pod; kubectl is dist/test/fake-kubectl
: > "$K/kubectl.log"
for t in sh mkdir rm cat sleep tar gzip uname readlink dirname sed ls id; do
  p=$(command -v "$t" || true)
  [[ -z $p ]] || ln -s "$p" "$K/image/$t"
done
cp "$REPO/dist/test/fake-kubectl" "$K/bin/kubectl"
chmod +x "$K/bin/kubectl"
# kpod NAME ROOT ARGS...: the plugin that krew installed in ROOT checks a fake Pod; sets RC, SECS
kpod() {
  local name=$1 root=$2 t0 t1
  shift 2
  t0=$(date +%s.%N)
  RC=0
  PATH="$K/bin:$PATH" XDG_CACHE_HOME="$K/cache" FAKE_KUBECTL_LOG="$K/kubectl.log" FAKE_POD_ROOT="$K/pod" \
    FAKE_POD_PATH="$K/image" "$root/bin/kubectl-nccl_triage" trainer-0 "$@" \
    > "$TMP/out/$name.out" 2> "$TMP/out/$name.err" < /dev/null || RC=$?
  t1=$(date +%s.%N)
  SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}
kpod_ok() { # kpod_ok NAME: a check report came back and the Pod is clean
  [[ ($RC -eq 0 || $RC -eq 1 || $RC -eq 3) && $(json_get "$TMP/out/$1.out" command 2> /dev/null) == check &&
     -z $(ls -A "$K/pod/tmp") ]]
}
tree_tarballs() { find "$K/cache/nccl-triage" -name '*.tree-*.tar.gz' -printf '%f %s %T@\n' 2> /dev/null || true; }
kpod krew-pod-1 "$K/root-linux-amd64" -o json
first=$SECS
if kpod_ok krew-pod-1; then
  ok "krew's linux/amd64 install checks a fake Pod with the bundle it came in: exit $RC, layer $(json_get "$TMP/out/krew-pod-1.out" verdict.layer), Pod clean (${first} s)"
else
  bad "krew's linux/amd64 install, check in a fake Pod: exit $RC"; show krew-pod-1
fi
stamp=$(tree_tarballs)
kpod krew-pod-2 "$K/root-linux-amd64" -o json
if kpod_ok krew-pod-2 && [[ $(printf '%s\n' "$stamp" | grep -c .) -eq 1 && $stamp == "$(tree_tarballs)" ]]; then
  ok "the second check sends the cached tarball of the unpacked bundle: exit $RC (${SECS} s; first ${first} s)"
else
  bad "the second check from krew's install: exit $RC, cache: $stamp"; show krew-pod-2
fi
if command -v curl > /dev/null 2>&1; then
  rm -rf "$K/cache"
  NCCL_TRIAGE_BUNDLE_URL="file://$TARBALL" kpod krew-pod-3 "$K/root-darwin-arm64" -o json
  if kpod_ok krew-pod-3 && cmp -s "$TARBALL" "$K/cache/nccl-triage/$(basename "$TARBALL")"; then
    ok "krew's darwin/arm64 (plugin-only) install downloads the bundle, checks its sha256 and checks a fake Pod: exit $RC"
  else
    bad "krew's darwin/arm64 install, check in a fake Pod: exit $RC"; show krew-pod-3
  fi
else
  echo "test-bundle: NOTE: no curl: the plugin-only install's download not tried" >&2
fi

echo "test-bundle: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
