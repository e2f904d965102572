#!/bin/sh
# Tests dist/kubectl-nccl_triage with a fake kubectl (dist/test/fake-kubectl) first on PATH: it
# records each call and plays the Pod in a sandbox directory, with a tiny fake bundle whose
# bin/nccl-triage echoes its arguments and exits with $FAKE_TOOL_RC (or prints the JSON report
# prepared for its Pod). Asserts the exact kubectl calls of every mode, the exit status, what
# streams back, and that the Pod is left clean; 64 fake Pods for job/NAME. A `tar` and a `curl`
# first on PATH log their calls (the bundle tarball is cached; the plugin-only install downloads).
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
# tar and curl on this side: each call logged, then the real tar; curl -o FILE URL copies
# $FAKE_DL_DIR/BASENAME-OF-URL to FILE (exit 22, as curl -f on a 404, when it is not there)
real_tar=$(command -v tar)
cat > "$work/bin/tar" << EOF
#!/bin/sh
echo "tar \$*" >> "$work/tar.log"
exec "$real_tar" "\$@"
EOF
cat > "$work/bin/curl" << 'EOF'
#!/bin/sh
echo "curl $*" >> "$FAKE_CURL_LOG"
out='' url=''
while [ $# -gt 0 ]; do
  case $1 in -o) out=$2; shift ;; -*) ;; *) url=$1 ;; esac
  shift
done
[ -f "$FAKE_DL_DIR/${url##*/}" ] || { echo "curl: (22) The requested URL returned error: 404" >&2; exit 22; }
cat "$FAKE_DL_DIR/${url##*/}" > "$out"
EOF
chmod +x "$work/bin/tar" "$work/bin/curl"

# The fake bundle: nccl-triage-0.1.0-linux-x64/{bin/nccl-triage,runtime/,lib/}
mkdir -p "$work/b/nccl-triage-0.1.0-linux-x64/bin" "$work/b/nccl-triage-0.1.0-linux-x64/runtime/bin" \
  "$work/b/nccl-triage-0.1.0-linux-x64/lib"
cat > "$work/b/nccl-triage-0.1.0-linux-x64/bin/nccl-triage" << 'EOF'
#!/bin/sh
# fake nccl-triage: echoes its arguments; `capture -o FILE` copies $FAKE_CAPTURE_SRC to FILE and
# says so as the real one does. With $FAKE_REPORTS/POD.json for this Pod (FAKE_POD_NAME, from the
# fake kubectl): records its arguments in POD.args, counts the runs under way at once in
# $FAKE_CONC_DIR (the highest count it saw goes to $FAKE_CONC_DIR.peak/POD), prints POD.json and
# exits with POD.rc; or runs $REAL_NCCL_TRIAGE on $FAKE_REPORTS/POD.capture (a capture folder).
r=${FAKE_REPORTS:-}/${FAKE_POD_NAME:-}
if [ -n "${FAKE_REPORTS:-}" ] && { [ -e "$r.json" ] || [ -e "$r.capture" ]; }; then
  echo "$*" > "$r.args"
  if [ -n "${FAKE_CONC_DIR:-}" ]; then
    : > "$FAKE_CONC_DIR/$FAKE_POD_NAME"
    n=0
    for f in "$FAKE_CONC_DIR"/*; do [ ! -e "$f" ] || n=$((n + 1)); done
    echo "$n" > "$FAKE_CONC_DIR.peak/$FAKE_POD_NAME"
    sleep "${FAKE_TOOL_SLEEP:-0.3}"
    rm -f "$FAKE_CONC_DIR/$FAKE_POD_NAME"
  fi
  if [ -e "$r.capture" ]; then exec "$REAL_NCCL_TRIAGE" "$@" --root "$r.capture"; fi
  echo "fake nccl-triage stderr in $FAKE_POD_NAME" >&2
  cat "$r.json"
  read -r rc < "$r.rc"
  exit "$rc"
fi
echo "fake nccl-triage $*"
echo "fake nccl-triage stderr TMPDIR=$TMPDIR NCCL_TRIAGE_JAVA_OPTS=$NCCL_TRIAGE_JAVA_OPTS" >&2
if [ "${1:-}" = capture ] && [ "${2:-}" = -o ]; then
  cat "$FAKE_CAPTURE_SRC" > "$3" || exit 4
  echo "nccl-triage: capture written to $3; replay it with: nccl-triage check --capture $3" >&2
fi
if [ -n "${FAKE_TOOL_SLEEP:-}" ]; then
  [ -z "${FAKE_TOOL_PIDFILE:-}" ] || echo "$$" > "$FAKE_TOOL_PIDFILE"
  exec sleep "$FAKE_TOOL_SLEEP"
fi
exit "${FAKE_TOOL_RC:-0}"
EOF
chmod +x "$work/b/nccl-triage-0.1.0-linux-x64/bin/nccl-triage"
echo "not a JVM" > "$work/b/nccl-triage-0.1.0-linux-x64/runtime/bin/java"
echo "not a jar" > "$work/b/nccl-triage-0.1.0-linux-x64/lib/nccl-triage.jar"
tarball=$work/dl/nccl-triage-0.1.0-linux-x64.tar.gz
tar -czf "$tarball" -C "$work/b" nccl-triage-0.1.0-linux-x64

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
  rm -rf "$work/cache" "$work/tar.log" "$work/curl.log"
  XDG_CACHE_HOME=$work/cache FAKE_CURL_LOG=$work/curl.log FAKE_DL_DIR=$work/dl
  export XDG_CACHE_HOME FAKE_CURL_LOG FAKE_DL_DIR
  FAKE_KUBECTL_LOG=$work/kubectl.log
  FAKE_POD_ROOT=$work/pod
  FAKE_POD_PATH=$work/img-full
  FAKE_LOGS_FILE=$sample
  FAKE_CAPTURE_SRC=$work/capture.src.tar.gz
  export FAKE_KUBECTL_LOG FAKE_POD_ROOT FAKE_POD_PATH FAKE_LOGS_FILE FAKE_CAPTURE_SRC
  unset FAKE_KUBECTL_FAIL FAKE_KUBECTL_INTERRUPT FAKE_KUBECTL_DETACH FAKE_KUBECTL_BREAK FAKE_TOOL_RC \
    FAKE_TOOL_SLEEP FAKE_TOOL_PIDFILE FAKE_UNAME FAKE_CLI_RC FAKE_LOGS_FAIL FAKE_POD_NOSH FAKE_POD_GONE \
    FAKE_PODS_FILE FAKE_PODS_SELECTOR FAKE_REPORTS FAKE_CONC_DIR \
    NCCL_TRIAGE NCCL_TRIAGE_BUNDLE NCCL_TRIAGE_NO_DOWNLOAD NCCL_TRIAGE_BUNDLE_URL KUBECTL
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
  if ! grep -qxF -- "$case_name" "$failures"; then
    passed=$((passed + 1))
    [ "$verbose" = 0 ] || printf '  ok [%s]\n' "$case_name"
  fi
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

begin "check: no such Pod: exit 2, says what failed, nothing to clean up"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_POD_GONE=nope
plug nope -n ml
expect_rc 2
expect_calls << 'EOF'
kubectl exec -i nope -n ml -- sh -c {install} sh /tmp/nccl-triage.ID
EOF
expect_err_has "Error from server (NotFound)"
expect_err_has "nccl-triage: kubectl exec into nope in namespace ml failed (exit 1, see above): nothing was installed"
[ "$(wc -l < "$work/err")" = 2 ] || fail "more than kubectl's error and ours: $(cat "$work/err")"
done_case

begin "check: wrong context: exit 2, names the context, nothing to clean up"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_KUBECTL_FAIL=1
plug trainer-0 --context=nope -n ml
expect_rc 2
expect_calls << 'EOF'
kubectl exec -i trainer-0 -n ml --context nope -- sh -c {install} sh /tmp/nccl-triage.ID
EOF
expect_err_has "nccl-triage: kubectl exec into trainer-0 in namespace ml (context nope) failed (exit 1, see above): nothing was installed"
if grep -q "could not check" "$work/err"; then fail "a leftover hint though nothing was installed: $(cat "$work/err")"; fi
done_case

begin "check: image without sh: exit 2, says so, nothing to clean up"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_POD_NOSH=trainer-0
plug trainer-0
expect_rc 2
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
EOF
expect_err_has "nccl-triage: could not run sh in trainer-0 (exit 126): images without a shell (distroless) cannot be checked this way; nothing was installed"
if grep -q "could not check" "$work/err"; then fail "a leftover hint though nothing was installed: $(cat "$work/err")"; fi
done_case

begin "check: connection lost while the bundle was sent: exit 2, the directory is removed"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_KUBECTL_BREAK=1
plug trainer-0
expect_rc 2
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_err_has "nccl-triage: the connection to trainer-0 broke while the bundle was sent (kubectl exit 1, see above)"
expect_clean_pod
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

begin "check: arm64 container: exit 2 before unpacking, nothing to clean up"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_UNAME=aarch64
plug trainer-0
expect_rc 2
expect_err_has "the container is aarch64"
expect_calls << 'EOF'
kubectl exec -i trainer-0 -- sh -c {install} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

# --- kubectl's flags, -o, --version -------------------------------------------------------------

begin "flags: -n=NS, FLAG=VALUE and FLAG VALUE forms of kubectl's flags, passed on in order"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug trainer-0 -n=ml -c=worker --context=prod --as admin --as-group=sre --as-group 'on call' \
  --cluster c1 --user=u1 --request-timeout=30s --kubeconfig /k/config -- --expect-hcas 8
expect_rc 0
expect_calls << 'EOF'
kubectl exec -i trainer-0 -c worker -n ml --context prod --as admin --as-group sre --as-group 'on call' --cluster c1 --user u1 --request-timeout 30s --kubeconfig /k/config -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -c worker -n ml --context prod --as admin --as-group sre --as-group 'on call' --cluster c1 --user u1 --request-timeout 30s --kubeconfig /k/config -- sh -c {run} sh /tmp/nccl-triage.ID check --expect-hcas 8
kubectl exec trainer-0 -c worker -n ml --context prod --as admin --as-group sre --as-group 'on call' --cluster c1 --user u1 --request-timeout 30s --kubeconfig /k/config -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
expect_clean_pod
done_case

begin "flags: -nNS and --namespace=NS; --as-uid, --server, --insecure-skip-tls-verify"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug trainer-0 -nml --as-uid=1000 --server https://api.example:6443 --insecure-skip-tls-verify
expect_rc 0
sed 's/nccl-triage\.[0-9a-f]\{12\}/nccl-triage.ID/g' "$work/kubectl.log" > "$work/first.log"
: > "$work/kubectl.log"
plug trainer-0 --namespace=ml --as-uid=1000 --server https://api.example:6443 --insecure-skip-tls-verify
expect_rc 0
expect_calls << 'EOF'
kubectl exec -i trainer-0 -n ml --as-uid 1000 --server https://api.example:6443 --insecure-skip-tls-verify -- sh -c {install} sh /tmp/nccl-triage.ID
kubectl exec trainer-0 -n ml --as-uid 1000 --server https://api.example:6443 --insecure-skip-tls-verify -- sh -c {run} sh /tmp/nccl-triage.ID check
kubectl exec trainer-0 -n ml --as-uid 1000 --server https://api.example:6443 --insecure-skip-tls-verify -- sh -c {cleanup} sh /tmp/nccl-triage.ID
EOF
cmp -s "$work/first.log" "$work/calls" || fail "-nml and --namespace=ml differ: $(cat "$work/first.log")"
done_case

begin "flags: kubectl's flags reach kubectl logs too"
export NCCL_TRIAGE="$work/local-cli"
plug --logs trainer-0 --context=prod --as=admin --request-timeout 5s
expect_rc 0
expect_calls << 'EOF'
kubectl logs trainer-0 --all-containers --prefix --context prod --as admin --request-timeout 5s
EOF
done_case

begin "output: -o FORMAT before --: to nccl-triage check (-o json, -ojson, --output=markdown)"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug trainer-0 -o json -- --pid 1
expect_rc 0
expect_out "fake nccl-triage check -o json --pid 1"
plug trainer-0 -ojson
expect_out "fake nccl-triage check -o json"
plug trainer-0 --output=markdown
expect_out "fake nccl-triage check -o markdown"
done_case

begin "output: -o FORMAT before --: to nccl-triage log (--logs)"
export NCCL_TRIAGE="$work/local-cli"
plug --logs trainer-0 --output json -- --expect-hcas 8
expect_rc 0
expect_out "local nccl-triage log - -o json --expect-hcas 8"
done_case

begin "usage: -o with --capture"
export NCCL_TRIAGE_BUNDLE="$tarball"
plug trainer-0 --capture -o json
expect_usage_error "-o/--output goes with check and --logs"
done_case

begin "version: --version prints the plugin's version, no kubectl needed"
export KUBECTL=no-such-kubectl
plug --version
expect_rc 0
expect_out "kubectl-nccl_triage $(sed -n 's/^version=//p' "$plugin")"
grep -qx 'version=[0-9][0-9.]*[0-9]' "$plugin" || fail "no version=X.Y.Z line in the plugin"
[ ! -s "$work/kubectl.log" ] || fail "kubectl was called"
done_case

# --- several Pods (job/NAME, pytorchjob/NAME, -l) ----------------------------------------------

# report POD STATUS LAYER SUMMARY RC STEP-STATUS...: the check report of POD as nccl-triage prints
# it (Jackson's layout), with other "status" and "layer" keys about, and \" in the text
report() {
  f=$work/reports/$1 st=$2 ly=$3 sum=$4 rc=$5
  shift 5
  {
    printf '{\n  "schemaVersion" : 1,\n  "tool" : "nccl-triage",\n  "command" : "check",\n  "inputs" : [ ],\n  "ladder" : [ '
    k=1 sep=''
    for x in "$@"; do
      printf '%s{\n    "step" : %d,\n    "rule" : "S%d",\n    "name" : "step %d",\n    "status" : "%s",\n' "$sep" "$k" "$k" "$k" "$x"
      printf '    "observed" : "seen \\"%s\\"",\n    "evidence" : [ {\n      "source" : "/x",\n      "line" : 0,\n      "text" : "status fail"\n    } ]\n  }' "$x"
      sep=', ' k=$((k + 1))
    done
    printf ' ],\n  "pod" : {\n    "memlock" : {\n      "status" : "missing",\n      "layer" : "nope"\n    }\n  },\n'
    printf '  "verdict" : {\n    "status" : "%s",\n    "layer" : %s,\n    "summary" : "%s",\n' "$st" "$ly" "$sum"
    printf '    "candidates" : [ {\n      "layer" : "pod-network"\n    } ]\n  }\n}\n'
  } > "$f.json"
  echo "$rc" > "$f.rc"
}

# pods N: N Pods train-worker-I on node gpu-(I/2), Running, in $work/pods; healthy reports for all
pods() {
  rm -rf "$work/reports" "$work/conc" "$work/conc.peak"
  mkdir -p "$work/reports" "$work/conc" "$work/conc.peak"
  : > "$work/pods"
  i=0
  while [ "$i" -lt "$1" ]; do
    printf 'train-worker-%d\tgpu-%02d\tRunning\n' "$i" $((i / 2)) >> "$work/pods"
    report "train-worker-$i" healthy null "NCCL can use what this Pod has." 0 pass pass pass pass pass pass skip
    i=$((i + 1))
  done
  export FAKE_PODS_FILE="$work/pods" FAKE_REPORTS="$work/reports" FAKE_CONC_DIR="$work/conc"
}
# peak: the most checks that ran at once
peak() { cat "$work/conc.peak"/* 2> /dev/null | sort -n | tail -n 1; }
# calls_of NAME: how many {NAME} calls kubectl got
calls_of() { grep -c "{$1}" "$work/kubectl.log"; }

begin "several Pods: job/NAME with 64 Pods, one report naming the Pods and nodes that differ"
pods 64
# a problem in one Pod, another on both Pods of one node (compact JSON), a warning, an internal
# error, a Pending Pod, an image without sh, a Pod deleted after it was listed
report train-worker-7 problem '"container-security"' "Memlock is 64 KiB." 1 pass pass pass pass fail pass skip
report train-worker-40 problem '"device-plugin"' "No /dev/infiniband." 1 fail fail skip skip pass pass skip
report train-worker-41 problem '"device-plugin"' "No /dev/infiniband." 1 fail fail skip skip pass pass skip
for p in train-worker-40 train-worker-41; do
  tr -d '\n' < "$work/reports/$p.json" > "$work/reports/x" && mv "$work/reports/x" "$work/reports/$p.json"
done
report train-worker-33 inconclusive null "GPUDirect RDMA unknown." 3 pass pass pass pass pass warn skip
echo "Exception in thread main" > "$work/reports/train-worker-60.json"
echo 4 > "$work/reports/train-worker-60.rc"
sed 's/^\(train-worker-13\)\tgpu-06\tRunning$/\1\t\tPending/' "$work/pods" > "$work/pods.x" && mv "$work/pods.x" "$work/pods"
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_POD_NOSH=train-worker-22 FAKE_POD_GONE=train-worker-50 \
  FAKE_PODS_SELECTOR=job-name=train
plug job/train -n ml -- --expect-hcas 8
expect_rc 1
cat > "$work/out.expected" << 'EOF'
nccl-triage check in 64 Pods (job/train in namespace ml)

POD              NODE    RESULT        LAYER               STEPS NOT PASSED
EOF
i=0
while [ "$i" -lt 64 ]; do
  case $i in
    7) printf '%-15s  %-6s  %-12s  %-18s  %s\n' train-worker-7 gpu-03 problem container-security 5:fail ;;
    13) printf '%-15s  %-6s  %-12s  %-18s  %s\n' train-worker-13 - not-checked - - ;;
    22) printf '%-15s  %-6s  %-12s  %-18s  %s\n' train-worker-22 gpu-11 not-checked - - ;;
    33) printf '%-15s  %-6s  %-12s  %-18s  %s\n' train-worker-33 gpu-16 inconclusive - 6:warn ;;
    40 | 41) printf '%-15s  %-6s  %-12s  %-18s  %s\n' "train-worker-$i" gpu-20 problem device-plugin '1:fail 2:fail' ;;
    50) printf '%-15s  %-6s  %-12s  %-18s  %s\n' train-worker-50 gpu-25 not-checked - - ;;
    60) printf '%-15s  %-6s  %-12s  %-18s  %s\n' train-worker-60 gpu-30 error - - ;;
    *) printf '%-15s  %-6s  %-12s  %-18s  %s\n' "train-worker-$i" "gpu-$(printf %02d $((i / 2)))" healthy - - ;;
  esac
  i=$((i + 1))
done >> "$work/out.expected"
cat >> "$work/out.expected" << 'EOF'

Most Pods (56 of 64): healthy
Differ from them: 8 Pods on 6 nodes (gpu-03, gpu-11, gpu-16, gpu-20, gpu-25, gpu-30)
  train-worker-7 (node gpu-03): problem, container-security: Memlock is 64 KiB.
      5. fail  step 5: seen "fail"
  train-worker-13 (node -): not-checked: the Pod is Pending
  train-worker-22 (node gpu-11): not-checked: could not run sh in train-worker-22 in namespace ml (exit 126): images without a shell (distroless) cannot be checked this way; nothing was installed; kubectl: error: Internal error occurred: error executing command in container: failed to exec in container: OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown
  train-worker-33 (node gpu-16): inconclusive: GPUDirect RDMA unknown.
      6. warn  step 6: seen "warn"
  train-worker-40 (node gpu-20): problem, device-plugin: No /dev/infiniband.
      1. fail  step 1: seen "fail"
      2. fail  step 2: seen "fail"
  train-worker-41 (node gpu-20): problem, device-plugin: No /dev/infiniband.
      1. fail  step 1: seen "fail"
      2. fail  step 2: seen "fail"
  train-worker-50 (node gpu-25): not-checked: kubectl exec into train-worker-50 in namespace ml failed (exit 1): nothing was installed; kubectl: Error from server (NotFound): pods "train-worker-50" not found
  train-worker-60 (node gpu-30): error: nccl-triage failed (exit 4): fake nccl-triage stderr in train-worker-60
EOF
if ! cmp -s "$work/out.expected" "$work/out"; then
  fail "the report differs (- expected, + actual):"
  diff -u "$work/out.expected" "$work/out" | sed -n '3,$p' >&2
fi
grep -qx 'kubectl get pods -l job-name=train -n ml -o .*' "$work/kubectl.log" \
  || fail "no kubectl get pods -l job-name=train -n ml: $(grep ' get ' "$work/kubectl.log")"
[ "$(calls_of install)" = 63 ] || fail "$(calls_of install) installs, expected 63 (not the Pending Pod)"
if [ "$(calls_of run)" != 61 ] || [ "$(calls_of cleanup)" != 61 ]; then
  fail "$(calls_of run) runs and $(calls_of cleanup) cleanups, expected 61 each"
fi
! grep -q train-worker-13 "$work/kubectl.log" || fail "the Pending Pod was exec'd into"
[ "$(cat "$work/reports/train-worker-7.args")" = "check -o json --expect-hcas 8" ] \
  || fail "nccl-triage in a Pod got: $(cat "$work/reports/train-worker-7.args")"
if [ "$(peak)" -gt 16 ] || [ "$(peak)" -lt 2 ]; then fail "at most $(peak) checks at once, expected 2 to 16"; fi
expect_err_has "nccl-triage: train-worker-7: problem"
expect_err_has "nccl-triage: not Running, not checked: train-worker-13"
expect_clean_pod
for d in "${TMPDIR:-/tmp}"/nccl-triage-pods.*; do
  [ ! -e "$d" ] || fail "the plugin's own temporary directory was left: $d"
done
done_case

begin "several Pods: -l SELECTOR, --max-parallel 4, kubectl's flags to every call; all agree"
pods 12
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_PODS_SELECTOR=app=trainer
plug -l app=trainer --max-parallel 4 --context prod -c worker
expect_rc 0
grep -qx 'All 12 Pods agree: healthy' "$work/out" || fail "no agreement line: $(cat "$work/out")"
[ "$(grep -c '^train-worker-[0-9]* .* healthy ' "$work/out")" = 12 ] || fail "not 12 healthy rows: $(cat "$work/out")"
if [ "$(peak)" -gt 4 ] || [ "$(peak)" -lt 2 ]; then fail "at most $(peak) checks at once, expected 2 to 4"; fi
grep -q "^kubectl get pods -l app=trainer --context prod -o " "$work/kubectl.log" || fail "get: $(head -n 1 "$work/kubectl.log")"
[ "$(grep -c '^kubectl exec .* -c worker --context prod -- ' "$work/kubectl.log")" = 36 ] \
  || fail "not every exec has -c worker --context prod: $(head -n 3 "$work/kubectl.log")"
expect_clean_pod
done_case

begin "several Pods: pytorchjob/NAME with no Pods: exit 2, says which label was looked for"
pods 3
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_PODS_SELECTOR=job-name=train
plug pytorchjob/train -n ml
expect_rc 2
expect_err_has "nccl-triage: no Pods match -l training.kubeflow.org/job-name=train in namespace ml"
expect_calls << 'EOF'
kubectl get pods -l training.kubeflow.org/job-name=train -n ml -o 'jsonpath={range .items[*]}{.metadata.name}{"\t"}{.spec.nodeName}{"\t"}{.status.phase}{"\n"}{end}'
EOF
done_case

begin "several Pods: no Pod could be checked: exit 2"
pods 2
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_POD_NOSH="train-worker-0 train-worker-1"
plug job/train
expect_rc 2
grep -qx 'Most Pods (2 of 2): not-checked\|All 2 Pods agree: not-checked' "$work/out" || fail "$(cat "$work/out")"
done_case

begin "several Pods: SIGTERM stops them: running checks finish and clean up, no new ones start"
pods 8
export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_TOOL_SLEEP=2
(cd "$work/cwd" && PATH="$work/bin:$PATH" exec sh "$plugin" job/train --max-parallel 2) \
  > "$work/out" 2> "$work/err" < /dev/null &
bg=$!
n=0
while [ "$(calls_of run)" -lt 2 ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM "$bg"
wait "$bg"
rc=$?
expect_rc 143
[ "$(calls_of install)" = 2 ] || fail "$(calls_of install) Pods were started, expected 2"
[ "$(calls_of cleanup)" = 2 ] || fail "$(calls_of cleanup) cleanups, expected 2"
[ "$(grep -c 'not-checked' "$work/out")" -ge 8 ] || fail "not all 8 Pods reported as not checked: $(cat "$work/out")"
expect_err_has "nccl-triage: interrupted: stopping the 2 running check(s)"
expect_clean_pod
done_case

begin "usage: several Pods and -o json"
plug job/train -o json
expect_usage_error "-o json: with several Pods the merged report is text"
done_case

begin "usage: --max-parallel 0"
plug job/train --max-parallel 0
expect_usage_error "--max-parallel needs a whole number of at least 1, not '0'"
done_case

if [ -n "${REAL_NCCL_TRIAGE:-}" ]; then
  begin "several Pods: the real nccl-triage on sample captures names the Pod that differs"
  pods 3
  rm -f "$work/reports"/*.json
  for p in 0:healthy-8hca-gdr-net1 1:healthy-8hca-gdr-net1 2:memlock-64k-no-ipc-lock; do
    cp -R "$repo/samples/captures/${p#*:}" "$work/reports/train-worker-${p%%:*}.capture"
  done
  export NCCL_TRIAGE_BUNDLE="$tarball" FAKE_TOOL_SLEEP=0
  plug job/train
  expect_rc 1
  grep -qx 'Most Pods (2 of 3): healthy' "$work/out" || fail "$(cat "$work/out")"
  grep -q '^  train-worker-2 (node gpu-01): problem, container-security: ' "$work/out" || fail "$(cat "$work/out")"
  grep -q '^      5\. fail  memlock and CAP_IPC_LOCK: ' "$work/out" || fail "$(cat "$work/out")"
  expect_clean_pod
  done_case
fi

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
expect_err_has "nccl-triage: capture saved to nccl-triage-trainer-0-capture.tar.gz (redacted); replay it with: nccl-triage check --capture nccl-triage-trainer-0-capture.tar.gz"
# one line says where the capture is: the local file, not the one already removed from the Pod
[ "$(grep -c 'capture' "$work/err")" = 1 ] || fail "not one line about the capture: $(cat "$work/err")"
! grep -q 'capture written to' "$work/err" || fail "names the Pod's copy: $(cat "$work/err")"
expect_err_has "fake nccl-triage stderr"
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

begin "logs: job/NAME with -c: the logs of all its Pods"
export NCCL_TRIAGE="$work/local-cli"
plug job/train --logs -c worker
expect_rc 0
expect_calls << 'EOF'
kubectl logs -l job-name=train -c worker --prefix --tail=-1 --max-log-requests=64
EOF
expect_out "local nccl-triage log -"
expected_stdin -l > "$work/stdin.expected"
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

begin "logs: no such Pod: kubectl's failure, no report"
export NCCL_TRIAGE="$work/local-cli" FAKE_LOGS_FAIL=1 FAKE_CLI_RC=3
plug --logs nope
expect_rc 2
expect_calls << 'EOF'
kubectl logs nope --all-containers --prefix
EOF
expect_err_has "nccl-triage: kubectl logs failed (exit 1, see above): no log was read, nothing triaged"
[ ! -e "$work/cli.args" ] || fail "nccl-triage log ran on no input: $(cat "$work/cli.args")"
[ ! -s "$work/out" ] || fail "a report on stdout: $(cat "$work/out")"
done_case

begin "logs: kubectl logs fails midway: exit 2 even when the verdict said otherwise"
export NCCL_TRIAGE="$work/local-cli" FAKE_LOGS_FAIL=after FAKE_CLI_RC=3
plug --logs trainer-0
expect_rc 2
expect_err_has "kubectl logs failed (exit 1): the logs read are incomplete"
expected_stdin trainer-0 > "$work/stdin.expected"
cmp -s "$work/stdin.expected" "$work/cli.stdin" || fail "nccl-triage log got other input than kubectl logs printed"
done_case

begin "logs: an empty log still gets its report"
export NCCL_TRIAGE="$work/local-cli" FAKE_LOGS_FILE=/dev/null FAKE_CLI_RC=3
plug --logs trainer-0 -o=json
expect_rc 3
expect_out "local nccl-triage log - -o json"
[ ! -s "$work/cli.stdin" ] || fail "input for an empty log: $(cat "$work/cli.stdin")"
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
cp "$plugin" "$work/krew/store/nccl-triage/v0.1.0/nccl-triage-0.1.0-linux-x64/bin/"
ln -s "$work/krew/store/nccl-triage/v0.1.0/nccl-triage-0.1.0-linux-x64/bin/kubectl-nccl_triage" \
  "$work/krew/bin/kubectl-nccl_triage"

krew_tree=$work/krew/store/nccl-triage/v0.1.0/nccl-triage-0.1.0-linux-x64
# cached: the tree tarballs in the cache
cached() { (cd "$work/cache/nccl-triage" 2> /dev/null && ls -- *.tree-*.tar.gz 2> /dev/null); }
# packs: the times this side ran tar -c
packs() { grep -c -- ' -cz' "$work/tar.log" 2> /dev/null || true; }

begin "discovery: installed by krew: the unpacked bundle is packed once, the cached tarball sent"
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
[ "$(packs)" = 1 ] || fail "packed $(packs) times on the first run, expected once"
[ "$(cached | wc -l)" -eq 1 ] || fail "cache holds: $(cached)"
first=$(cached)
"$real_tar" -tzf "$work/cache/nccl-triage/$first" | grep -qx 'nccl-triage-0.1.0-linux-x64/bin/nccl-triage' \
  || fail "the cached tarball lacks nccl-triage-0.1.0-linux-x64/bin/nccl-triage"
: > "$work/kubectl.log"
plug_copy "$work/krew/bin/kubectl-nccl_triage" trainer-0
expect_rc 1
expect_out "fake nccl-triage check"
[ "$(packs)" = 1 ] || fail "packed again on the second run ($(packs) in all)"
expect_clean_pod
# another bundle in the same place (krew upgraded it): packed again, the old tarball dropped
echo "another jar" > "$krew_tree/lib/nccl-triage.jar"
plug_copy "$work/krew/bin/kubectl-nccl_triage" trainer-0
expect_rc 1
[ "$(packs)" = 2 ] || fail "a changed bundle was not packed again ($(packs) packs)"
if [ "$(cached | wc -l)" -ne 1 ] || [ "$(cached)" = "$first" ]; then fail "cache holds: $(cached)"; fi
echo "not a jar" > "$krew_tree/lib/nccl-triage.jar"
done_case

begin "discovery: installed by krew, no cache directory: packed on the way, every run"
export FAKE_TOOL_RC=1 XDG_CACHE_HOME=/dev/null/cache
plug_copy "$work/krew/bin/kubectl-nccl_triage" trainer-0
expect_rc 1
expect_out "fake nccl-triage check"
expect_clean_pod
grep -q -- '-czf - -C ' "$work/tar.log" || fail "not packed on the way: $(cat "$work/tar.log")"
done_case

# The plugin-only install (krew on darwin and linux/arm64): the plugin, LICENSE and bundle.source.
sha256() { # sha256 FILE
  if command -v sha256sum > /dev/null 2>&1; then sha256sum < "$1"; else shasum -a 256 < "$1"; fi | cut -d' ' -f1
}
bundle_url=https://example.invalid/releases/download/v0.1.0/nccl-triage-0.1.0-linux-x64.tar.gz
mkdir -p "$work/po/bin"
cp "$plugin" "$work/po/kubectl-nccl_triage"
echo "Apache License" > "$work/po/LICENSE"
printf 'url %s\nsha256 %s\n' "$bundle_url" "$(sha256 "$tarball")" > "$work/po/bundle.source"
ln -s "$work/po/kubectl-nccl_triage" "$work/po/bin/kubectl-nccl_triage"

begin "plugin-only install: the bundle is downloaded once, its sha256 checked, then sent"
plug_copy "$work/po/bin/kubectl-nccl_triage" trainer-0 -n ml
expect_rc 0
expect_out "fake nccl-triage check"
expect_err_has "downloading the bundle for the Pods, once: $bundle_url -> $work/cache/nccl-triage/nccl-triage-0.1.0-linux-x64.tar.gz"
if [ "$(wc -l < "$work/curl.log")" -ne 1 ] || ! grep -q " $bundle_url\$" "$work/curl.log"; then
  fail "curl calls: $(cat "$work/curl.log")"
fi
cmp -s "$tarball" "$work/cache/nccl-triage/nccl-triage-0.1.0-linux-x64.tar.gz" || fail "the cached bundle differs"
expect_clean_pod
: > "$work/kubectl.log"
plug_copy "$work/po/bin/kubectl-nccl_triage" trainer-0 -n ml
expect_rc 0
expect_out "fake nccl-triage check"
[ "$(wc -l < "$work/curl.log")" -eq 1 ] || fail "downloaded again: $(cat "$work/curl.log")"
! grep -q downloading "$work/err" || fail "said downloading again: $(cat "$work/err")"
done_case

begin "plugin-only install: a download with another sha256 is not used"
printf 'url %s\nsha256 %s\n' "$bundle_url" "$(printf '%064d' 0)" > "$work/po/bundle.source"
plug_copy "$work/po/bin/kubectl-nccl_triage" trainer-0
expect_rc 2
expect_err_has "nccl-triage: the download from $bundle_url has sha256 $(sha256 "$tarball"), not $(printf '%064d' 0)"
[ ! -s "$work/kubectl.log" ] || fail "kubectl was called: $(cat "$work/kubectl.log")"
[ -z "$(ls -A "$work/cache/nccl-triage")" ] || fail "left in the cache: $(ls -A "$work/cache/nccl-triage")"
printf 'url %s\nsha256 %s\n' "$bundle_url" "$(sha256 "$tarball")" > "$work/po/bundle.source"
done_case

begin "plugin-only install: NCCL_TRIAGE_BUNDLE_URL downloads from a mirror"
export NCCL_TRIAGE_BUNDLE_URL=https://mirror.example.invalid/x/nccl-triage-0.1.0-linux-x64.tar.gz
plug_copy "$work/po/bin/kubectl-nccl_triage" trainer-0
expect_rc 0
grep -q " $NCCL_TRIAGE_BUNDLE_URL\$" "$work/curl.log" || fail "curl calls: $(cat "$work/curl.log")"
done_case

begin "plugin-only install: NCCL_TRIAGE_NO_DOWNLOAD=1"
export NCCL_TRIAGE_NO_DOWNLOAD=1
plug_copy "$work/po/bin/kubectl-nccl_triage" trainer-0
expect_usage_error "NCCL_TRIAGE_NO_DOWNLOAD=1: download $bundle_url yourself and pass --bundle FILE"
[ ! -e "$work/curl.log" ] || fail "curl ran: $(cat "$work/curl.log")"
done_case

if command -v nccl-triage > /dev/null 2>&1; then
  echo "SKIP [plugin-only install: --logs needs nccl-triage here]: nccl-triage is on PATH" >&2
else
  begin "plugin-only install: --logs needs nccl-triage (bundle or JVM) here, and says so"
  plug_copy "$work/po/bin/kubectl-nccl_triage" --logs trainer-0
  expect_usage_error "--logs runs nccl-triage log on this machine, and there is none"
  expect_err_has "needs a JVM 17+"
  done_case
fi

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

begin "usage: no bundle: how to build it"
mkdir -p "$work/lonely"
cp "$plugin" "$work/lonely/"
plug_copy "$work/lonely/kubectl-nccl_triage" trainer-0
expect_usage_error "no bundle"
expect_err_has "build it with mvn -B -Pbundle package"
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
expect_usage_error "one Pod or Job at a time"
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
  shellcheck "$plugin" "$here/fake-kubectl" "$here/fake-krew" "$0" "$dist/krew/update-sha256.sh" >&2 \
    || fail "shellcheck"
  done_case
else
  echo "SKIP [shellcheck]: shellcheck is not installed" >&2
fi

failed=$(sort -u "$failures" | wc -l)
echo "kubectl-plugin-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
