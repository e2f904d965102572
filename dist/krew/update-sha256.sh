#!/bin/sh
# Usage: dist/krew/update-sha256.sh TARBALL [MANIFEST]
#
# Fills the krew manifest (default: nccl-triage.yaml beside this script) in for a release tarball
# named nccl-triage-VERSION-linux-x64.tar.gz: spec.version vVERSION, the version in the uri, the
# top directory in bin, and the sha256 of TARBALL itself. Refuses (exit 1, manifest untouched) a
# tarball that lacks nccl-triage-VERSION/bin/kubectl-nccl_triage or bin/nccl-triage, or where
# either is not executable, since krew would then install a plugin that cannot run. Exit 2: usage.
set -eu

me=update-sha256
die() { echo "$me: $2" >&2; exit "$1"; }

if [ $# -lt 1 ] || [ $# -gt 2 ]; then die 2 "usage: $0 TARBALL [MANIFEST]"; fi
tarball=$1
manifest=${2:-$(cd -P -- "$(dirname -- "$0")" && pwd -P)/nccl-triage.yaml}
if [ ! -f "$tarball" ] || [ ! -r "$tarball" ]; then die 2 "$tarball: not a readable file"; fi
if [ ! -f "$manifest" ] || [ ! -w "$manifest" ]; then die 2 "$manifest: not a writable file"; fi

name=${tarball##*/}
version=${name#nccl-triage-}
version=${version%-linux-x64.tar.gz}
case $name in
  nccl-triage-?*-linux-x64.tar.gz) ;;
  *) die 2 "$name: expected a name like nccl-triage-VERSION-linux-x64.tar.gz" ;;
esac
case $version in
  *[!A-Za-z0-9.+_-]*) die 2 "$name: odd characters in version '$version'" ;;
esac
top=nccl-triage-$version

# The plugin and the launcher must be in the tarball, executable (entries may start with ./).
listing=$(tar -tvzf "$tarball") || die 1 "$tarball: cannot list it with tar -tvzf"
for f in bin/kubectl-nccl_triage bin/nccl-triage; do
  mode=$(printf '%s\n' "$listing" | awk -v a="$top/$f" -v b="./$top/$f" '$NF == a || $NF == b { print $1; exit }')
  [ -n "$mode" ] || die 1 "$tarball has no $top/$f: the bundle must include it for krew"
  case $mode in
    -??x*) ;;
    *) die 1 "$tarball: $top/$f is not executable ($mode)" ;;
  esac
done

if command -v sha256sum > /dev/null 2>&1; then
  sum=$(sha256sum < "$tarball")
elif command -v shasum > /dev/null 2>&1; then
  sum=$(shasum -a 256 < "$tarball")
elif command -v openssl > /dev/null 2>&1; then
  sum=$(openssl dgst -sha256 -r < "$tarball")
else
  die 1 "no sha256sum, shasum or openssl to hash $tarball"
fi
sum=${sum%% *}
case $sum in
  *[!0-9a-f]*) die 1 "could not hash $tarball (got '$sum')" ;;
esac
[ ${#sum} -eq 64 ] || die 1 "could not hash $tarball (got '$sum')"

tmp=$manifest.tmp.$$
trap 'rm -f "$tmp"' EXIT
sed -E \
  -e "s|^(  version:) .*$|\\1 v$version|" \
  -e "s|^(    uri: .*/releases/download/)[^/]+/nccl-triage-[^/]+-linux-x64\\.tar\\.gz$|\\1v$version/$name|" \
  -e "s|^(    sha256:) .*$|\\1 $sum|" \
  -e "s|^(    bin:) [^/]+/bin/kubectl-nccl_triage$|\\1 $top/bin/kubectl-nccl_triage|" \
  "$manifest" > "$tmp"
for want in "  version: v$version" "    sha256: $sum" "    bin: $top/bin/kubectl-nccl_triage"; do
  grep -qxF -- "$want" "$tmp" || die 1 "$manifest: no line to set to '$want' (was its layout changed?)"
done
grep -qE "^    uri: .*/releases/download/v$version/$name\$" "$tmp" \
  || die 1 "$manifest: no uri line to point at v$version/$name"
cat "$tmp" > "$manifest"
echo "$me: $manifest: version v$version, sha256 $sum"
