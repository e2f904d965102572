#!/bin/sh
# Usage: dist/krew/update-sha256.sh BUNDLE [MANIFEST]
#
# Fills the krew manifest (default: nccl-triage.yaml beside this script) in for a release. BUNDLE
# is nccl-triage-VERSION-linux-x64.tar.gz; the plugin-only archive
# nccl-triage-VERSION-kubectl-plugin.tar.gz must lie beside it (`mvn -B -Pbundle package` makes both
# in target/). Sets spec.version vVERSION and, in every platform, the version in uri, the top folder
# in bin, and the sha256 of the archive its uri names. Refuses (exit 1, manifest untouched) what
# krew would install as a plugin that cannot run or has no licence:
#   BUNDLE without nccl-triage-VERSION-linux-x64/bin/kubectl-nccl_triage and bin/nccl-triage
#     (executable) and LICENSE;
#   a plugin archive without nccl-triage-VERSION-kubectl-plugin/kubectl-nccl_triage (executable),
#     LICENSE and bundle.source, or whose bundle.source names another sha256 than BUNDLE's or
#     another URL than the manifest's linux-x64 uri.
# Exit 2: usage.
set -eu

me=update-sha256
die() { echo "$me: $2" >&2; exit "$1"; }

if [ $# -lt 1 ] || [ $# -gt 2 ]; then die 2 "usage: $0 BUNDLE [MANIFEST]"; fi
bundle=$1
manifest=${2:-$(cd -P -- "$(dirname -- "$0")" && pwd -P)/nccl-triage.yaml}
if [ ! -f "$bundle" ] || [ ! -r "$bundle" ]; then die 2 "$bundle: not a readable file"; fi
if [ ! -f "$manifest" ] || [ ! -w "$manifest" ]; then die 2 "$manifest: not a writable file"; fi

name=${bundle##*/}
version=${name#nccl-triage-}
version=${version%-linux-x64.tar.gz}
case $name in
  nccl-triage-?*-linux-x64.tar.gz) ;;
  *) die 2 "$name: expected a name like nccl-triage-VERSION-linux-x64.tar.gz" ;;
esac
case $version in
  *[!A-Za-z0-9.+_-]*) die 2 "$name: odd characters in version '$version'" ;;
esac
plugin=$(dirname -- "$bundle")/nccl-triage-$version-kubectl-plugin.tar.gz
[ -f "$plugin" ] || die 1 "$plugin is missing: mvn -B -Pbundle package makes it beside $name"

# has ARCHIVE TOP FILE...: each TOP/FILE is in ARCHIVE (entries may start with ./); a FILE ending
# in * must be executable
has() {
  a=$1 t=$2
  shift 2
  listing=$(tar -tvzf "$a") || die 1 "$a: cannot list it with tar -tvzf"
  for f in "$@"; do
    x=${f%\*}
    mode=$(printf '%s\n' "$listing" | awk -v a="$t/$x" -v b="./$t/$x" '$NF == a || $NF == b { print $1; exit }')
    [ -n "$mode" ] || die 1 "$a has no $t/$x: krew needs it"
    case $f:$mode in
      *\*:-??x*) ;;
      *\*:*) die 1 "$a: $t/$x is not executable ($mode)" ;;
    esac
  done
}
has "$bundle" "nccl-triage-$version-linux-x64" 'bin/kubectl-nccl_triage*' 'bin/nccl-triage*' LICENSE
has "$plugin" "nccl-triage-$version-kubectl-plugin" 'kubectl-nccl_triage*' LICENSE bundle.source

sha() {
  if command -v sha256sum > /dev/null 2>&1; then
    s=$(sha256sum < "$1")
  elif command -v shasum > /dev/null 2>&1; then
    s=$(shasum -a 256 < "$1")
  elif command -v openssl > /dev/null 2>&1; then
    s=$(openssl dgst -sha256 -r < "$1")
  else
    die 1 "no sha256sum, shasum or openssl to hash $1"
  fi
  s=${s%% *}
  case $s in *[!0-9a-f]* | '') die 1 "could not hash $1 (got '$s')" ;; esac
  [ ${#s} -eq 64 ] || die 1 "could not hash $1 (got '$s')"
  printf '%s\n' "$s"
}
bundle_sum=$(sha "$bundle")
plugin_sum=$(sha "$plugin")

tmp=$manifest.tmp.$$
trap 'rm -f "$tmp"' EXIT
# Each platform names its archive in uri before sha256 and bin: the kind of archive (linux-x64 or
# kubectl-plugin) decides the hash and the top folder of the lines that follow.
awk -v v="$version" -v bs="$bundle_sum" -v ps="$plugin_sum" '
  /^  version: / { print "  version: v" v; next }
  /^    uri: / {
    kind = ""
    if (match($0, /\/releases\/download\/[^\/]+\/nccl-triage-[^\/]+-(linux-x64|kubectl-plugin)\.tar\.gz$/)) {
      kind = ($0 ~ /-linux-x64\.tar\.gz$/) ? "linux-x64" : "kubectl-plugin"
      print substr($0, 1, RSTART - 1) "/releases/download/v" v "/nccl-triage-" v "-" kind ".tar.gz"
      uris++
      next
    }
    bad = bad "a uri that names no release archive: " $0 "\n"; print; next
  }
  /^    sha256: / {
    if (kind == "") { bad = bad "a sha256 before any uri\n"; print; next }
    print "    sha256: " (kind == "linux-x64" ? bs : ps); sums++; next
  }
  /^    bin: / {
    if (kind == "" || !match($0, /^    bin: [^\/]+\//)) { bad = bad "a bin not under a top folder: " $0 "\n"; print; next }
    print "    bin: nccl-triage-" v "-" kind "/" substr($0, RLENGTH + 1); bins++; next
  }
  { print }
  END {
    if (uris == 0 || uris != sums || uris != bins) bad = bad uris " uri, " sums " sha256 and " bins " bin lines\n"
    if (bad != "") { printf "%s", bad > "/dev/stderr"; exit 1 }
  }' "$manifest" > "$tmp" || die 1 "$manifest: could not fill it in (was its layout changed?)"
grep -qxF "  version: v$version" "$tmp" || die 1 "$manifest: no spec.version line"
grep -qE "^    uri: .*/releases/download/v$version/nccl-triage-$version-linux-x64\\.tar\\.gz\$" "$tmp" \
  || die 1 "$manifest: no platform takes $name"
grep -qE "^    uri: .*/releases/download/v$version/nccl-triage-$version-kubectl-plugin\\.tar\\.gz\$" "$tmp" \
  || die 1 "$manifest: no platform takes ${plugin##*/}"

# the plugin-only install downloads the bundle from the linux-x64 uri: both must name the same file
src=$(tar -xzOf "$plugin" "nccl-triage-$version-kubectl-plugin/bundle.source") \
  || die 1 "$plugin: cannot read bundle.source"
src_url=$(printf '%s\n' "$src" | sed -n 's/^url //p')
src_sum=$(printf '%s\n' "$src" | sed -n 's/^sha256 //p')
uri=$(sed -n "s/^    uri: \\(.*-linux-x64\\.tar\\.gz\\)\$/\\1/p" "$tmp" | head -n 1)
[ "$src_sum" = "$bundle_sum" ] || die 1 "$plugin: bundle.source says sha256 $src_sum, $name has $bundle_sum (not from one build?)"
[ "$src_url" = "$uri" ] || die 1 "$plugin: bundle.source downloads $src_url, the manifest publishes $uri (build with -Dbundle.release.url=...)"

cat "$tmp" > "$manifest"
echo "$me: $manifest: version v$version, $name sha256 $bundle_sum, ${plugin##*/} sha256 $plugin_sum"
