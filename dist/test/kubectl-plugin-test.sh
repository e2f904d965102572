#!/bin/sh
# Tests dist/kubectl-nccl_triage with a fake kubectl (dist/test/fake-kubectl) first on PATH: it
# records each call and plays the Pod in a sandbox directory, with a tiny fake bundle whose
# bin/nccl-triage echoes its arguments and exits with $FAKE_TOOL_RC. Asserts the exact kubectl
# calls of every mode, the exit status, what streams back, and that the Pod is left clean.
#
#   sh dist/test/kubectl-plugin-test.sh [-v]     -v: print the kubectl calls of every case
#   PLUGIN_SHELL=bash sh dist/test/...           run the plugin with that shell (default: #!/bin/sh)
#
# Needs sh, tar, gzip, od, cmp, sed. Optional: python3 (the no-tar fallback), shellcheck (lint),
# REAL_NCCL_TRIAGE=command that runs the real CLI (an end-to-end --logs case). Exit 0: all passed.
set -u

verbose=0
[ "${1:-}" != -v ] || verbose=1

here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
dist=${here%/*}
repo=${dist%/*}
plugin=$dist/kubectl-nccl_triage
sample=$repo/samples/logs/02-socket-no-device-k8s-2.19.3.log
for f in "$plugin" "$here/fake-kubectl" "$sample"; do
  [ -f "$f" ] || { echo "missing $f" >&2; exit 2; }
done
for t in tar gzip od cmp sed; do
  command -v "$t" > /dev/null 2>&1 || { echo "kubectl-plugin-test: needs $t" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/kubectl-plugin-test.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

failures=$work/failures
: > "$failures"
case_name=
passed=0
fail() {
  printf 'FAIL [%s] %s\n' "$case_name" "$*" >&2
  echo "$case_name" >> "$failures"
}

# --- fixtures ----------------------------------------------------------------------------------

mkdir -p "$work/bin" "$work/cwd" "$work/dl"
cp "$here/fake-kubectl" "$work/bin/kubectl"
chmod +x "$work/bin/kubectl"

# The fake bundle: nccl-triage-0.1.0/{bin/nccl-triage,runtime/,lib/}
mkdir -p "$work/b/nccl-triage-0.1.0/bin" "$work/b/nccl-triage-0.1.0/runtime/bin" \
  "$work/b/nccl-triage-0.1.0/lib"
cat > "$work/b/nccl-triage-0.1.0/bin/nccl-triage" << 'EOF'
#!/bin/sh
# fake nccl-triage: echoes its arguments; `capture -o FILE` copies $FAKE_CAPTURE_SRC to FILE
echo "fake nccl-triage $*"
echo "fake nccl-triage stderr TMPDIR=$TMPDIR NCCL_TRIAGE_JAVA_OPTS=$NCCL_TRIAGE_JAVA_OPTS" >&2
if [ "${1:-}" = capture ] && [ "${2:-}" = -o ]; then
  cat "$FAKE_CAPTURE_SRC" > "$3" || exit 4
fi
if [ -n "${FAKE_TOOL_SLEEP:-}" ]; then
  echo "$$" > "$FAKE_TOOL_PIDFILE"
  exec sleep "$FAKE_TOOL_SLEEP"
fi
exit "${FAKE_TOOL_RC:-0}"
EOF
chmod +x "$work/b/nccl-triage-0.1.0/bin/nccl-triage"
echo "not a JVM" > "$work/b/nccl-triage-0.1.0/runtime/bin/java"
echo "not a jar" > "$work/b/nccl-triage-0.1.0/lib/nccl-triage.jar"
tarball=$work/dl/nccl-triage-0.1.0-linux-x64.tar.gz
tar -czf "$tarball" -C "$work/b" nccl-triage-0.1.0

# What `capture` writes: binary (NUL, 0xff, CR, LF, ...), gzipped.
printf 'capture\000\377\015\012\033bytes\000' > "$work/capture.raw"
od -c "$sample" | head -n 200 >> "$work/capture.raw"
gzip -c "$work/capture.raw" > "$work/capture.src.tar.gz"

# The images: the tools each one has.
pod_image() { # pod_image DIR TOOL...
  d=$1
  shift
  mkdir -p "$d"
  for t in "$@"; do
    p=$(command -v "$t") || { echo "kubectl-plugin-test: host has no $t" >&2; exit 2; }
    ln -s "$p" "$d/$t"
  done
  cat > "$d/uname" << 'EOF'
#!/bin/sh
echo "${FAKE_UNAME:-x86_64}"
EOF
  chmod +x "$d/uname"
}
pod_image "$work/img-full" sh mkdir rm cat sleep tar gzip
pod_image "$work/img-bare" sh mkdir rm cat sleep
python=
if command -v python3 > /dev/null 2>&1; then
  python=$(python3 -c 'import sys; print(sys.executable)' 2> /dev/null) || python=
fi
if [ -n "$python" ] && [ -x "$python" ]; then
  pod_image "$work/img-python" sh mkdir rm cat sleep
  ln -s "$python" "$work/img-python/python3"
fi

# A local nccl-triage for --logs: records its arguments and stdin, exits $FAKE_CLI_RC.
cat > "$work/local-cli" << EOF
#!/bin/sh
printf '%s\n' "\$*" > "$work/cli.args"
cat > "$work/cli.stdin"
echo "local nccl-triage \$*"
exit "\${FAKE_CLI_RC:-0}"
EOF
chmod +x "$work/local-cli"
# the sample as `kubectl logs --prefix` shows it (for the fake, TARGET/main)
expected_stdin() { sed "s|^|[$1/main] |" "$sample"; }

# --- running a case ----------------------------------------------------------------------------

# begin NAME: a fresh Pod sandbox, an empty call log and the default environment
begin() {
  case_name=$1
  rm -rf "$work/pod" "$work/cwd" "$work/out" "$work/err" "$work/cli.args" "$work/cli.stdin"
  mkdir -p "$work/pod/tmp" "$work/cwd"
  : > "$work/kubectl.log"
  FAKE_KUBECTL_LOG=$work/kubectl.log
  FAKE_POD_ROOT=$work/pod
  FAKE_POD_PATH=$work/img-full
  FAKE_LOGS_FILE=$sample
  FAKE_CAPTURE_SRC=$work/capture.src.tar.gz
  export FAKE_KUBECTL_LOG FAKE_POD_ROOT FAKE_POD_PATH FAKE_LOGS_FILE FAKE_CAPTURE_SRC
  unset FAKE_KUBECTL_FAIL FAKE_KUBECTL_INTERRUPT FAKE_KUBECTL_DETACH FAKE_TOOL_RC FAKE_TOOL_SLEEP \
    FAKE_TOOL_PIDFILE FAKE_UNAME FAKE_CLI_RC \
    NCCL_TRIAGE NCCL_TRIAGE_BUNDLE KUBECTL
}

# plug ARGS...: run the plugin from the case's cwd with the fake kubectl first on PATH; sets rc,
# stdout in $work/out, stderr in $work/err. plug_copy PROGRAM ARGS...: the same with a copy of it.
plug() {
  plug_copy "$plugin" "$@"
}
plug_copy() {
  prog=$1
  shift
  # shellcheck disable=SC2086 # PLUGIN_SHELL may carry options
  (cd "$work/cwd" && PATH="$work/bin:$PATH" exec ${PLUGIN_SHELL:-} "$prog" "$@") > "$work/out" 2> "$work/err" < /dev/null
  rc=$?
}

# expect_rc N
expect_rc() {
  [ "$rc" = "$1" ] || fail "exit status $rc, expected $1; stderr: $(cat "$work/err")"
}

# expect_calls < EXPECTED: the recorded kubectl calls, with each nccl-triage.<12 hex> shown as
# nccl-triage.ID (and all of them the same directory)
expect_calls() {
  sed -e 's|nccl-triage\.[0-9a-f]\{12\}|nccl-triage.ID|g' "$work/kubectl.log" > "$work/calls"
  cat > "$work/expected"
  if ! cmp -s "$work/expected" "$work/calls"; then
    fail "kubectl calls differ (- expected, + actual):"
    diff -u "$work/expected" "$work/calls" | sed -n '3,$p' >&2
  elif [ "$verbose" = 1 ]; then
    printf '  [%s]\n' "$case_name"
    sed 's/^/    /' "$work/calls"
  fi
  ids=$(grep -o 'nccl-triage\.[0-9a-f]*' "$work/kubectl.log" | sort -u | wc -l)
  [ "$ids" -le 1 ] || fail "more than one remote directory: $(grep -o 'nccl-triage\.[0-9a-f]*' "$work/kubectl.log" | sort -u | tr '\n' ' ')"
}

# expect_clean_pod: nothing left under the Pod's /tmp
expect_clean_pod() {
  left=$(cd "$work/pod/tmp" && find . -mindepth 1 -name 'nccl-triage.*' -prune -print)
  [ -z "$left" ] || fail "left in the Pod: $left"
}

# expect_out TEXT / expect_err_has TEXT
expect_out() {
  printf '%s\n' "$1" > "$work/out.expected"
  cmp -s "$work/out.expected" "$work/out" || fail "stdout is '$(cat "$work/out")', expected '$1'"
}
expect_err_has() {
  grep -qF -- "$1" "$work/err" || fail "stderr lacks '$1': $(cat "$work/err")"
}
# expect_usage_error TEXT: exit 2, one line on stderr starting "nccl-triage: " and containing TEXT,
# no kubectl call
expect_usage_error() {
  expect_rc 2
  [ "$(wc -l < "$work/err")" -eq 1 ] || fail "stderr is not one line: $(cat "$work/err")"
  expect_err_has "nccl-triage: "
  expect_err_has "$1"
  [ ! -s "$work/kubectl.log" ] || fail "kubectl was called: $(cat "$work/kubectl.log")"
}
done_case() {
  grep -qxF "$case_name" "$failures" || passed=$((passed + 1))
}

# --- check (the default) -----------------------------------------------------------------------

begin "check: a problem (exit 1) passes through, Pod cleaned"
export FAKE_TOOL_RC=1
plug trainer-0 -n ml --context prod --bundle "$tarball" -- --expect-hcas 8 --log /logs/rank0.log
expect_rc 1
expect_calls << 'EOF'
kubectl exec -i trainer-0 -n ml --context prod -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -n ml --context prod -- sh -c {run} sh /tmp/nccl-triage.ID check --expect-hcas 8 --log /logs/rank0.log
kubectl exec trainer-0 -n ml --context prod -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_out "fake nccl-triage check --expect-hcas 8 --log /logs/rank0.log"
expect_err_has "fake nccl-triage stderr"
# temporary files stay in the directory the cleanup removes
grep -q "TMPDIR=$work/pod/tmp/nccl-triage\.[0-9a-f]*/tmp NCCL_TRIAGE_JAVA_OPTS=-Djava.io.tmpdir=$work/pod/tmp/nccl-triage\.[0-9a-f]*/tmp -XX:-UsePerfData $" "$work/err" \
  || fail "TMPDIR/NCCL_TRIAGE_JAVA_OPTS not pointing into the remote directory: $(cat "$work/err")"
expect_clean_pod
done_case

begin "check: healthy, bundle from NCCL_TRIAGE_BUNDLE, -c, TYPE/NAME, option=value forms"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug pod/trainer-0 --container=worker --namespace=ml --kubeconfig /k/config
expect_rc 0
expect_calls << 'EOF'
kubectl exec -i pod/trainer-0 -c worker -n ml --kubeconfig /k/config -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec pod/trainer-0 -c worker -n ml --kubeconfig /k/config -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec pod/trainer-0 -c worker -n ml --kubeconfig /k/config -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_out "fake nccl-triage check"
expect_clean_pod
done_case

begin "check: internal error (exit 4) passes through, Pod cleaned, --tmpdir"
mkdir -p "$work/pod/tmp/scratch"
export FAKE_TOOL_RC=4 NCCL_TRIAGE_BUNDLE="$tarball"
plug trainer-0 --tmpdir /tmp/scratch/ -- -o json
expect_rc 4
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/scratch/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/scratch/nccl-triage.ID check -o json
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/scratch/nccl-triage.ID
EOF
expect_out "fake nccl-triage check -o json"
left=$(ls -A "$work/pod/tmp/scratch")
[ -z "$left" ] || fail "left in the Pod: $left"
done_case

begin "check: Ctrl-C during the run still cleans up (exit 130)"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_KUBECTL_INTERRUPT=2
plug trainer-0
expect_rc 130
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

begin "check: Ctrl-C while the run goes on in the container: the cleanup stops it"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_KUBECTL_DETACH=2 FAKE_TOOL_SLEEP=60 \
  FAKE_TOOL_PIDFILE="$work/tool.pid"
rm -f "$work/tool.pid"
plug trainer-0
expect_rc 130
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
if [ -s "$work/tool.pid" ]; then
  tool_pid=$(cat "$work/tool.pid")
  if kill -0 "$tool_pid" 2> /dev/null; then
    sleep 1
    if kill -0 "$tool_pid" 2> /dev/null; then
      fail "the remote nccl-triage (pid $tool_pid) still runs"
      kill "$tool_pid" 2> /dev/null
    fi
  fi
else
  fail "the remote nccl-triage never started"
fi
expect_clean_pod
done_case

begin "check: Ctrl-C during the install still cleans up (exit 130)"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_KUBECTL_INTERRUPT=1
plug trainer-0
expect_rc 130
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

begin "check: connection lost during the run: exit 2, cleanup"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_KUBECTL_FAIL=2
plug trainer-0
expect_rc 2
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_err_has "did not finish"
expect_clean_pod
done_case

begin "check: the bundle cannot start (exit 127): exit 2 with a hint, cleanup"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_TOOL_RC=127
plug trainer-0
expect_rc 2
expect_err_has "glibc"
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

begin "check: no such Pod: exit 2, cleanup attempted, leftover hint"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_KUBECTL_FAIL="1 2"
plug nope -n ml
expect_rc 2
expect_calls << 'EOF'
kubectl exec -i nope -n ml -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec nope -n ml -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_err_has "Error from server (NotFound)"
expect_err_has "nccl-triage: kubectl exec into nope failed (exit 1, see above)"
expect_err_has "rm -rf /tmp/nccl-triage."
[ "$(grep -c NotFound "$work/err")" = 1 ] || fail "kubectl's error shown more than once: $(cat "$work/err")"
done_case

if [ -d "$work/img-python" ]; then
  begin "check: image without tar: python3 unpacks"
  export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_POD_PATH="$work/img-python" FAKE_TOOL_RC=3
  plug trainer-0
  expect_rc 3
  expect_out "fake nccl-triage check"
  expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
  expect_clean_pod
  done_case
else
  echo "SKIP [check: image without tar: python3 unpacks]: no python3" >&2
fi

if command -v busybox > /dev/null 2>&1; then
  pod_image "$work/img-busybox" busybox
  for t in sh mkdir rm cat sleep; do ln -s "$(command -v busybox)" "$work/img-busybox/$t"; done
  begin "check: busybox image without a tar link: busybox tar unpacks"
  export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_POD_PATH="$work/img-busybox"
  plug trainer-0
  expect_rc 0
  expect_out "fake nccl-triage check"
  expect_clean_pod
  done_case

  pod_image "$work/img-bbtar" busybox
  for t in sh mkdir rm cat sleep tar; do ln -s "$(command -v busybox)" "$work/img-bbtar/$t"; done
  begin "check: tar is busybox's, no gzip: tar unpacks"
  export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_POD_PATH="$work/img-bbtar"
  plug trainer-0
  expect_rc 0
  expect_out "fake nccl-triage check"
  expect_clean_pod
  done_case
else
  echo "SKIP [busybox images]: no busybox" >&2
fi

begin "check: image with nothing to unpack with: exit 2, cleanup"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_POD_PATH="$work/img-bare"
plug trainer-0
expect_rc 2
expect_err_has "neither tar with gzip, nor busybox, nor python3"
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

begin "check: arm64 container: exit 2 before unpacking"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_UNAME=aarch64
plug trainer-0
expect_rc 2
expect_err_has "the container is aarch64"
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

# --- capture -----------------------------------------------------------------------------------

begin "capture: default file name, --redact and options pass through, binary-safe copy"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug trainer-0 -n ml --capture --redact -- --pid 1
expect_rc 0
expect_calls << 'EOF'
kubectl exec -i trainer-0 -n ml -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -n ml -- sh -c {run} sh /tmp/nccl-triage.ID capture -o /tmp/nccl-triage.ID/capture.tar.gz --redact --pid 1
kubectl exec trainer-0 -n ml -- sh -c {fetch} sh /tmp/nccl-triage.ID /tmp/nccl-triage.ID/capture.tar.gz
kubectl exec trainer-0 -n ml -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
if cmp -s "$work/capture.src.tar.gz" "$work/cwd/nccl-triage-trainer-0-capture.tar.gz"; then :; else
  fail "the copied capture differs from the one written in the Pod"
fi
[ -z "$(find "$work/cwd" -name '*.part')" ] || fail "a .part file was left"
expect_err_has "capture saved to nccl-triage-trainer-0-capture.tar.gz"
expect_clean_pod
done_case

begin "capture: --capture FILE before the Pod; a failing capture (exit 4) leaves no file"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_TOOL_RC=4
plug --capture pod-c.tgz pod/trainer-0
expect_rc 4
expect_calls << 'EOF'
kubectl exec -i pod/trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec pod/trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID capture -o /tmp/nccl-triage.ID/capture.tar.gz
kubectl exec pod/trainer-0 -- sh -c {fetch} sh /tmp/nccl-triage.ID /tmp/nccl-triage.ID/capture.tar.gz
kubectl exec pod/trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
[ -z "$(ls -A "$work/cwd")" ] || fail "files left in cwd: $(ls -A "$work/cwd")"
expect_clean_pod
done_case

begin "capture: --capture=FILE after the Pod, Ctrl-C during the copy: cleanup, no file"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_KUBECTL_INTERRUPT=3
plug trainer-0 --capture=c.tar.gz
expect_rc 130
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID capture -o /tmp/nccl-triage.ID/capture.tar.gz
kubectl exec trainer-0 -- sh -c {fetch} sh /tmp/nccl-triage.ID /tmp/nccl-triage.ID/capture.tar.gz
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
[ -z "$(ls -A "$work/cwd")" ] || fail "files left in cwd: $(ls -A "$work/cwd")"
expect_clean_pod
done_case

# --- logs --------------------------------------------------------------------------------------

begin "logs: POD, all containers, into the local nccl-triage log -"
export NCCL_TRIAGE="$work/local-cli" FAKE_CLI_RC=1
plug --logs trainer-0 -n ml --context prod -- -o json --expect-hcas 8
expect_rc 1
expect_calls << 'EOF'
kubectl logs trainer-0 --all-containers --prefix -n ml --context prod
EOF
expect_out "local nccl-triage log - -o json --expect-hcas 8"
expected_stdin trainer-0 > "$work/stdin.expected"
cmp -s "$work/stdin.expected" "$work/cli.stdin" || fail "nccl-triage log got other input than kubectl logs printed"
done_case

begin "logs: job/NAME with -c"
export NCCL_TRIAGE="$work/local-cli"
plug job/train --logs -c worker
expect_rc 0
expect_calls << 'EOF'
kubectl logs job/train -c worker --prefix
EOF
expect_out "local nccl-triage log -"
expected_stdin job/train > "$work/stdin.expected"
cmp -s "$work/stdin.expected" "$work/cli.stdin" || fail "nccl-triage log got other input than kubectl logs printed"
done_case

begin "logs: -l SELECTOR --previous"
export NCCL_TRIAGE="$work/local-cli"
plug --logs -l job-name=train --previous -n ml
expect_rc 0
expect_calls << 'EOF'
kubectl logs -l job-name=train --all-containers --prefix --tail=-1 --max-log-requests=64 --previous -n ml
EOF
done_case

begin "logs: kubectl logs fails: exit 2 even when the verdict said otherwise"
export NCCL_TRIAGE="$work/local-cli" FAKE_KUBECTL_FAIL=1 FAKE_CLI_RC=3
plug --logs nope
expect_rc 2
expect_calls << 'EOF'
kubectl logs nope --all-containers --prefix
EOF
expect_err_has "kubectl logs failed (exit 1)"
done_case

if [ -n "${REAL_NCCL_TRIAGE:-}" ]; then
  begin "logs: the real nccl-triage names the device plugin (exit 1)"
  export NCCL_TRIAGE="$REAL_NCCL_TRIAGE"
  plug --logs trainer-0 -- -o json
  expect_rc 1
  expect_calls << 'EOF'
kubectl logs trainer-0 --all-containers --prefix
EOF
  grep -q '"layer" *: *"device-plugin"' "$work/out" || fail "no device-plugin layer in: $(head -c 600 "$work/out")"
  done_case
fi

# --- discovery ---------------------------------------------------------------------------------

begin "discovery: a checkout (dist/kubectl-nccl_triage, target/*.tar.gz)"
mkdir -p "$work/co/dist" "$work/co/target"
cp "$plugin" "$work/co/dist/"
cp "$tarball" "$work/co/target/"
plug_copy "$work/co/dist/kubectl-nccl_triage" trainer-0
expect_rc 0
expect_out "fake nccl-triage check"
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

# krew: the archive is the bundle; krew unpacks it and links bin/kubectl-nccl_triage onto PATH.
mkdir -p "$work/krew/store/nccl-triage/v0.1.0" "$work/krew/bin"
tar -xzf "$tarball" -C "$work/krew/store/nccl-triage/v0.1.0"
cp "$plugin" "$work/krew/store/nccl-triage/v0.1.0/nccl-triage-0.1.0/bin/"
ln -s "$work/krew/store/nccl-triage/v0.1.0/nccl-triage-0.1.0/bin/kubectl-nccl_triage" \
  "$work/krew/bin/kubectl-nccl_triage"

begin "discovery: installed by krew (the unpacked bundle is sent)"
export FAKE_TOOL_RC=1
plug_copy "$work/krew/bin/kubectl-nccl_triage" trainer-0
expect_rc 1
expect_out "fake nccl-triage check"
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

if command -v nccl-triage > /dev/null 2>&1; then
  echo "SKIP [discovery: --logs with the krew-installed nccl-triage]: nccl-triage is on PATH" >&2
else
  begin "discovery: --logs with the krew-installed nccl-triage"
  plug_copy "$work/krew/bin/kubectl-nccl_triage" --logs trainer-0
  expect_rc 0
  expect_out "fake nccl-triage log -"
  done_case
fi

# --- usage errors ------------------------------------------------------------------------------

begin "usage: --help"
plug --help
expect_rc 0
grep -q '^Usage:' "$work/out" || fail "no usage on stdout"
[ ! -s "$work/kubectl.log" ] || fail "kubectl was called"
done_case

begin "usage: no Pod"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug -n ml
expect_usage_error "no Pod given"
done_case

begin "usage: no bundle"
mkdir -p "$work/lonely"
cp "$plugin" "$work/lonely/"
plug_copy "$work/lonely/kubectl-nccl_triage" trainer-0
expect_usage_error "no bundle"
done_case

begin "usage: a bundle that is not there"
plug trainer-0 --bundle "$work/nope.tar.gz"
expect_usage_error "not a readable file"
done_case

begin "usage: no kubectl"
export NCCL_TRIAGE_BUNDLE="$tarball" KUBECTL=no-such-kubectl
plug trainer-0
expect_usage_error "no-such-kubectl not found"
done_case

begin "usage: no local nccl-triage for --logs"
export NCCL_TRIAGE="$work/nope"
plug --logs trainer-0
expect_usage_error "NCCL_TRIAGE=$work/nope is not an executable"
done_case

begin "usage: unknown option"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug trainer-0 --expect-hcas 8
expect_usage_error "unknown option --expect-hcas"
done_case

begin "usage: --redact without --capture"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug trainer-0 --redact
expect_usage_error "--redact goes with --capture"
done_case

begin "usage: two Pods"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug a b
expect_usage_error "one Pod at a time"
done_case

# --- lint --------------------------------------------------------------------------------------

if command -v shellcheck > /dev/null 2>&1; then
  begin "shellcheck: the plugin, its in-container scripts, the test tools"
  for v in install_script run_script fetch_script cleanup_script; do
    # the value of v='...' in the plugin, as the container's sh gets it
    sed -n "/^$v='/,/'\$/p" "$plugin" | sed -e "1s/^$v='//" -e "\$s/'\$//" > "$work/$v.sh"
    [ -s "$work/$v.sh" ] || fail "$v not found in the plugin"
    shellcheck -s sh "$work/$v.sh" >&2 || fail "shellcheck: $v"
  done
  shellcheck "$plugin" "$here/fake-kubectl" "$0" "$dist/krew/update-sha256.sh" >&2 \
    || fail "shellcheck"
  done_case
else
  echo "SKIP [shellcheck]: shellcheck is not installed" >&2
fi

failed=$(sort -u "$failures" | wc -l)
echo "kubectl-plugin-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
