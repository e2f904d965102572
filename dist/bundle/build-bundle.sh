#!/usr/bin/env bash
# Assembles the self-contained bundle target/nccl-triage-VERSION-linux-x64.tar.gz, and the krew
# plugin-only archive target/nccl-triage-VERSION-kubectl-plugin.tar.gz (the kubectl plugin, LICENSE
# and bundle.source: the bundle's release URL and sha256, for macOS and Linux arm64 laptops).
# Maven runs it in the `bundle` profile (mvn -B -Pbundle package), which writes the dependency class
# path it reads to target/bundle-work/runtime.classpath. See dist/bundle/README.md.
#
#   build-bundle.sh --version V --app-jar JAR --deps-classpath FILE --target DIR --build-jdk DIR [--jdk DIR]
#                   [--release-url URL]
#
#   --deps-classpath FILE  the runtime dependencies, as dependency:build-classpath writes them
#   --release-url URL      where the release's archives are published (bundle.source names
#                  URL/nccl-triage-V-linux-x64.tar.gz; it must be the krew manifest's uri). Default:
#                  https://github.com/nccl-triage/nccl-triage/releases/download/vV
#
#   --jdk DIR      the JDK whose runtime is bundled (also: BUNDLE_JDK). Default: of the JDKs found
#                  ($JAVA_HOME, the build JDK, /usr/lib/jvm/*, /opt/java/*), the one whose native
#                  code needs the oldest glibc, then the newest; it must be 17+ and have jmods/ or be
#                  24+ (JEP 493: jlink from the run-time image).
#   BUNDLE_MODULES the modules to link instead of the computed set (comma-separated).
#
# Steps: pick the JDK; compute the modules (jdeps, less the libraries' optional `requires static`
# modules the code never needs); jlink the runtime; strip native symbols; copy the jars with their
# entries stored; generate the launcher, man pages and completion; train and dump the CDS archive
# in the final layout; verify it maps; tar and gzip. Also links target/bundle-work/test-runtime
# (the same modules plus the test harness's) on which the profile runs the unit tests.
set -euo pipefail

say() { echo "bundle: $*" >&2; }
die() { echo "bundle: ERROR: $*" >&2; exit 1; }

VERSION='' APP_JAR='' DEPS_CP_FILE='' TARGET='' BUILD_JDK='' JDK=${BUNDLE_JDK:-} RELEASE_URL=
while [[ $# -gt 0 ]]; do
  case $1 in
    --version) VERSION=$2; shift 2 ;;
    --app-jar) APP_JAR=$2; shift 2 ;;
    --deps-classpath) DEPS_CP_FILE=$2; shift 2 ;;
    --target) TARGET=$2; shift 2 ;;
    --build-jdk) BUILD_JDK=$2; shift 2 ;;
    --jdk) # Maven passes an empty -Dbundle.jdk as "" or not at all
      if [[ $# -ge 2 && $2 != --* ]]; then JDK=${2:-$JDK}; shift 2; else shift; fi ;;
    --release-url)
      if [[ $# -ge 2 && $2 != --* ]]; then RELEASE_URL=$2; shift 2; else shift; fi ;;
    *) die "unknown argument: $1" ;;
  esac
done
[[ -n $VERSION && -n $APP_JAR && -n $DEPS_CP_FILE && -n $TARGET && -n $BUILD_JDK ]] ||
  die "usage: build-bundle.sh --version V --app-jar JAR --deps-classpath FILE --target DIR --build-jdk DIR [--jdk DIR]"
[[ -f $APP_JAR ]] || die "$APP_JAR not found (run mvn package first)"
[[ -f $DEPS_CP_FILE ]] || die "$DEPS_CP_FILE not found (the bundle profile writes it: mvn -Pbundle package)"
[[ -x $BUILD_JDK/bin/javac ]] || die "$BUILD_JDK/bin/javac not found: --build-jdk must be a JDK"

HERE=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd -P -- "$HERE/../.." && pwd -P)
# the plugin says its version (kubectl nccl-triage --version): it must be this release's
grep -qx "version=$VERSION" "$HERE/../kubectl-nccl_triage" ||
  die "dist/kubectl-nccl_triage says $(grep -m1 '^version=' "$HERE/../kubectl-nccl_triage" || echo 'no version='), not version=$VERSION: update it"
[[ -f $REPO/LICENSE ]] || die "$REPO/LICENSE not found"
TARGET=$(cd -P -- "$TARGET" && pwd -P)
NAME=nccl-triage-$VERSION-linux-x64
PLUGIN_NAME=nccl-triage-$VERSION-kubectl-plugin
RELEASE_URL=${RELEASE_URL:-https://github.com/nccl-triage/nccl-triage/releases/download/v$VERSION}
RELEASE_URL=${RELEASE_URL%/}
WORK=$TARGET/bundle-work
STAGE=$WORK/$NAME
TARBALL=$TARGET/$NAME.tar.gz
SAMPLE=01-healthy-ib-gdr-2.21.5.log
MAX_BYTES=26000000 # as dist/bundle/test-bundle.sh (25 MB until session 6)
export LC_ALL=C

# ---- helpers ---------------------------------------------------------------------------------

# JDK feature version from DIR/release (JAVA_VERSION="25.0.3" -> 25, "1.8.0_1" -> 8), or empty.
jdk_major() {
  local v
  v=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$1/release" 2> /dev/null | head -n 1)
  v=${v#1.}
  echo "${v%%[!0-9]*}"
}

# The newest GLIBC_x.y symbol version that the ELF files given need (objdump -T when present,
# else the version strings in the files, which name the same set), or "none".
glibc_of() {
  local v
  if command -v objdump > /dev/null 2>&1; then
    v=$(objdump -T "$@" 2> /dev/null | grep -o 'GLIBC_[0-9][0-9.]*' || true)
  else
    v=$(grep -aoh 'GLIBC_[0-9][0-9.]*' "$@" 2> /dev/null || true)
  fi
  v=$(printf '%s\n' "$v" | sed -n 's/^GLIBC_//p' | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)
  echo "${v:-none}"
}

# The native files of a JDK or runtime that the bundle would carry.
native_files() {
  find "$1/bin" "$1/lib" -maxdepth 2 -type f \( -name '*.so' -o -path '*/bin/java' -o -name jspawnhelper \) \
    2> /dev/null
}

ver_le() { [[ $(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | head -n 1) == "$1" ]]; }

# ---- 1. the JDK whose runtime is bundled -----------------------------------------------------
pick_jdk() {
  local cands=() d major linkable glibc best='' best_glibc='' best_major=''
  if [[ -n $JDK ]]; then
    cands=("$JDK")
  else
    cands=("${JAVA_HOME:-}" "$BUILD_JDK" /usr/lib/jvm/* /opt/java/* /opt/jdk*)
  fi
  local seen=" "
  say "candidate JDKs for the runtime (the oldest glibc wins, then the newest Java):"
  for d in "${cands[@]}"; do
    [[ -n $d && -x $d/bin/jlink && -x $d/bin/java ]] || continue
    d=$(cd -P -- "$d" && pwd -P)
    [[ $seen == *" $d "* ]] && continue
    seen+="$d "
    major=$(jdk_major "$d")
    [[ -n $major ]] || continue
    linkable=no
    if [[ -d $d/jmods ]]; then linkable=jmods
    elif [[ $major -ge 24 ]] && "$d/bin/jlink" --help 2> /dev/null | grep -q 'Linking from run-time image enabled'; then
      linkable=run-time-image   # JEP 493, when the JDK was built with it (Temurin's is)
    fi
    mapfile -t files < <(native_files "$d")
    glibc=$(glibc_of "${files[@]}")
    say "  $d: Java $major, links from $linkable, needs glibc $glibc"
    [[ $major -ge 17 && $linkable != no && $glibc != none ]] || continue
    if [[ -z $best ]] || ! ver_le "$best_glibc" "$glibc" ||
       { [[ $glibc == "$best_glibc" ]] && [[ $major -gt $best_major ]]; }; then
      best=$d best_glibc=$glibc best_major=$major
    fi
  done
  [[ -n $best ]] || die "no JDK 17+ with jmods/ (or 24+) found; set BUNDLE_JDK or -Dbundle.jdk"
  JDK=$best
  JDK_MAJOR=$best_major
  say "runtime from $JDK (Java $JDK_MAJOR, glibc $best_glibc)"
}
pick_jdk

# ---- 2. the modules ------------------------------------------------------------------------------
mapfile -t DEP_JARS < <(tr ':' '\n' < "$DEPS_CP_FILE" | sed '/^$/d' | sort)
[[ ${#DEP_JARS[@]} -gt 0 ]] || die "no jars in $DEPS_CP_FILE"
for jar in "${DEP_JARS[@]}"; do
  [[ -f $jar ]] || die "$jar (from $DEPS_CP_FILE) not found"
done
JDEPS=("$JDK/bin/jdeps" --multi-release 17 --ignore-missing-deps)

if [[ -n ${BUNDLE_MODULES:-} ]]; then
  MODULES=$BUNDLE_MODULES
  say "modules (BUNDLE_MODULES): $MODULES"
else
  # the platform modules each jar references ("jdeps -summary": "<module or jar> -> java.sql"); a
  # module is needed when nccl-triage references it, or a library references it without declaring
  # it optional (`requires static`) in its module descriptor
  summary=$("${JDEPS[@]}" -summary "$APP_JAR" "${DEP_JARS[@]}")
  declare -A DESC=()
  for jar in "${DEP_JARS[@]}"; do
    d=$("$JDK/bin/jar" --describe-module --file "$jar" --release 17 2> /dev/null || true)
    name=$(sed -n 's/^\([A-Za-z0-9_.]*\)@.*/\1/p' <<< "$d" | head -n 1)
    if [[ -n $name ]]; then DESC[$name]=$d; fi
  done
  keep=() dropped=()
  for m in $(awk '$2 == "->" && $3 ~ /^(java|jdk)\./ {print $3}' <<< "$summary" | sort -u); do
    need=no
    for who in $(awk -v m="$m" '$2 == "->" && $3 == m {print $1}' <<< "$summary" | sort -u); do
      req=$(grep -E "^requires $m( |$)" <<< "${DESC[$who]:-}" || true)
      if [[ -z ${DESC[$who]:-} || $req != *" static"* ]]; then need=yes; fi
    done
    if [[ $need == yes ]]; then keep+=("$m"); else dropped+=("$m"); fi
  done
  [[ " ${keep[*]} " == *" java.base "* ]] || keep=(java.base "${keep[@]}")
  MODULES=$(IFS=,; echo "${keep[*]}")
  say "jdeps --print-module-deps: $("${JDEPS[@]}" --print-module-deps "$APP_JAR" "${DEP_JARS[@]}")"
  say "modules: $MODULES${dropped:+ (left out, optional for the libraries and unused by nccl-triage: ${dropped[*]})}"
fi

# ---- 3. the runtime ----------------------------------------------------------------------------
rm -rf "${WORK:?}/$NAME" "$WORK/test-runtime" "$WORK/build-classes"
mkdir -p "$STAGE/bin" "$STAGE/lib/app" "$STAGE/share/samples"
if [[ $JDK_MAJOR -ge 21 ]]; then COMPRESS=(--compress zip-0); else COMPRESS=(--compress=0); fi
# zip-0: the tarball's gzip compresses the uncompressed module image to 8.0 MB; jlink's zip-9
# image is 11.9 MB and gzip gets it to 11.4 MB (Temurin 25, java.base).
# Left out as well: the TLS trust store and public-suffix list (nccl-triage opens no TLS connection),
# jrt-fs.jar (lets *other* JDKs read this image) and the default class list (the archive below
# has its own): 0.3 MB of the tarball. And libsimdsort.so (Java 22+): only C2's Arrays.sort
# intrinsics load it, and the launcher runs C1 only (-Xlog:library shows it unloaded); with C2
# turned on through NCCL_TRIAGE_JAVA_OPTS the JVM silently sorts without it. 0.1 MB.
EXCLUDE=glob:/java.base/lib/security/cacerts,glob:/java.base/lib/security/public_suffix_list.dat
EXCLUDE+=,glob:/java.base/lib/jrt-fs.jar,glob:/java.base/lib/libsimdsort.so
# Java 19+ maps a CDS archive whose class path moved with it (the bundle is unpacked anywhere);
# Java 17 does not, so a 17 runtime keeps the JDK's default archive instead of the bundle's own.
APP_CDS=yes GEN_CDS=()
if [[ $JDK_MAJOR -lt 19 ]]; then
  APP_CDS=no GEN_CDS=(--generate-cds-archive)
else
  EXCLUDE+=,glob:/java.base/lib/classlist
fi
if [[ $APP_CDS == no ]]; then
  say "WARNING: Java $JDK_MAJOR cannot use an application CDS archive after the bundle moves: the" \
      "runtime keeps the JDK's default archive only, and start-up is ~0.1 s slower"
fi
say "jlink --add-modules $MODULES"
"$JDK/bin/jlink" --add-modules "$MODULES" --strip-debug --no-header-files --no-man-pages \
  "${COMPRESS[@]}" --exclude-files="$EXCLUDE" "${GEN_CDS[@]}" --output "$STAGE/runtime" > "$WORK/jlink.log" 2>&1 ||
  { cat "$WORK/jlink.log" >&2; die "jlink failed"; }
# the JDK's default CDS archives: the bundle's own archive (below) replaces them (-Xmx256m always
# has compressed oops, so the nocoops one is never used)
rm -f "$STAGE"/runtime/lib/server/classes_nocoops.jsa
if [[ $APP_CDS == yes ]]; then rm -f "$STAGE"/runtime/lib/server/classes.jsa; fi
# symbol tables: hs_err crash logs then show addresses instead of function names in libjvm; saves
# 1.6 MB of the tarball. Without binutils the bundle is built unstripped (and may exceed 25 MB).
if command -v strip > /dev/null 2>&1; then
  find "$STAGE/runtime" -type f -name '*.so' -exec strip --strip-unneeded {} +
else
  say "WARNING: no 'strip' (binutils): native symbols kept, the tarball is ~1.6 MB larger"
fi

say "jlink test runtime (+ java.logging,java.management,jdk.unsupported for surefire and JUnit)"
"$JDK/bin/jlink" --add-modules "$MODULES,java.logging,java.management,jdk.unsupported" \
  --no-header-files --no-man-pages "${COMPRESS[@]}" --output "$WORK/test-runtime" > "$WORK/jlink-test.log" 2>&1 ||
  { cat "$WORK/jlink-test.log" >&2; die "jlink of the test runtime failed"; }

# ---- 4. jars, launcher, docs, sample ---------------------------------------------------------
say "compiling the build-time tools (src/build/java) with $BUILD_JDK"
DEP_CP=$(IFS=:; echo "${DEP_JARS[*]}")
mapfile -t SOURCES < <(find "$REPO/src/build/java" -name '*.java')
"$BUILD_JDK/bin/javac" --release 17 -encoding UTF-8 -nowarn -d "$WORK/build-classes" -cp "$APP_JAR:$DEP_CP" "${SOURCES[@]}" ||
  die "javac of src/build/java failed"
TOOLS=("$BUILD_JDK/bin/java" -cp "$WORK/build-classes:$APP_JAR:$DEP_CP" dev.nccltriage.build.BundleTools)

CLASSPATH_REL=()
for jar in "$APP_JAR" "${DEP_JARS[@]}"; do
  base=$(basename "$jar")
  "${TOOLS[@]}" store-jar "$jar" "$STAGE/lib/app/$base" || die "store-jar $jar failed"
  CLASSPATH_REL+=("\$root/lib/app/$base")
done
CP_LINE=$(IFS=:; echo "${CLASSPATH_REL[*]}")

QUIET_CDS='-Xlog:cds*=off:stderr'
if "$STAGE/runtime/bin/java" -Xlog:aot*=off -version > /dev/null 2>&1; then
  QUIET_CDS+=' -Xlog:aot*=off:stderr'
fi
NATIVE_ACCESS=
if "$STAGE/runtime/bin/java" --enable-native-access=ALL-UNNAMED -version > /dev/null 2>&1; then
  NATIVE_ACCESS=--enable-native-access=ALL-UNNAMED
fi
sed -e "s|@CLASSPATH@|$CP_LINE|" -e "s|@QUIET_CDS@|$QUIET_CDS|" -e "s|@NATIVE_ACCESS@|$NATIVE_ACCESS|" \
  "$HERE/nccl-triage" > "$STAGE/bin/nccl-triage"
if grep -q '@[A-Z_]*@' "$STAGE/bin/nccl-triage"; then die "a placeholder is left in bin/nccl-triage"; fi
chmod 755 "$STAGE/bin/nccl-triage"
# the kubectl plugin travels in the bundle: krew installs the bundle and runs bin/kubectl-nccl_triage
install -m 755 "$HERE/../kubectl-nccl_triage" "$STAGE/bin/kubectl-nccl_triage"
install -m 644 "$REPO/LICENSE" "$STAGE/LICENSE"

say "man pages and completion from picocli's model"
"${TOOLS[@]}" docs "$STAGE" "$VERSION" || die "docs generation failed"
cp "$REPO/samples/logs/$SAMPLE" "$STAGE/share/samples/"

# ---- 5. the class-data-sharing archive, trained in the final layout --------------------------
# A static archive, dumped with the launcher's own flags and class path, of the classes that three
# training runs load (the bundled sample read in parts by two threads as a large log is, as JSON;
# read from a pipe and whole, as text; check over a sample capture), lists merged by
# dist/bin/merge-classlists.awk: the JDK's and nccl-triage's own. It replaces the JDK's default
# archive. The libraries' classes (Jackson, SnakeYAML) load from lib/app: archiving them too would
# add 1.6 MB to the tarball and take ~50 ms off `log`, which the 26 MB limit does not leave room
# for (dist/bundle/README.md). picocli's classes are the app jar's (built from its sources as Java
# 17 class files), so they are archived and linked with ours.
if [[ $APP_CDS == yes ]]; then
  say "CDS: training runs (log -o json in parts, log of a pipe as text, check of a sample capture)"
  CLASSLIST=$WORK/classlist
  # train NAME ARGS...: the bundled launcher in the final layout, its class list in $WORK/classlist.NAME
  train() {
    local name=$1 rc=0
    shift
    NCCL_TRIAGE_JAVA_OPTS="-Xshare:off -XX:DumpLoadedClassList=$CLASSLIST.$name" \
      "$STAGE/bin/nccl-triage" "$@" > "$WORK/training-$name.out" 2> "$WORK/training-$name.err" || rc=$?
    [[ $rc -le 1 && -s $CLASSLIST.$name ]] || { cat "$WORK/training-$name.err" >&2; die "training run $name failed (exit $rc)"; }
  }
  train parts log -o json --threads 2 --parallel-min-bytes 1024 "$STAGE/share/samples/$SAMPLE"
  train text log - "$STAGE/share/samples/$SAMPLE" < <(cat "$STAGE/share/samples/$SAMPLE")
  # the capture from the checkout (not shipped): the probes' classes (check -40 ms)
  train check check --root "$REPO/samples/captures/healthy-8hca-gdr-net1" -o json
  awk -f "$REPO/dist/bin/merge-classlists.awk" "$CLASSLIST.parts" "$CLASSLIST.text" "$CLASSLIST.check" > "$CLASSLIST"

  # the library classes: every class file in the dependency jars
  for jar in "${DEP_JARS[@]}"; do
    "$JDK/bin/jar" tf "$jar" | sed -n 's|^\(META-INF/versions/[0-9]*/\)\{0,1\}\(.*\)\.class$|\2|p'
  done | sort -u > "$WORK/library-classes"
  awk 'NR == FNR { lib[$1] = 1; next }
       /^@lambda-form-invoker/ { print; next }
       /^@/ { if (!($2 in lib)) print; next }
       { if (!($1 in lib)) print }' "$WORK/library-classes" "$CLASSLIST" > "$WORK/classlist.archived"
  say "CDS: $(grep -vc '^@' "$WORK/classlist.archived") of $(grep -vc '^@' "$CLASSLIST") loaded classes to archive"

  # Java 24+ also links the archived classes ahead of time (JEP 483's -XX:+AOTClassLinking, here
  # with a static dump): `log` on the sample 423 -> 388 ms, `check` 602 -> 583 ms, --version the
  # same, and the archive 0.07 MB smaller (dist/bundle/README.md). A full AOT cache
  # (-XX:AOTCacheOutput) would take `log` to 344 ms, but it archives the libraries' classes too:
  # 1.4 MB more than the tarball's limit leaves.
  AOT_LINK=
  if "$STAGE/runtime/bin/java" -XX:+AOTClassLinking -version > /dev/null 2>&1; then
    AOT_LINK=-XX:+AOTClassLinking
  fi
  rc=0
  NCCL_TRIAGE_JAVA_OPTS="-Xshare:dump -XX:SharedClassListFile=$WORK/classlist.archived -XX:SharedArchiveFile=$STAGE/lib/nccl-triage.jsa $AOT_LINK -Xlog:cds=warning:file=$WORK/dump.log" \
    "$STAGE/bin/nccl-triage" --version > /dev/null 2> "$WORK/dump.err" || rc=$?
  [[ $rc -eq 0 && -s $STAGE/lib/nccl-triage.jsa ]] || { cat "$WORK/dump.err" >&2; die "CDS dump failed (exit $rc)"; }
  # -Xshare:on fails instead of running without the archive: proves the launcher maps it
  NCCL_TRIAGE_JAVA_OPTS=-Xshare:on "$STAGE/bin/nccl-triage" --version > /dev/null 2> "$WORK/verify.err" ||
    { cat "$WORK/verify.err" >&2; die "the launcher cannot map lib/nccl-triage.jsa"; }
else
  NCCL_TRIAGE_JAVA_OPTS=-Xshare:on "$STAGE/bin/nccl-triage" --version > /dev/null 2> "$WORK/verify.err" ||
    { cat "$WORK/verify.err" >&2; die "the launcher cannot map the runtime's CDS archive"; }
fi

# ---- 6. README, permissions, tarball ------------------------------------------------------------
mapfile -t files < <(native_files "$STAGE/runtime")
GLIBC=$(glibc_of "${files[@]}")
JAVA_VERSION=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$STAGE/runtime/release")
JAVA_VENDOR=$(sed -n 's/^IMPLEMENTOR="\(.*\)"/\1/p' "$JDK/release")
sed -e "s|@VERSION@|$VERSION|g" -e "s|@GLIBC@|$GLIBC|g" -e "s|@JAVA_VERSION@|$JAVA_VERSION|g" \
  -e "s|@JAVA_VENDOR@|${JAVA_VENDOR:-unknown}|g" -e "s|@MODULES@|$MODULES|g" -e "s|@NAME@|$NAME|g" \
  "$HERE/README.txt" > "$STAGE/README.txt"

chmod -R u+rwX,go+rX,go-w "$STAGE"
rm -f "$TARBALL"
# mtimes are kept as they are: the CDS archive checks the jars' modification times
tar -C "$WORK" --sort=name --owner=0 --group=0 --numeric-owner -cf - "$NAME" | gzip -9 -n > "$TARBALL.tmp"
mv "$TARBALL.tmp" "$TARBALL"

# ---- 7. the krew plugin-only archive (macOS, Linux arm64): plugin, LICENSE, where the bundle is --
PSTAGE=$WORK/$PLUGIN_NAME
rm -rf "$PSTAGE"
mkdir -p "$PSTAGE"
install -m 755 "$HERE/../kubectl-nccl_triage" "$PSTAGE/kubectl-nccl_triage"
install -m 644 "$REPO/LICENSE" "$PSTAGE/LICENSE"
{
  echo "url $RELEASE_URL/$NAME.tar.gz"
  echo "sha256 $(sha256sum < "$TARBALL" | cut -d' ' -f1)"
} > "$PSTAGE/bundle.source"
chmod 644 "$PSTAGE/bundle.source"
rm -f "$TARGET/$PLUGIN_NAME.tar.gz"
tar -C "$WORK" --sort=name --owner=0 --group=0 --numeric-owner -cf - "$PLUGIN_NAME" | gzip -9 -n > "$TARGET/$PLUGIN_NAME.tar.gz.tmp"
mv "$TARGET/$PLUGIN_NAME.tar.gz.tmp" "$TARGET/$PLUGIN_NAME.tar.gz"
say "wrote $TARGET/$PLUGIN_NAME.tar.gz (its bundle.source: $RELEASE_URL/$NAME.tar.gz)"

bytes=$(stat -c %s "$TARBALL")
say "runtime: Java $JAVA_VERSION (${JAVA_VENDOR:-?}), modules $MODULES, needs glibc >= $GLIBC"
say "$(cd "$STAGE" && du -sh . | cut -f1) unpacked; largest parts (bytes before gzip):"
(cd "$STAGE" && find . -type f -size +500k -printf '  %s %p\n' | sort -rn) >&2
say "wrote $TARBALL ($bytes bytes, $(awk -v b="$bytes" 'BEGIN{printf "%.2f", b/1e6}') MB)"
if [[ $bytes -gt $MAX_BYTES ]]; then
  say "WARNING: over the $MAX_BYTES-byte limit (dist/bundle/test-bundle.sh fails on it)"
fi
